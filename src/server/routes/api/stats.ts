/** GET /api/stats: the player's stats (SPEC §3.2); see services/stats.ts for the rules. */
import type { FastifyInstance } from 'fastify';
import { layoutName } from '../../services/layouts.ts';
import { computeStats } from '../../services/stats.ts';

export default async function apiStats(fastify: FastifyInstance): Promise<void> {
  fastify.get('/api/stats', async (request) => {
    const games = request.isNewPlayer ? [] : await fastify.gamesRepository.ofPlayer(request.playerId);
    return computeStats(games, layoutName);
  });
}
