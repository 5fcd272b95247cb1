/**
 * GET /api/deals/:layout/:seed[?mode=classic]: the deal JSON (docs/contracts.md, "Deal JSON"), as stored. A stored deal
 * never changes (same link, same board, forever), so caches may keep it for a day. It needs no
 * player; when one asks (their cookie came with it), this is the server showing them the deal: the
 * start of their ranked times on it (docs/fair-play.md, "The rule"), stored with the deal if it is new. Asked without a
 * cookie (or past the client's day of growth), a new deal is answered without a write, and
 * caches keep that answer for five minutes only: it is the board the link will be stored with as long as
 * the generator stays the same.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorResponses } from '../../errors.ts';
import { DealSchema } from '../../../shared/answers.ts';
import { preSerialized } from '../../schemas/responses.ts';
import { DealParamsSchema, ModeQuerySchema } from '../../schemas/common.ts';
import { cookiePlayerId } from '../../plugins/player.ts';
import type { ShownLookup } from '../../services/dealer.ts';
import { clientKey } from '../../services/limits.ts';
import { stampedAt } from '../../services/first-shown.ts';
import { sendRefusalOrMiss } from '../../services/misses.ts';

export const DEAL_CACHE = 'public, max-age=86400';
export const UNSTORED_DEAL_CACHE = 'public, max-age=300';

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
      const key = { ...request.params, mode: request.query.mode };
      const client = clientKey(request.ip);
      const playerId = cookiePlayerId(request);
      let found: ShownLookup =
        playerId === undefined ? await fastify.dealer.show(key, client) : await fastify.dealer.get(key, client);
      if (!found.ok && found.code === 'ERR_GROWTH') found = await fastify.dealer.show(key, client);
      if (!found.ok) return sendRefusalOrMiss(request, reply, found);
      const shown = found.value;
      if (playerId !== undefined && shown.id !== null) {
        // A stamp is taken, not cleared, here: a publicly cacheable answer carries no Set-Cookie.
        await fastify.firstShown.show(
          playerId,
          client,
          shown,
          fastify.now(),
          stampedAt(fastify, request, playerId, key),
        );
      }
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', shown.id === null ? UNSTORED_DEAL_CACHE : DEAL_CACHE)
        .send(preSerialized(shown.json));
    },
  );
}
