/** GET /healthz: 200 {"ok":true} when the database answers, 503 otherwise. */
import type { FastifyInstance } from 'fastify';

export default async function health(fastify: FastifyInstance): Promise<void> {
  const ping = fastify.db.prepare('SELECT 1 AS one');
  fastify.get('/healthz', { logLevel: 'warn', config: { player: false } }, async (request, reply) => {
    try {
      if ((ping.get() as { one: number }).one === 1) return { ok: true };
    } catch (error) {
      request.log.error({ err: error }, 'health check: the database does not answer');
    }
    return reply.code(503).send({ ok: false, error: 'the database does not answer' });
  });
}
