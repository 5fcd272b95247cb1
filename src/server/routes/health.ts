/**
 * GET /healthz: 200 {"ok":true} when the database answers, 503 {"ok":false,"error"} when it does
 * not. The probe reads the migrations table, so it opens a read transaction on the file (a
 * `SELECT 1` would answer without it). For container HEALTHCHECKs and load balancers; logged only
 * at warn, and it neither reads nor makes a player cookie.
 */
import type { FastifyInstance } from 'fastify';

export default async function health(fastify: FastifyInstance): Promise<void> {
  const probe = fastify.db.prepare('SELECT MAX(version) AS version FROM schema_migrations');
  fastify.get('/healthz', { logLevel: 'warn', config: { player: false } }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    try {
      if (typeof (probe.get() as { version: number | null }).version === 'number') return { ok: true };
    } catch (error) {
      request.log.error({ err: error }, 'health check: the database does not answer');
    }
    return reply.code(503).send({ ok: false, error: 'the database does not answer' });
  });
}
