/** GET /stats[?page=N]: the player's own stats, page N of their history and a chart of their latest winning times. */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { LIMITS } from '../../plugins/security.ts';
import { StatsQuerySchema } from '../../schemas/stats.ts';
import { FIRST_PLAY_BUTTONS, layoutNames } from '../../services/layouts.ts';
import type { Loss } from '../../services/replays.ts';
import { clientKey } from '../../services/limits.ts';
import { statsOf } from '../../services/stats.ts';
import { shortReasonText } from '../../../shared/coach.ts';
import type { Format } from '../../../shared/i18n.ts';
import { timesChart } from '../../view-models/chart.ts';
import { BANDS } from '../../../engine/index.ts';
import { PROGRESS_KEYS } from '../../../shared/achievements.ts';
import { ACHIEVEMENT_MESSAGES } from '../../services/achievements.ts';
import { formatTime } from '../../../shared/display.ts';
import type { ChallengeOutcome } from '../../../shared/challenge.ts';

/** How a challenge went, in words (catalog keys). */
const OUTCOME_KEYS: Readonly<Record<ChallengeOutcome, string>> = {
  held: 'challenge.outcome.held',
  beaten: 'challenge.outcome.beaten',
  open: 'challenge.outcome.open',
};

/** A lost game's row on the page: the short reason, the move to replay at, the board moves to play on after. */
const lossView = (loss: Loss | null | undefined, t: Format) =>
  loss ? { reason: loss.reason, text: shortReasonText(t, loss.words), move: loss.at, playOn: loss.at - 1 } : null;

export default async function pagesStats(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/stats',
    { schema: { querystring: StatsQuerySchema }, config: { rateLimit: LIMITS.stats } },
    async (request, reply) => {
      const page = request.query.page;
      const i18n = request.i18n;
      const playerId = request.isNewPlayer ? undefined : request.playerId;
      // Built-ins in the player's language (the API in English), custom layouts by the player's own names.
      const namer = (ids: Iterable<string>) => fastify.layouts.namer(ids, i18n, request.playerId);
      const stats = await statsOf(fastify.gamesStore, playerId, page, namer, fastify.now());
      const losses = await fastify.replays.lossesOf(stats.history, clientKey(request.ip));
      const sent = await fastify.challenges.sentList(playerId, namer);
      return reply.page('stats', {
        title: i18n.t('home.stats'),
        nav: 'stats',
        moved: request.query.moved === 1,
        stats,
        play: FIRST_PLAY_BUTTONS, // no games yet: the first game's buttons, as on a first visit's home page
        winRate: i18n.percent(stats.winRate),
        // For the script's list of games waiting in this browser (src/client/site.ts): layout names by id.
        layoutNames: JSON.stringify(layoutNames(i18n)),
        bands: BANDS.map((band) => ({
          band,
          ...stats.byBand[band],
          winRate:
            stats.byBand[band].played === 0 ? '–' : i18n.percent(stats.byBand[band].won / stats.byBand[band].played),
        })),
        unbanded: stats.played - BANDS.reduce((n, b) => n + stats.byBand[b].played, 0),
        layouts: Object.entries(stats.byLayout).map(([id, s]) => ({
          id,
          ...s,
          best: formatTime(s.bestMs),
          median: formatTime(s.medianMs),
        })),
        history: stats.history.map((h) => ({
          ...h,
          name: stats.byLayout[h.layout]?.name ?? h.layout, // every layout in the history has its totals
          band: h.band === null ? null : { band: h.band },
          date: i18n.date(h.startedAt, 'day-short'),
          time: formatTime(h.timeMs),
          // The ranked time too, where the server ranked the win and its clock says otherwise (a whole second).
          rankedTime:
            h.rankedMs !== null && Math.floor(h.rankedMs / 1000) !== Math.floor((h.timeMs ?? 0) / 1000)
              ? formatTime(h.rankedMs)
              : null,
          // A lost game: its losing move and reason in short, its replay there, and play on from the move before.
          loss: lossView(losses.get(h.id), i18n.t),
        })),
        chart: timesChart(stats.wins, i18n),
        // The player's challenge links, newest first, and how each went (services/challenges.ts sentList).
        challenges: sent.map((c) => ({
          ...c,
          time: formatTime(c.timeMs),
          best: formatTime(c.bestMs),
          said: i18n.t(OUTCOME_KEYS[c.outcome]),
        })),
        // Held first-earned-first, then the open ones nearest to done (services/achievements.ts has the rules).
        achievements: [
          ...stats.achievements.filter((a) => a.earned).sort((a, b) => (a.earnedAt ?? 0) - (b.earnedAt ?? 0)),
          ...stats.achievements.filter((a) => !a.earned),
        ].map((a) => ({
          ...a,
          name: i18n.t(ACHIEVEMENT_MESSAGES[a.id].name),
          rule: i18n.t(ACHIEVEMENT_MESSAGES[a.id].rule),
          date: a.earnedAt === null ? null : i18n.date(a.earnedAt, 'day'),
          gameName: a.game ? (stats.byLayout[a.game.layout]?.name ?? a.game.layout) : null,
          progressText: a.progress
            ? i18n.t(PROGRESS_KEYS[a.progress.unit], { done: a.progress.done, goal: a.progress.goal })
            : null,
          percent: a.progress ? Math.round((100 * a.progress.done) / a.progress.goal) : null,
        })),
        earned: stats.achievements.filter((a) => a.earned).length,
        pager: {
          page,
          pages: stats.historyPages,
          newer: page > 1 ? `/stats?page=${page - 1}` : null,
          older: page < stats.historyPages ? `/stats?page=${page + 1}` : null,
        },
      });
    },
  );
}
