/**
 * Metrics for Prometheus (issue 30; docs/operations.md, "Metrics"): `GET /metrics` in the Prometheus text
 * format (prom-client), only when METRICS_TOKEN is set and the request sends it as `Authorization: Bearer …`.
 * Without the variable there is no such route; with a wrong or missing token the request gets the not-found
 * answer every unknown address gets, so a prober cannot tell whether metrics are on.
 *
 * What is recorded (names by Prometheus's conventions: base units, `_total` for counters):
 * - every answered request by method, route pattern (`/play/:layout/:seed`, never the address asked for:
 *   the set of routes is fixed, the set of addresses is not) and status, and its latency by method and route;
 * - deals made (by mode) and deals that could not be made (by mode and code), games started and won (by mode);
 * - the deal workers: threads, tasks running and queued, their busy time, tasks by outcome;
 * - the database: PostgreSQL's pool (connections busy and idle, requests waiting for one) and the database
 *   errors that failed a request or the health check, by code (SQLITE_…, a SQLSTATE, or a connection error);
 * - sockets open, shed and refused (connections.ts), where the limits count (Redis or per process), what the
 *   caches hold, the build;
 * - prom-client's default metrics: CPU, memory and heap, event-loop lag, garbage collection, handles.
 *
 * Implementation notes: each app has a registry of its own (tests build many apps in one process). Recording is
 * kept cheap: one onResponse hook does a map lookup for the request's label set and two additions; gauges are
 * read only when scraped (prom-client `collect`). Without METRICS_TOKEN nothing is registered at all and the
 * recorders the services call are empty functions.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { Mode } from '../../engine/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: MetricsRecorder;
  }
}

/** What the services record; empty functions when metrics are off. */
export interface MetricsRecorder {
  readonly enabled: boolean;
  dealMade(mode: Mode): void; // a new deal was generated (not one found stored or cached)
  dealFailed(mode: Mode, code: string): void; // making a deal failed (timeout, a full queue, a dead worker…)
  gameStarted(mode: Mode): void;
  gameWon(mode: Mode): void; // a game's moves, replayed by the server, cleared its board
  databaseError(error: unknown): void; // an error a request or the health check met: counted if the database's
}

const OFF: MetricsRecorder = {
  enabled: false,
  dealMade: () => {},
  dealFailed: () => {},
  gameStarted: () => {},
  gameWon: () => {},
  databaseError: () => {},
};

/** Latency buckets, in seconds: a deal page takes about a millisecond, a classic deal tens, a slow one seconds. */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

const UNMATCHED = 'unmatched'; // the route label of a request no route matched (a 404)

/** Connection-level failures of a database client: the database is away, not wrong about a statement. */
const CONNECTION_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN']);
const CONNECTION_MESSAGE = /Connection terminated|timeout exceeded when trying to connect|connection error/i;

/**
 * The label for a database error, or undefined when `error` is not one: SQLite's codes (`SQLITE_FULL`),
 * PostgreSQL's SQLSTATE (five characters, on errors the server sent: they carry a severity), a connection
 * failure's errno code, or `connection` for pg's own connection errors that carry no code.
 */
export function databaseErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, severity, message } = error as { code?: unknown; severity?: unknown; message?: unknown };
  if (typeof code === 'string') {
    if (code.startsWith('SQLITE_')) return code.slice(0, 40);
    if (typeof severity === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    if (CONNECTION_CODES.has(code)) return code;
  }
  if (typeof message === 'string' && CONNECTION_MESSAGE.test(message) && code === undefined) return 'connection';
  return undefined;
}

/** Whether the request carries `Authorization: Bearer <token>`, compared in constant time. */
function hasToken(request: FastifyRequest, digest: Buffer): boolean {
  const header = request.headers.authorization;
  if (typeof header !== 'string' || header.length > 1024) return false;
  const match = /^Bearer +(\S+) *$/i.exec(header);
  if (!match) return false;
  // Digests of equal length: timingSafeEqual needs it, and the token's length is not given away either.
  return timingSafeEqual(createHash('sha256').update(match[1]!).digest(), digest);
}

