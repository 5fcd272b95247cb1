/**
 * GET /api/deals/:layout/:seed[?mode=classic]: the deal JSON (SPEC §3.3), as stored. A stored deal
 * never changes (same link, same board, forever), so caches may keep it for a day. It needs no
 * player; when one asks (their cookie came with it), this is the server showing them the deal: the
 * start of their ranked times on it (SPEC §7).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses, sendRefusal } from '../../errors.ts';
import { DealSchema, preSerialized } from '../../schemas/responses.ts';
import { DealParamsSchema, ModeQuerySchema } from '../../schemas/common.ts';
import { cookiePlayerId } from '../../plugins/player.ts';
import { clientKey } from '../../services/limits.ts';

export const DEAL_CACHE = 'public, max-age=86400';

export default async function apiDeals(fastify: FastifyInstance): Promise<void> {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/deals/:layout/:seed',
    {
      schema: {
        params: DealParamsSchema,
        querystring: ModeQuerySchema,
        response: { 200: DealSchema, ...errorResponses(409, 503) },
      },
      config: { player: false },
    },
    async (request, reply) => {
      const found = await fastify.dealer.get({ ...request.params, mode: request.query.mode }, clientKey(request.ip));
      if (!found.ok) return sendRefusal(request, reply, found);
      const playerId = cookiePlayerId(request);
      if (playerId !== undefined) await fastify.gamesRepository.recordView(playerId, found.value.id, fastify.now());
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', DEAL_CACHE)
        .send(preSerialized(found.value.json));
    },
  );
}
