/**
 * The server's environment, validated with zod (docs/server.md, "Configuration"). server.ts
 * passes `process.env` in; this module never reads it, so tests can try any environment.
 *
 *   PORT (3000)  HOST (0.0.0.0)  DATABASE_PATH (data/mahjong.db)
 *   DATABASE_URL (unset: SQLite at DATABASE_PATH; postgres://… : PostgreSQL)  DATABASE_POOL_MAX (10)
 *   COOKIE_SECRET (default: generated on first start and kept in the database)
 *   LOG_LEVEL (info)  TRUST_PROXY (false)  DEAL_WORKERS (2)  PUBLIC_ORIGIN (unset)  REDIS_URL (unset)
 *   GROWTH_PER_CLIENT_MB (64: what one client may add to the database in a day, services/growth.ts)
 *   METRICS_TOKEN (unset: no /metrics; set: GET /metrics with `Authorization: Bearer <token>`, plugins/metrics.ts)
 *   DRAIN_MS (5000: on SIGTERM, how long /healthz says "draining" before the process closes, readiness.ts)
 *
 * PUBLIC_ORIGIN (`https://mahjong.example`) is where the site is served: share links are built from
 * it, never from the client's Host header, and POSTs must come from it. COOKIE_SECRET must look
 * random: 32+ characters, no surrounding spaces, at least 16 different characters.
 *
 * TRUST_PROXY says whose X-Forwarded-For/-Proto to believe: the client address feeds the rate
 * limits and the protocol decides the cookie's Secure flag, so believing a client that is not
 * our proxy would let it pick its own address and dodge every limit. Accepted: `false` (default,
 * also empty), `true` (trust every hop: only when the port is reachable by the proxy alone), a
 * hop count 1–10, or a comma-separated list of addresses, CIDR ranges and the names
 * `loopback`, `linklocal`, `uniquelocal`. Anything else is refused at start.
 */
