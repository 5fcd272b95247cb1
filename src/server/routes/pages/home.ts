/**
 * GET /: pick a layout, start a game (relaxed or classic), today's deal, resume, stats. The layouts come
 * in families (classic, animals, …), each a section with a link to it at the top. A returning player sees
 * which layouts they have won (clean or not) and a suggestion of one they have not played. On a phone held upright
 * (CSS only: the server cannot know) the portrait family comes first and the main button deals one of its layouts.
 */
import type { FastifyInstance } from 'fastify';
import { dailyLayoutOf, dailySeed, utcDate } from '../../services/daily.ts';
import { familyInfos, FIRST_PLAY_BUTTONS, layoutName, PLAY_BUTTONS } from '../../services/layouts.ts';
import { BANDS, MODES } from '../../../engine/index.ts';
import { dealUrl, newDealUrl } from '../../../shared/display.ts';
import { nextUnplayed } from '../../services/wins.ts';
import { structuredData } from '../../view-models/head.ts';

export default async function pagesHome(fastify: FastifyInstance): Promise<void> {
  fastify.get('/', async (request, reply) => {
    const latest = request.isNewPlayer ? undefined : await fastify.gamesStore.latestUnfinished(request.playerId);
    const now = fastify.now();
    const totals = request.isNewPlayer ? [] : await fastify.gamesStore.layoutTotals(request.playerId);
    const mark = new Map(
      totals.map((t) => [t.layout, t.clean_wins > 0 ? 'clean' : t.won > 0 ? 'won' : t.played > 0 ? 'played' : '']),
    );
    const nameOf = latest ? await fastify.layouts.namer([latest.layout], request.i18n, request.playerId) : undefined;
    const own = request.isNewPlayer ? [] : await fastify.layouts.named(request.playerId); // the player's named layouts
    return reply.page('index', {
      nav: 'play',
      structuredData: structuredData(fastify.publicOrigin, request.i18n),
      play: request.isNewPlayer ? FIRST_PLAY_BUTTONS : PLAY_BUTTONS,
      families: familyInfos(request.i18n).map((f) => ({
        ...f,
        layouts: f.layouts.map((l) => ({
          ...l,
          mark: mark.get(l.id) ?? '',
          newUrl: newDealUrl(l.id, 'relaxed'),
          classicUrl: newDealUrl(l.id, 'classic'),
          bands: MODES.map((mode) => ({
            mode,
            links: BANDS.map((band) => ({ band, url: newDealUrl(l.id, mode, band) })),
          })),
        })),
      })),
      own: own.map((l) => ({
        ...l,
        url: `/layouts/${l.id}`,
        newUrl: newDealUrl(l.id, 'relaxed'),
        mark: mark.get(l.id) ?? '',
      })),
      suggestion: totals.length > 0 ? nextUnplayed(totals, request.i18n) : null, // for a player who has begun: a layout they have not tried
      daily: {
        url: dealUrl(dailyLayoutOf(utcDate(now)), dailySeed(now), 'relaxed'),
        name: layoutName(dailyLayoutOf(utcDate(now)), request.i18n),
        date: request.i18n.date(Date.parse(`${utcDate(now)}T00:00:00Z`), 'day'),
      },
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
