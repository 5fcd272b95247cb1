/** GET /healthz: 200 when the database answers and takes writes, else 503 (docs/operations.md, "Health"). */
import { getHeapStatistics } from 'node:v8';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { HealthQuerySchema, HealthSchema } from '../schemas/health.ts';
import type { MeasuredCache } from '../utils/lru.ts';

const WRITE_PROBE_EVERY_MS = 10_000;
const REPROBE_MS = 1_000; // after a failed probe, how soon to try again
export const WRITE_FAILURE_WINDOW_MS = 60_000;
export const DRAINING = 'draining: this process is shutting down';

declare module 'fastify' {
  interface FastifyInstance {
    writeFailures: WriteFailures;
  }
}

const isConnectionLoss = (code: string): boolean =>
  /^(08...|57P0.|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN)$/.test(code);

/** Storage failures, not a request's fault (disk, read-only, unreachable). */
const isWriteFailure = (code: string): boolean =>
  /^SQLITE_(FULL|IOERR|READONLY|CORRUPT|CANTOPEN|NOTADB)/.test(code) ||
  /^(53...|25006)$/.test(code) ||
  isConnectionLoss(code);

/** Write errors requests met; a lost connection counts only until the probe reaches the database. */
export class WriteFailures {
  count = 0;
  last: { code: string; at: number } | undefined;
  private storage: { code: string; at: number } | undefined;
  private loss: { code: string; at: number } | undefined;
  private reachedAt = -Infinity;

  constructor(private readonly now: () => number) {}

  /** True when `error` was a storage write failure. */
  record(code: string | undefined): boolean {
    if (!code || !isWriteFailure(code)) return false;
    this.count++;
    this.last = { code, at: this.now() };
    if (isConnectionLoss(code)) this.loss = this.last;
    else this.storage = this.last;
    return true;
  }

  reached(): void {
    this.reachedAt = this.now();
  }

  lostSinceReached(): boolean {
    return this.loss !== undefined && this.loss.at >= this.reachedAt;
  }

  recent(): string | undefined {
    const now = this.now();
    if (this.storage && now - this.storage.at < WRITE_FAILURE_WINDOW_MS) return this.storage.code;
    if (this.loss && now - this.loss.at < WRITE_FAILURE_WINDOW_MS && this.loss.at >= this.reachedAt)
      return this.loss.code;
    return undefined;
  }
}

/** Memory and caches, in MB. */
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
  let down: { since: number; problem: string } | undefined;

  /** Why writes fail, or undefined; a failed probe is retried after REPROBE_MS. */
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
          probed = undefined;
        }
      // Logged when readiness changes, not at every check.
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
          body.database = null;
        }
        body.writeFailures = { count: fastify.writeFailures.count, last: fastify.writeFailures.last ?? null };
        body.memory = memoryDetail(fastify.caches);
        body.connections = { ...fastify.connectionStats() };
        body.draining = fastify.readiness.draining !== null;
        // Limits per process while Redis is away: degraded, not down.
        const limits = fastify.countersState();
        body.limits = { ...limits };
        if (limits.store !== limits.configured) body.degraded = [`limits are per process: ${limits.problem}`];
      }
      return reply.code(problem ? 503 : 200).send(body);
    },
  );
}
