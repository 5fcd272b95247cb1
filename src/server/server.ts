/**
 * The server process: reads and validates the environment, builds the app,
 * listens, and closes gracefully on SIGTERM/SIGINT (stop accepting, finish
 * in-flight requests, close the database). The only module that reads
 * process.env or calls listen.
 *
 *   PORT (3000)  HOST (0.0.0.0)  DATABASE_PATH (data/mahjong.db)
 *   COOKIE_SECRET (default: generated on first start and kept in the database)
 *   LOG_LEVEL (info)  TRUST_PROXY (unset: false; 'true', a hop count or addresses)
 *   DEAL_WORKERS (1)
 */
import { z } from 'zod';
import { buildApp } from './app.ts';

const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_PATH: z.string().min(1).default('data/mahjong.db'),
  COOKIE_SECRET: z.string().min(32, 'COOKIE_SECRET must be at least 32 characters').optional(),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .string()
    .optional()
    .transform((v) => (v === undefined || v === '' || v === 'false' ? false : v === 'true' ? true : v)),
  DEAL_WORKERS: z.coerce.number().int().min(0).max(16).default(1),
});

const GRACE_MS = 10_000; // how long in-flight requests get on shutdown

const parsed = EnvSchema.safeParse(process.env);
if (!parsed.success) {
  for (const issue of parsed.error.issues) console.error(`environment: ${issue.path.join('.')}: ${issue.message}`);
  process.exit(2);
}
const env = parsed.data;

const app = buildApp({
  databasePath: env.DATABASE_PATH,
  cookieSecret: env.COOKIE_SECRET,
  trustProxy: env.TRUST_PROXY,
  logger: { level: env.LOG_LEVEL },
  dealer: { workers: env.DEAL_WORKERS },
});

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info({ signal }, 'shutting down');
  const timer = setTimeout(() => {
    app.log.error('shutdown took too long; exiting');
    process.exit(1);
  }, GRACE_MS);
  timer.unref();
  try {
    await app.close(); // stops accepting, waits for in-flight requests, runs onClose (database, workers)
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
