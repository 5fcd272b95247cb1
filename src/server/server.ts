/**
 * The server process: reads and validates the environment (config.ts), builds the app,
 * listens, and closes gracefully on SIGTERM/SIGINT. The only module that reads process.env or calls listen.
 *
 * Closing, in order (docs/operations.md, "Stopping"; readiness.ts):
 * 1. Drain: `/healthz` answers 503 `draining` and every answer says `Connection: close`, while requests are
 *    served as before, for DRAIN_MS: the balancer sees the failed checks and stops sending new requests here.
 *    If requests still arrive then (a balancer slower than planned), it goes on until none came for a second,
 *    ten more at most (readiness.ts). Skipped unless a balancer is checking /healthz (nobody to tell), and cut
 *    short by a second signal.
 * 2. Close: stop listening (a new connection is refused: a balancer tries another process), close idle
 *    keep-alive sockets, let in-flight requests finish (their answers close their connections), then stop
 *    the deal workers and close the database (SQLite: which checkpoints the WAL; PostgreSQL: ends the pool).
 * 3. Exit 0.
 *
 * Bad configuration (also a damaged cookie secret file, secret.ts) exits with status 2 and one line per problem
 * on stderr; a failed start, or a close
 * that takes longer than GRACE_MS after the drain, exits with 1.
 */
import { buildApp } from './app.ts';
import { parseEnv } from './config.ts';
import { waitForDrain } from './readiness.ts';
import { SecretFileError } from './secret.ts';

const GRACE_MS = 10_000; // how long in-flight requests get once the drain is over

const parsed = parseEnv(process.env);
if (!parsed.ok) {
  for (const error of parsed.errors) console.error(`mahjong server: environment: ${error}`);
  process.exit(2);
}
const env = parsed.value;

const app = buildApp({
  databasePath: env.DATABASE_PATH,
  databaseUrl: env.DATABASE_URL,
  databasePoolMax: env.DATABASE_POOL_MAX,
  cookieSecret: env.COOKIE_SECRET,
  publicOrigin: env.PUBLIC_ORIGIN,
  trustProxy: env.TRUST_PROXY,
  redisUrl: env.REDIS_URL,
  logger: {
    level: env.LOG_LEVEL,
    // Never log the player cookie (it is the player's identity) or a forwarded authorization.
    redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
  },
  dealer: { workers: env.DEAL_WORKERS },
  growthPerClient: env.GROWTH_PER_CLIENT_MB * 1024 * 1024,
  metricsToken: env.METRICS_TOKEN,
});

let closing = false;
let endDrain: (() => void) | undefined;
async function shutdown(signal: string): Promise<void> {
  if (closing) {
    endDrain?.(); // a second signal: close now
    return;
  }
  closing = true;
  const now = Date.now();
  const drainMs = app.readiness.watched(now) ? env.DRAIN_MS : 0;
  app.readiness.drain(now);
  if (drainMs > 0) {
    app.log.info(
      { signal, drainMs },
      'draining: /healthz answers 503 so the balancer stops sending here; serving meanwhile',
    );
    const drain = waitForDrain(app.server, drainMs);
    endDrain = drain.end;
    app.log.info(await drain.done, 'drained');
  }
  app.log.info({ signal }, 'shutting down: no new connections; finishing in-flight requests');
  const timer = setTimeout(() => {
    app.log.error(`shutdown took longer than ${GRACE_MS} ms; exiting`);
    process.exit(1);
  }, GRACE_MS);
  timer.unref();
  try {
    await app.close(); // stops accepting, closes idle sockets, waits for in-flight requests, then onClose: workers, database
    app.log.info('closed');
    process.exit(0);
  } catch (error) {
    app.log.error({ err: error }, 'shutdown failed');
    process.exit(1);
  }
}
process.on('SIGTERM', () => void shutdown('SIGTERM'));
process.on('SIGINT', () => void shutdown('SIGINT'));

try {
  await app.listen({ port: env.PORT, host: env.HOST });
} catch (error) {
  if (error instanceof SecretFileError) {
    console.error(`mahjong server: ${error.message}`); // one line: which file, what is wrong, what to do
    process.exit(2);
  }
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
