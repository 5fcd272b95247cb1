/**
 * Metrics for Prometheus (docs/operations.md, "Metrics"): `GET /metrics` in the Prometheus text
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
 * kept cheap: each route gets an onResponse hook bound to its own series (RequestSeries: a few additions, no
 * labels hashed, no strings made), the samples are made at scrape time, and gauges are read only then
 * (prom-client `collect`). Without METRICS_TOKEN nothing is registered at all and the recorders the services
 * call are empty functions.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest, onResponseHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import { collectDefaultMetrics, Counter, Gauge, Registry } from 'prom-client';
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

/**
 * One (method, route)'s requests: answers by status and a latency histogram, in plain numbers. prom-client's
 * own Counter and Histogram hash their labels and build strings on every observation (half the cost of metrics
 * on the deal page, and as much again in garbage collection, measured with bench:http); these are additions
 * into arrays, and the samples are made when Prometheus asks.
 */
class RequestSeries {
  readonly statuses = new Map<number, number>(); // status → answers
  readonly buckets = new Float64Array(LATENCY_BUCKETS.length + 1); // per bucket, not cumulative; the last is +Inf
  sum = 0; // seconds
  count = 0;

  constructor(
    readonly method: string,
    readonly route: string,
  ) {}

  record(status: number, seconds: number): void {
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < LATENCY_BUCKETS.length && seconds > LATENCY_BUCKETS[bucket]!) bucket++;
    this.buckets[bucket]!++;
    this.sum += seconds;
    this.count++;
  }
}

interface Sample {
  readonly metricName?: string;
  readonly labels: Record<string, string | number>;
  readonly value: number;
}

/**
 * A metric prom-client's registry prints from samples made when scraped (as prom-client's own cluster
 * aggregator registers its metrics): its name, help, type and `get()`.
 */
function scrapedMetric(name: string, help: string, type: 'counter' | 'histogram', samples: () => Sample[]) {
  const metric = { name, help, type, aggregator: 'sum' as const, get: async () => ({ ...metric, values: samples() }) };
  return metric as unknown as Counter;
}

const requestCounter = (series: ReadonlyMap<string, RequestSeries>) =>
  scrapedMetric(
    'mahjong_http_requests_total',
    'HTTP requests answered, by method, route pattern and status',
    'counter',
    () =>
      [...series.values()].flatMap(({ method, route, statuses }) =>
        [...statuses].map(([status, value]) => ({ labels: { method, route, status }, value })),
      ),
  );

const latencyHistogram = (series: ReadonlyMap<string, RequestSeries>) =>
  scrapedMetric(
    'mahjong_http_request_duration_seconds',
    'Time from a request arriving to its answer sent, by method and route pattern; in seconds',
    'histogram',
    () =>
      [...series.values()]
        .filter((s) => s.count > 0)
        .flatMap(({ method, route, buckets, sum, count }) => {
          let below = 0;
          const samples: Sample[] = LATENCY_BUCKETS.map((le, i) => ({
            metricName: 'mahjong_http_request_duration_seconds_bucket',
            labels: { le, method, route },
            value: (below += buckets[i]!),
          }));
          samples.push(
            {
              metricName: 'mahjong_http_request_duration_seconds_bucket',
              labels: { le: '+Inf', method, route },
              value: count,
            },
            { metricName: 'mahjong_http_request_duration_seconds_sum', labels: { method, route }, value: sum },
            { metricName: 'mahjong_http_request_duration_seconds_count', labels: { method, route }, value: count },
          );
          return samples;
        }),
  );

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

  // ---- requests: counted in plain numbers (see RequestSeries), turned into samples when scraped
  const series = new Map<string, RequestSeries>(); // `${method} ${route}` → its counts
  const seriesOf = (method: string, route: string): RequestSeries => {
    const key = `${method} ${route}`;
    let found = series.get(key);
    if (!found) series.set(key, (found = new RequestSeries(method, route)));
    return found;
  };
  // Each route records into its own series, bound when the route is registered (no lookup per request).
  fastify.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    const bound = methods.length === 1 ? seriesOf(methods[0]!, route.url) : undefined;
    const record: onResponseHookHandler = (request, reply, done) => {
      (bound ?? seriesOf(request.method, route.url)).record(reply.statusCode, reply.elapsedTime / 1000);
      done();
    };
    route.onResponse = [route.onResponse ?? []].flat().concat(record);
  });
  // Requests no route matched (and /metrics asked without the token) end in the not-found handler.
  fastify.addHook('onResponse', (request, reply, done) => {
    if (request.is404) seriesOf(request.method, UNMATCHED).record(reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
  registry.registerMetric(requestCounter(series));
  registry.registerMetric(latencyHistogram(series));

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
