/**
 * The server process: reads and validates the environment (config.ts), builds the app,
 * listens, and closes gracefully on SIGTERM/SIGINT: stop accepting connections, let in-flight
 * requests finish, stop the deal workers, close the database (SQLite: which checkpoints the WAL; PostgreSQL: ends the pool). The
 * only module that reads process.env or calls listen.
 *
 * Bad configuration exits with status 2 and one line per problem on stderr; a failed start or
 * a shutdown past GRACE_MS exits with 1.
 */
import { buildApp } from './app.ts';
import { parseEnv } from './config.ts';

const GRACE_MS = 10_000; // how long in-flight requests get on shutdown; a container stop waits 10 s before SIGKILL

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
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down: no new connections; finishing in-flight requests');
  const timer = setTimeout(() => {
    app.log.error(`shutdown took longer than ${GRACE_MS} ms; exiting`);
    process.exit(1);
  }, GRACE_MS);
  timer.unref();
  try {
    await app.close(); // stops accepting, waits for in-flight requests, then onClose: workers, database
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
  app.log.error({ err: error }, 'could not start');
  process.exit(1);
}
