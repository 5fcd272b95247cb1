/**
 * GET /api/stats[?page=N]: the player's stats (docs/contracts.md, "JSON API"), with page N of the history; see
 * services/stats.ts for the rules. Rate limited: each answer reads a handful of index ranges.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '../../plugins/security.ts';
import { errorResponses } from '../../errors.ts';
import { StatsSchema } from '../../../shared/answers.ts';
import { StatsQuerySchema } from '../../schemas/stats.ts';
import { statsOf } from '../../services/stats.ts';

export default async function apiStats(fastify: FastifyInstance): Promise<void> {
  fastify.withTypeProvider<ZodTypeProvider>().get(
    '/api/stats',
    {
      schema: { querystring: StatsQuerySchema, response: { 200: StatsSchema, ...errorResponses() } },
      config: { rateLimit: LIMITS.stats },
    },
    async (request) =>
      statsOf(
        fastify.gamesRepository,
        request.isNewPlayer ? undefined : request.playerId,
        request.query.page,
        (ids) => fastify.layouts.namer(ids, undefined, request.playerId), // custom layouts by the player's own names
        fastify.now(),
      ),
  );
}
