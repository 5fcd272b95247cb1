/** GET /: pick a layout, start a game (relaxed or classic), today's deal, resume, stats. */
import type { FastifyInstance } from 'fastify';
import { DAILY_LAYOUT, dailySeed, utcDate } from '../../services/daily.ts';
import { layoutInfos } from '../../services/layouts.ts';
import { dealUrl } from '../../services/stats.ts';

export default async function pagesHome(fastify: FastifyInstance): Promise<void> {
  fastify.get('/', async (request, reply) => {
    const latest = request.isNewPlayer ? undefined : await fastify.gamesRepository.latestUnfinished(request.playerId);
    const now = fastify.now();
    const nameOf = latest ? await fastify.layouts.namer([latest.layout]) : undefined;
    return reply.page('index', {
      nav: 'play',
      layouts: layoutInfos(),
      daily: { url: dealUrl(DAILY_LAYOUT, dailySeed(now), 'relaxed'), date: utcDate(now) },
      resume: latest && {
        url: dealUrl(latest.layout, latest.seed, latest.mode),
        name: nameOf!(latest.layout),
        mode: latest.mode,
        seed: latest.seed,
        left: latest.tiles_left,
      },
    });
  });
}