import { isIP } from 'node:net';
import { z } from 'zod';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** One entry of a TRUST_PROXY list: an address, an address/prefix, or a proxy-addr name. */
function isProxyEntry(entry: string): boolean {
  if (PROXY_NAMES.has(entry)) return true;
  const [address, prefix, extra] = entry.split('/');
  const family = isIP(address ?? '');
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  if (!/^[0-9]{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

export type TrustProxy = boolean | number | string[];

const TrustProxySchema = z
  .string()
  .max(1000, 'TRUST_PROXY is too long')
  .optional()
  .transform((raw, ctx): TrustProxy => {
    const v = (raw ?? '').trim();
    if (v === '' || v === 'false') return false;
    if (v === 'true') return true;
    if (/^[0-9]+$/.test(v)) {
      const hops = Number(v);
      if (hops >= 1 && hops <= 10) return hops;
      ctx.addIssue({ code: 'custom', message: 'a hop count is 1 to 10' });
      return z.NEVER;
    }
    const entries = v.split(',').map((e) => e.trim());
    const bad = entries.find((e) => !isProxyEntry(e));
    if (bad !== undefined) {
      ctx.addIssue({
        code: 'custom',
        message: `${JSON.stringify(bad.slice(0, 60))} is not true, false, a hop count, an address, a CIDR range or loopback/linklocal/uniquelocal`,
      });
      return z.NEVER;
    }
    return entries;
  });

const PublicOriginSchema = z
  .string()
  .max(200, 'PUBLIC_ORIGIN is too long')
  .optional()
  .transform((raw, ctx): string | undefined => {
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      ctx.addIssue({ code: 'custom', message: 'PUBLIC_ORIGIN is a URL such as https://mahjong.example' });
      return z.NEVER;
    }
    if (
      !['http:', 'https:'].includes(url.protocol) ||
      url.username ||
      url.password ||
      url.pathname !== '/' ||
      url.search ||
      url.hash
    ) {
      ctx.addIssue({
        code: 'custom',
        message: 'PUBLIC_ORIGIN is scheme, host and port only, such as https://mahjong.example',
      });
      return z.NEVER;
    }
    return url.origin;
  });

/** REDIS_URL: redis:// or rediss:// with a host; its password, if any, is never printed. */
const RedisUrlSchema = z
  .string()
  .max(500, 'REDIS_URL is too long')
  .optional()
  .refine((raw) => {
    if (raw === undefined) return true;
    try {
      const url = new URL(raw);
      return ['redis:', 'rediss:'].includes(url.protocol) && url.hostname !== '';
    } catch {
      return false;
    }
  }, 'REDIS_URL is a URL such as redis://redis:6379 (or rediss:// for TLS)');

export const DATABASE_URL_MESSAGE =
  'DATABASE_URL is a PostgreSQL URL such as postgres://user:password@host:5432/mahjong';

/** Whether `raw` is a postgres:// or postgresql:// URL with a database name. */
export function isPostgresUrl(raw: string): boolean {
  try {
    const url = new URL(raw);
    return ['postgres:', 'postgresql:'].includes(url.protocol) && url.pathname.length > 1;
  } catch {
    return false;
  }
}

/** DATABASE_URL: a postgres:// or postgresql:// URL with a host and a database name, or unset. */
export const DatabaseUrlSchema = z
  .string()
  .max(2000, 'DATABASE_URL is too long')
  .optional()
  .refine((raw) => raw === undefined || isPostgresUrl(raw), DATABASE_URL_MESSAGE);

/**
 * METRICS_TOKEN: the bearer token Prometheus sends for /metrics. It guards what the process is doing (routes,
 * errors, pool sizes), so it must look random, and it travels in a header: visible ASCII only, no spaces.
 */
const MetricsTokenSchema = z
  .string()
  .min(32, { error: 'METRICS_TOKEN must be at least 32 characters (`openssl rand -hex 32`)', abort: true })
  .max(512, { error: 'METRICS_TOKEN is at most 512 characters', abort: true })
  .regex(/^[\x21-\x7e]+$/, {
    error: 'METRICS_TOKEN is visible ASCII characters without spaces (`openssl rand -hex 32`)',
    abort: true,
  })
  .refine(
    (s) => new Set(s).size >= 12,
    'METRICS_TOKEN looks weak (few different characters): use `openssl rand -hex 32`',
  )
  .optional();

/** A secret that could have come from a random generator: long, no padding spaces, many different characters. */
const isStrongSecret = (s: string): boolean => s === s.trim() && new Set(s).size >= 16;

export const EnvSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATABASE_PATH: z.string().min(1).default('data/mahjong.db'),
  DATABASE_URL: DatabaseUrlSchema,
  DATABASE_POOL_MAX: z.coerce
    .number({ error: 'DATABASE_POOL_MAX is a whole number from 1 to 100' })
    .int('DATABASE_POOL_MAX is a whole number from 1 to 100')
    .min(1, 'DATABASE_POOL_MAX is a whole number from 1 to 100')
    .max(100, 'DATABASE_POOL_MAX is a whole number from 1 to 100')
    .default(10), // PostgreSQL connections per process
  COOKIE_SECRET: z
    .string()
    .min(32, 'COOKIE_SECRET must be at least 32 characters')
    .refine(
      isStrongSecret,
      'COOKIE_SECRET looks weak (spaces around it, or few different characters): use `openssl rand -base64 32`',
    )
    .optional(),
  PUBLIC_ORIGIN: PublicOriginSchema,
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `LOG_LEVEL is one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  TRUST_PROXY: TrustProxySchema,
  REDIS_URL: RedisUrlSchema,
  DEAL_WORKERS: z.coerce.number().int().min(0).max(16).default(2), // threads for classic deals (relaxed ones are made in process)
  GROWTH_PER_CLIENT_MB: z.coerce
    .number({ error: 'GROWTH_PER_CLIENT_MB is a whole number of MB from 1 to 65536' })
    .int('GROWTH_PER_CLIENT_MB is a whole number of MB from 1 to 65536')
    .min(1, 'GROWTH_PER_CLIENT_MB is a whole number of MB from 1 to 65536')
    .max(65536, 'GROWTH_PER_CLIENT_MB is a whole number of MB from 1 to 65536')
    .default(64), // what one client (an IPv4 /24, an IPv6 /64) may add to the database in a day
  METRICS_TOKEN: MetricsTokenSchema, // unset: no /metrics route at all (plugins/metrics.ts)
  DRAIN_MS: z.coerce
    .number({ error: 'DRAIN_MS is a whole number of ms from 0 to 60000' })
    .int('DRAIN_MS is a whole number of ms from 0 to 60000')
    .min(0, 'DRAIN_MS is a whole number of ms from 0 to 60000')
    .max(60_000, 'DRAIN_MS is a whole number of ms from 0 to 60000')
    .default(5000), // on SIGTERM: /healthz 503 this long, serving on, so a balancer takes the process out first
});

export type Env = z.infer<typeof EnvSchema>;

/** The validated environment, or one message per problem (`NAME: what is wrong`). */
export function parseEnv(
  env: Record<string, string | undefined>,
): { ok: true; value: Env } | { ok: false; errors: string[] } {
  // An empty variable counts as unset (PORT= would otherwise coerce to port 0).
  const given = Object.fromEntries(
    Object.keys(EnvSchema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]),
  );
  const parsed = EnvSchema.safeParse(given);
  if (parsed.success) return { ok: true, value: parsed.data };
  return { ok: false, errors: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) };
}
