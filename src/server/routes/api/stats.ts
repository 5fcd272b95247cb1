/**
 * GET /api/stats[?page=N]: the player's stats (docs/contracts.md, "JSON API"; rules in services/stats.ts), with
 * the same loss reasons and challenge list as the stats page, at the same cost.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '../../plugins/security.ts';
import { errorResponses } from '../../errors.ts';
import { StatsSchema } from '../../../shared/answers.ts';
import { StatsQuerySchema } from '../../schemas/stats.ts';
import { clientKey } from '../../services/limits.ts';
import { statsOf } from '../../services/stats.ts';

export default async function apiStats(fastify: FastifyInstance): Promise<void> {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/stats',
    {
      schema: { querystring: StatsQuerySchema, response: { 200: StatsSchema, ...errorResponses() } },
      config: { rateLimit: LIMITS.stats },
    },
    async (request) => {
      const playerId = request.isNewPlayer ? undefined : request.playerId;
      const namer = (ids: Iterable<string>) => fastify.layouts.namer(ids, undefined, request.playerId);
      const stats = await statsOf(fastify.gamesStore, playerId, request.query.page, namer, fastify.now());
      const losses = await fastify.replays.lossesOf(stats.history, clientKey(request.ip));
      const history = stats.history.map((h) => {
        const loss = losses.get(h.id);
        return loss ? { ...h, loss: { reason: loss.reason, move: loss.at, tiles: [...loss.tiles] } } : h;
      });
      return { ...stats, history, challenges: await fastify.challenges.sentList(playerId, namer) };
    },
  );
}
