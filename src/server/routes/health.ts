/**
 * GET /healthz: 200 {"ok":true} when the database answers and takes writes, 503 {"ok":false,"error"}
 * when it does not. For container HEALTHCHECKs and load balancers; logged only at warn, and it
 * neither reads nor makes a player cookie.
 *
 * - Reads: the probe reads the migrations table, so it opens a read transaction on the file (a
 *   `SELECT 1` would answer without it).
 * - Writes: with a full disk every read still answered and /healthz said 200
 *   while every game failed. Now a probe write (one settings row) runs at most every
 *   WRITE_PROBE_EVERY_MS, and a write error a request met (SQLITE_FULL, SQLITE_IOERR…, counted by
 *   the error handler) within the last WRITE_FAILURE_WINDOW_MS also makes it 503, with the code.
 * - A database that cannot be reached (a restart) makes it 503 until the probe reaches it again:
 *   a failed probe is tried again at the next check (at most every REPROBE_MS), and connection losses
 *   requests met stop counting once it succeeds, so the process is ready again as soon as PostgreSQL is.
 * - Draining (after SIGTERM, server.ts and readiness.ts): 503 `draining: …`, so the balancer stops sending
 *   new requests here while the process still answers them.
 * - The log says when readiness changes (`health check failed: not ready`, with the reason, at error;
 *   `health check passes again: ready`, with how long it was not, at info), not at every check.
 * - `?detail=1` adds the backend (`sqlite` or `postgres`), the database size (SQLite: file, WAL,
 *   free pages; PostgreSQL: the database's size and the pool's connections), the write state, and
 *   where the limits are counted (`limits`; with REDIS_URL set and Redis away, `degraded` says so), and the
 *   process's memory with what each cache holds (`memory`).
 */
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HealthQuerySchema, HealthSchema } from '../schemas/health.ts';
import type { MeasuredCache } from '../utils/lru.ts';

const WRITE_PROBE_EVERY_MS = 10_000;
const REPROBE_MS = 1_000; // after a failed probe, how soon a check tries the write again
export const WRITE_FAILURE_WINDOW_MS = 60_000;
export const DRAINING = 'draining: this process is shutting down'; // the 503 of a process draining (server.ts)

declare module 'fastify' {
  interface FastifyInstance {
    writeFailures: WriteFailures;
  }
}

/** The database could not be reached (SQLSTATE connection exception 08…, shutting down 57P0…, refused sockets). */
const isConnectionLoss = (code: string): boolean =>
  /^(08...|57P0.|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code);

/**
 * Storage failures, not a request's fault: SQLite's disk and file errors; PostgreSQL's (SQLSTATE) disk full
 * and out of resources (53…), read-only (25006), and a database that cannot be reached (isConnectionLoss).
 */
const isWriteFailure = (code: string): boolean =>
  /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|CANTOPEN|NOTADB)/.test(code) ||
  /^(53...|25006)$/.test(code) ||
  isConnectionLoss(code);

/**
 * The latest write errors requests met; the error handler records them. A failure of the storage itself
 * (a full disk) counts for WRITE_FAILURE_WINDOW_MS: the probe's one small row may still fit where a game's
 * log does not. A database that could not be reached counts only until the probe reaches it again
 * (`reached`): once PostgreSQL is back after a restart, the process is ready at once.
 */
export class WriteFailures {
  count = 0; // since start
  last: { code: string; at: number } | undefined; // the latest of either kind, for ?detail=1
  private storage: { code: string; at: number } | undefined; // the latest failure of the storage itself
  private loss: { code: string; at: number } | undefined; // the latest time the database could not be reached
  private reachedAt = -Infinity; // the latest probe that reached the database

  constructor(private readonly now: () => number) {}

  /** Records an error if it is a storage write failure; true when it was one. */
  record(code: string | undefined): boolean {
    if (!code || !isWriteFailure(code)) return false;
    this.count++;
    this.last = { code, at: this.now() };
    if (isConnectionLoss(code)) this.loss = this.last;
    else this.storage = this.last;
    return true;
  }

  /** The probe reached the database and wrote: losses of connection before now no longer count. */
  reached(): void {
    this.reachedAt = this.now();
  }

  /** A request met a lost connection since the probe last reached the database: probe again soon. */
  lostSinceReached(): boolean {
    return this.loss !== undefined && this.loss.at >= this.reachedAt;
  }

  /** The code of a failure that still counts, if any. */
  recent(): string | undefined {
    const now = this.now();
    if (this.storage && now - this.storage.at < WRITE_FAILURE_WINDOW_MS) return this.storage.code;
    if (this.loss && now - this.loss.at < WRITE_FAILURE_WINDOW_MS && this.loss.at >= this.reachedAt)
      return this.loss.code;
    return undefined;
  }
}

/**
 * The process's memory and what each cache holds (docs/operations.md, "Memory"): RSS, heap used
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
  let down: { since: number; problem: string } | undefined; // not ready since, for the log's lines on a change

  /**
   * Why writes fail, or undefined when they work. A good probe is kept WRITE_PROBE_EVERY_MS; a failed one, or
   * a good one older than a connection a request lost since, only REPROBE_MS.
   */
  const writeProblem = async (): Promise<string | undefined> => {
    const now = fastify.now();
    const doubt = probed?.error !== undefined || fastify.writeFailures.lostSinceReached();
    const keep = doubt ? REPROBE_MS : WRITE_PROBE_EVERY_MS;
    if (!probed || now - probed.at >= keep) {
      try {
        await probe.write(now);
        probed = { at: now, error: undefined };
        fastify.writeFailures.reached();
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
      fastify.readiness.checked(fastify.now());
      let problem: string | undefined;
      if (fastify.readiness.draining !== null) problem = DRAINING;
      else
        try {
          if (typeof (await probe.version()) !== 'number') problem = 'the database does not answer';
          else problem = await writeProblem();
        } catch (error) {
          fastify.metrics.databaseError(error);
          if (!probe.unavailable(error))
            request.log.error({ err: error }, 'health check: the database does not answer');
          problem = 'the database does not answer';
          probed = undefined; // probe the write again as soon as it answers
        }
      // The log says when readiness changes (and why), not at every check of a balancer.
      if (problem && problem !== down?.problem && problem !== DRAINING)
        fastify.log.error({ reqId: request.id, problem }, 'health check failed: not ready');
      else if (!problem && down)
        fastify.log.info(
          { reqId: request.id, downMs: fastify.now() - down.since, problem: down.problem },
          'health check passes again: ready',
        );
      down = problem ? { since: down?.since ?? fastify.now(), problem } : undefined;
      const body: z.infer<typeof HealthSchema> = problem ? { ok: false, error: problem } : { ok: true };
      if (request.query.detail === '1') {
        body.backend = fastify.backend;
        try {
          body.database = { ...((await probe.size()) as { bytes: number }) };
        } catch {
          body.database = null; // closed or unreadable: the error above says so
        }
        body.writeFailures = { count: fastify.writeFailures.count, last: fastify.writeFailures.last ?? null };
        body.memory = memoryDetail(fastify.caches);
        body.connections = { ...fastify.connectionStats() };
        body.draining = fastify.readiness.draining !== null;
        // Limits counted per process while Redis is away: degraded, not down (serving goes on).
        const limits = fastify.countersState();
        body.limits = { ...limits };
        if (limits.store !== limits.configured) body.degraded = [`limits are per process: ${limits.problem}`];
      }
      return reply.code(problem ? 503 : 200).send(body);
    },
  );
}