export interface MetricsOptions {
  token?: string; // METRICS_TOKEN; unset: no /metrics and nothing recorded
}

async function metricsPlugin(fastify: FastifyInstance, opts: MetricsOptions): Promise<void> {
  if (!opts.token) {
    fastify.decorate('metrics', OFF);
    return;
  }
  const digest = createHash('sha256').update(opts.token).digest();
  const registry = new Registry();
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  // ---- requests
  const requests = new Counter({
    name: 'mahjong_http_requests_total',
    help: 'HTTP requests answered, by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const latency = new Histogram({
    name: 'mahjong_http_request_duration_seconds',
    help: 'Time from a request arriving to its answer sent, by method and route pattern; in seconds',
    labelNames: ['method', 'route'] as const,
    buckets: LATENCY_BUCKETS,
    registers,
  });
  // The label objects of each label set, made once: the hook then does one map lookup per request.
  const seen = new Map<string, { counted: Record<string, string>; timed: Record<string, string> }>();
  fastify.addHook('onResponse', (request: FastifyRequest, reply: FastifyReply, done) => {
    const method = request.method;
    const route = request.is404 ? UNMATCHED : (request.routeOptions.url ?? UNMATCHED);
    const status = reply.statusCode;
    const key = `${method} ${status} ${route}`;
    let labels = seen.get(key);
    if (!labels) {
      labels = { counted: { method, route, status: String(status) }, timed: { method, route } };
      seen.set(key, labels);
    }
    requests.inc(labels.counted);
    latency.observe(labels.timed, reply.elapsedTime / 1000);
    done();
  });

  // ---- deals and games
  const dealsMade = new Counter({
    name: 'mahjong_deals_made_total',
    help: 'Deals generated (new seeds; not those found stored or cached), by mode',
    labelNames: ['mode'] as const,
    registers,
  });
  const dealsFailed = new Counter({
    name: 'mahjong_deal_failures_total',
    help: 'Deals that could not be made, by mode and error code (ERR_TIMEOUT, ERR_BUSY, ERR_WORKER, …)',
    labelNames: ['mode', 'code'] as const,
    registers,
  });
  const gamesStarted = new Counter({
    name: 'mahjong_games_started_total',
    help: 'Games started, by mode',
    labelNames: ['mode'] as const,
    registers,
  });
  const gamesWon = new Counter({
    name: 'mahjong_games_won_total',
    help: 'Games won (the server replayed their moves to a clear board), by mode',
    labelNames: ['mode'] as const,
    registers,
  });
  const databaseErrors = new Counter({
    name: 'mahjong_database_errors_total',
    help: 'Database errors that failed a request or the health check, by code (SQLITE_…, SQLSTATE, or a connection error)',
    labelNames: ['code'] as const,
    registers,
  });

  // ---- read when scraped
  const pool = () => fastify.dealer?.workers();
  new Gauge({
    name: 'mahjong_deal_workers',
    help: 'Deal worker threads (DEAL_WORKERS)',
    registers,
    collect() {
      this.set(pool()?.size ?? 0);
    },
  });
  new Gauge({
    name: 'mahjong_deal_worker_tasks_running',
    help: 'Deals being made in a worker now',
    registers,
    collect() {
      this.set(pool()?.running ?? 0);
    },
  });
  new Gauge({
    name: 'mahjong_deal_worker_queue_length',
    help: 'Deals waiting for a worker',
    registers,
    collect() {
      this.set(pool()?.queued ?? 0);
    },
  });
  new Counter({
    name: 'mahjong_deal_worker_busy_seconds_total',
    help: 'Time the deal workers spent making deals, summed over the workers; in seconds',
    registers,
    collect() {
      this.reset();
      this.inc(pool()?.busySeconds ?? 0);
    },
  });
  new Counter({
    name: 'mahjong_deal_worker_tasks_total',
    help: 'Tasks given to the deal workers, by outcome (done, timeout, busy: refused by a full queue, failed)',
    labelNames: ['outcome'] as const,
    registers,
    collect() {
      this.reset();
      const tasks = pool()?.tasks;
      if (tasks) for (const [outcome, n] of Object.entries(tasks)) this.inc({ outcome }, n);
    },
  });
  // PostgreSQL's pool, once the backend is known; on SQLite (one connection, no pool) these are absent.
  fastify.addHook('onReady', async () => {
    const pg = fastify.pg;
    if (!pg) return;
    new Gauge({
      name: 'mahjong_database_pool_connections',
      help: 'PostgreSQL connections of this process, by state (busy: lent to a query, idle: open and free)',
      labelNames: ['state'] as const,
      registers,
      collect() {
        this.set({ state: 'busy' }, pg.totalCount - pg.idleCount);
        this.set({ state: 'idle' }, pg.idleCount);
      },
    });
    new Gauge({
      name: 'mahjong_database_pool_waiting',
      help: 'Queries waiting for a PostgreSQL connection (the pool is at DATABASE_POOL_MAX)',
      registers,
      collect() {
        this.set(pg.waitingCount);
      },
    });
    new Gauge({
      name: 'mahjong_database_pool_max_connections',
      help: 'PostgreSQL connections this process may open (DATABASE_POOL_MAX)',
      registers,
      collect() {
        this.set(pg.options.max ?? 0);
      },
    });
  });
  new Gauge({
    name: 'mahjong_connections_open',
    help: 'Client sockets open now',
    registers,
    collect() {
      this.set(fastify.connectionStats().open);
    },
  });
  new Counter({
    name: 'mahjong_connections_closed_total',
    help: 'Client sockets the server closed or refused to make room or hold a cap (connections.ts), by reason',
    labelNames: ['reason'] as const,
    registers,
    collect() {
      const stats = fastify.connectionStats();
      this.reset();
      this.inc({ reason: 'shed' }, stats.shed);
      this.inc({ reason: 'refused' }, stats.refused);
    },
  });
  new Gauge({
    name: 'mahjong_limits_per_process',
    help: '1 while rate limits count in this process only because Redis (REDIS_URL) cannot be reached, else 0',
    registers,
    collect() {
      const state = fastify.countersState();
      this.set(state.store === state.configured ? 0 : 1);
    },
  });
  new Gauge({
    name: 'mahjong_cache_bytes',
    help: 'What each in-memory cache holds, estimated; in bytes',
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const cache of fastify.caches) this.set({ cache: cache.name }, cache.usage().bytes);
    },
  });
  new Gauge({
    name: 'mahjong_cache_max_bytes',
    help: "Each in-memory cache's budget; in bytes",
    labelNames: ['cache'] as const,
    registers,
    collect() {
      for (const cache of fastify.caches) this.set({ cache: cache.name }, cache.usage().maxBytes);
    },
  });
  new Gauge({
    name: 'mahjong_build_info',
    help: "Always 1: the build this process serves (the client bundle's version) and its backend",
    labelNames: ['version', 'backend'] as const,
    registers,
    collect() {
      this.reset();
      this.set({ version: fastify.assets?.version ?? 'unknown', backend: fastify.backend ?? 'unknown' }, 1);
    },
  });

  fastify.decorate('metrics', {
    enabled: true,
    dealMade: (mode) => dealsMade.inc({ mode }),
    dealFailed: (mode, code) => dealsFailed.inc({ mode, code }),
    gameStarted: (mode) => gamesStarted.inc({ mode }),
    gameWon: (mode) => gamesWon.inc({ mode }),
    databaseError(error) {
      const code = databaseErrorCode(error);
      if (code !== undefined) databaseErrors.inc({ code });
    },
  } satisfies MetricsRecorder);

  fastify.get(
    '/metrics',
    { config: { player: false }, logLevel: 'warn', schema: { hide: true } },
    async (request, reply) => {
      // Anything but the token is the not-found answer of every unknown address, rate limit included.
      if (!hasToken(request, digest)) return reply.callNotFound();
      const text = await registry.metrics();
      return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
    },
  );
  fastify.addHook('onClose', () => registry.clear());
}

export default fp(metricsPlugin, { name: 'metrics' });
