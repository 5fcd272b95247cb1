/**
 * GET /api/deals/:layout/:seed: the deal JSON as stored, cacheable for a day; a player asking is shown the deal
 * (docs/http.md, "Deals over the API").
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
        // A cacheable answer carries no Set-Cookie.
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
