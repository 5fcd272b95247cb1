/**
 * GET /healthz: 200 {"ok":true} when the database answers and takes writes, 503 {"ok":false,"error"}
 * when it does not. For container HEALTHCHECKs and load balancers; logged only at warn, and it
 * neither reads nor makes a player cookie.
 *
 * - Reads: the probe reads the migrations table, so it opens a read transaction on the file (a
 *   `SELECT 1` would answer without it).
 * - Writes (issue 9, item 8): with a full disk every read still answered and /healthz said 200
 *   while every game failed. Now a probe write (one settings row) runs at most every
 *   WRITE_PROBE_EVERY_MS, and a write error a request met (SQLITE_FULL, SQLITE_IOERR…, counted by
 *   the error handler) within the last WRITE_FAILURE_WINDOW_MS also makes it 503, with the code.
 * - `?detail=1` adds the backend (`sqlite` or `postgres`, issue 15), the database size (SQLite: file, WAL,
 *   free pages, issue 9 item 6; PostgreSQL: the database's size and the pool's connections), the write state, and
 *   where the limits are counted (`limits`; with REDIS_URL set and Redis away, `degraded` says so), and the
 *   process's memory with what each cache holds (`memory`, issue 24).
 */
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HealthQuerySchema, HealthSchema } from '../schemas/health.ts';
import type { MeasuredCache } from '../services/lru.ts';

const WRITE_PROBE_EVERY_MS = 10_000;
export const WRITE_FAILURE_WINDOW_MS = 60_000;

declare module 'fastify' {
  interface FastifyInstance {
    writeFailures: WriteFailures;
  }
}

/**
 * Storage failures, not a request's fault: SQLite's disk and file errors; PostgreSQL's (SQLSTATE) disk full
 * and out of resources (53…), read-only (25006), connection lost (08…), shutting down (57P…), and a
 * database that cannot be reached at all (ECONNREFUSED…).
 */
const isWriteFailure = (code: string): boolean =>
  /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|CANTOPEN|NOTADB)/.test(code) ||
  /^(53...|25006|08...|57P0.|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE)$/.test(code);

/** The latest write errors requests met; the error handler records them. */
export class WriteFailures {
  count = 0; // since start
  last: { code: string; at: number } | undefined;

  constructor(private readonly now: () => number) {}

  /** Records an error if it is a storage write failure; true when it was one. */
  record(code: string | undefined): boolean {
    if (!code || !isWriteFailure(code)) return false;
    this.count++;
    this.last = { code, at: this.now() };
    return true;
  }

  /** The code of a failure within the window, if any. */
  recent(): string | undefined {
    return this.last && this.now() - this.last.at < WRITE_FAILURE_WINDOW_MS ? this.last.code : undefined;
  }
}

/**
 * The process's memory and what each cache holds (issue 24; docs/operations.md, "Memory"): RSS, heap used
 * and its limit, and per cache its estimated bytes, budget and entries. In MB, one decimal.
 */
function memoryDetail(caches: readonly MeasuredCache[]) {
  const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const usage = process.memoryUsage();
  return {
    rssMb: mb(usage.rss),
    heapUsedMb: mb(usage.heapUsed),
    heapLimitMb: mb(getHeapStatistics().heap_size_limit),
    cachesMb: mb(caches.reduce((sum, cache) => sum + cache.usage().bytes, 0)),
    caches: Object.fromEntries(
      caches.map((cache) => {
        const { bytes, maxBytes, entries } = cache.usage();
        return [cache.name, { mb: mb(bytes), maxMb: mb(maxBytes), entries }];
      }),
    ),
  };
}

export default async function health(fastify: FastifyInstance): Promise<void> {
  const probe = fastify.databaseProbe;
  let probed: { at: number; error: string | undefined } | undefined;

  /** Why writes fail, or undefined when they work (the probe's answer is kept WRITE_PROBE_EVERY_MS). */
  const writeProblem = async (): Promise<string | undefined> => {
    const now = fastify.now();
    if (!probed || now - probed.at >= WRITE_PROBE_EVERY_MS) {
      try {
        await probe.write(now);
        probed = { at: now, error: undefined };
      } catch (error) {
        fastify.metrics.databaseError(error);
        const code = (error as { code?: string }).code ?? 'unknown';
        fastify.writeFailures.record(code);
        probed = { at: now, error: code };
      }
    }
    const code = probed.error ?? fastify.writeFailures.recent();
    return code === undefined ? undefined : `writes to the database are failing (${code})`;
  };

  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/healthz',
    {
      logLevel: 'warn',
      config: { player: false },
      schema: {
        summary: 'Whether this process can serve: the database answers and takes writes',
        querystring: HealthQuerySchema,
        response: { 200: HealthSchema, 503: HealthSchema },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      let problem: string | undefined;
      try {
        if (typeof (await probe.version()) !== 'number') problem = 'the database does not answer';
        else problem = await writeProblem();
      } catch (error) {
        fastify.metrics.databaseError(error);
        request.log.error({ err: error }, 'health check: the database does not answer');
        problem = 'the database does not answer';
      }
      if (problem) request.log.error({ problem }, 'health check failed');
      const body: z.infer<typeof HealthSchema> = problem ? { ok: false, error: problem } : { ok: true };
      if (request.query.detail === '1') {
        body.backend = fastify.backend;
        try {
          body.database = { ...(await probe.size()) };
        } catch {
          body.database = null; // closed or unreadable: the error above says so
        }
        body.writeFailures = { count: fastify.writeFailures.count, last: fastify.writeFailures.last ?? null };
        body.memory = memoryDetail(fastify.caches);
        body.connections = { ...fastify.connectionStats() };
        // Limits counted per process while Redis is away: degraded, not down (serving goes on).
        const limits = fastify.countersState();
        body.limits = { ...limits };
        if (limits.store !== limits.configured) body.degraded = [`limits are per process: ${limits.problem}`];
      }
      return reply.code(problem ? 503 : 200).send(body);
    },
  );
}
