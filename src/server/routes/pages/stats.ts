/** GET /stats: the player's own stats, history and a chart of winning times. */
import type { FastifyInstance } from 'fastify';
import { layoutName } from '../../services/layouts.ts';
import { computeStats } from '../../services/stats.ts';
import { timesChart } from '../../views/chart.ts';
import { formatDate, formatPercent, formatTime } from '../../views/format.ts';

export default async function pagesStats(fastify: FastifyInstance): Promise<void> {
  fastify.get('/stats', async (request, reply) => {
    const games = request.isNewPlayer ? [] : await fastify.gamesRepository.ofPlayer(request.playerId);
    const stats = computeStats(games, layoutName);
    return reply.page('stats', {
      title: 'Your stats',
      nav: 'stats',
      stats,
      winRate: formatPercent(stats.winRate),
      layouts: Object.entries(stats.byLayout).map(([id, s]) => ({
        id,
        ...s,
        best: formatTime(s.bestMs),
        median: formatTime(s.medianMs),
      })),
      history: stats.history.map((h) => ({
        ...h,
        name: layoutName(h.layout),
        date: formatDate(h.startedAt),
        time: formatTime(h.timeMs),
      })),
      chart: timesChart(stats.wins),
    });
  });
}
