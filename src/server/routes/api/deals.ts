/** GET /api/deals/:layout/:seed[?mode=classic]: the deal JSON (SPEC §3.3), as stored. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { DealParamsSchema, ModeQuerySchema } from '../../schemas/common.ts';

export default async function apiDeals(fastify: FastifyInstance): Promise<void> {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/deals/:layout/:seed',
    { schema: { params: DealParamsSchema, querystring: ModeQuerySchema }, config: { player: false } },
    async (request, reply) => {
      const found = await fastify.dealer.get(request.params.layout, request.params.seed, request.query.mode);
      if (!found.ok) return reply.code(found.status).send({ error: found.message });
      return reply.type('application/json; charset=utf-8').send(found.value.json);
    },
  );
}
