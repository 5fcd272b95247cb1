/** The server process: reads env, listens, drains and closes on SIGTERM (docs/operations.md, "Stopping"). */
import { buildApp } from './app.ts';
import { parseEnv } from './config.ts';
import { waitForDrain } from './readiness.ts';
import { SecretFileError } from './secret.ts';

const GRACE_MS = 10_000; // for in-flight requests after the drain

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
    // Never log the player cookie (the player's identity) or a forwarded authorization.
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
    await app.close(); // stops accepting, waits for requests, then workers and database
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
