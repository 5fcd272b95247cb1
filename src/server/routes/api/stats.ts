/**
 * GET /api/stats[?page=N]: the player's stats (docs/contracts.md, "JSON API"), with page N of the history; see
 * services/stats.ts for the rules. Rate limited: each answer reads a handful of index ranges. A lost game of the
 * page carries why it was lost, as the stats page shows it (docs/coach.md): the same kept reviews, made at the same
 * cost (charged to the client, waited for 1.5 s at most), so the API never does more work than the page. The
 * player's challenge links and how each went are the page's list too (services/challenges.ts sentList).
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
      const namer = (ids: Iterable<string>) => fastify.layouts.namer(ids, undefined, request.playerId); // custom layouts by the player's own names
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
