/**
 * The daily deals: GET /daily (today's, with its table, calendar and streak), GET /daily/:date (a past day's),
 * and POST /daily/name (docs/contracts.md, "Pages"; the tables' rule: docs/fair-play.md, "The rule").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendRefusal, sendError } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { shiftDay } from '../../stores/days.ts';
import type { DailyResult } from '../../stores/types.ts';
import { dealKey } from '../../schemas/common.ts';
import { NICKNAME_MAX, NicknameBodySchema } from '../../schemas/daily.ts';
import {
  DAILY_BOARD_SIZE,
  dailyLayoutOf,
  periodOf,
  DAILY_MODE,
  FIRST_DAILY,
  isRealDay,
  seedOfDay,
  utcDate,
} from '../../services/daily.ts';
import type { ShownLookup } from '../../services/dealer.ts';
import { fastestRankedMs, PACE_BURST, PAIR_FLOOR_MS } from '../../services/fair-play.ts';
import { nicknameGrowth } from '../../services/growth.ts';
import { layoutInfo } from '../../services/layouts.ts';
import { clientKey } from '../../services/limits.ts';
import { nameKey } from '../../services/names.ts';
import { dealUrl, formatTime, isCleanWin, newDealUrl } from '../../../shared/display.ts';
import { geometryOfDeal } from '../../../engine/index.ts';
import { boardPreview } from '../../view-models/head.ts';

interface FormState {
  error?: string;
  value?: string; // shown back (escaped)
}

/** A refused name's English message → its catalog sentence. */
const NAME_ERRORS: Readonly<Record<string, string>> = {
  'enter a name': 'daily.nameError.empty',
  [`a name is at most ${NICKNAME_MAX} characters`]: 'daily.nameError.long',
  'a name uses letters, digits, spaces, _ - and . only': 'daily.nameError.chars',
  'a name has at least one letter or digit': 'daily.nameError.noLetter',
  'a name has no invisible characters': 'daily.nameError.invisible',
  'a name uses Latin, Cyrillic or Greek letters, not a mix of them': 'daily.nameError.mixed',
  'a name in letters that pass for Latin ones must be written in Latin letters': 'daily.nameError.lookalike',
  'that name is reserved': 'daily.nameError.reserved',
};

/** Weekday names in `locale`, Monday first: short and long. */
function weekdaysIn(locale: string): { short: string; long: string }[] {
  const short = new Intl.DateTimeFormat(locale, { weekday: 'short', timeZone: 'UTC' });
  const long = new Intl.DateTimeFormat(locale, { weekday: 'long', timeZone: 'UTC' });
  // 5 January 2026 was a Monday
  return [5, 6, 7, 8, 9, 10, 11].map((d) => {
    const ms = Date.UTC(2026, 0, d);
    return { short: short.format(ms), long: long.format(ms) };
  });
}

export interface CalendarDay {
  readonly day: string;
  readonly number: number;
  readonly state: 'clean' | 'won' | 'late' | 'open' | 'future'; // on its day (clean or not), after it, not won, not yet
  readonly today: boolean;
  readonly current: boolean;
  readonly url: string | null; // null before the first day or after today
}

/** The first day of the month after the one that starts on `first`. */
const nextMonth = (first: string): string => `${shiftDay(`${first.slice(0, 7)}-28`, 4).slice(0, 7)}-01`;

/** The month of `day` as weeks of seven (Monday first; null outside it), with the player's results. */
export function calendarOf(day: string, today: string, results: readonly DailyResult[], locale = 'en') {
  const byDay = new Map(results.map((r) => [r.day, r]));
  const first = `${day.slice(0, 7)}-01`;
  const lead = (new Date(`${first}T00:00:00Z`).getUTCDay() + 6) % 7; // Monday = 0
  const cells: (CalendarDay | null)[] = Array<null>(lead).fill(null);
  for (let d = first; d.slice(0, 7) === first.slice(0, 7); d = shiftDay(d, 1)) {
    const r = byDay.get(d);
    const open = d >= FIRST_DAILY && d <= today;
    cells.push({
      day: d,
      number: Number(d.slice(8)),
      state: d > today ? 'future' : r ? (r.onDay ? (r.clean ? 'clean' : 'won') : 'late') : 'open',
      today: d === today,
      current: d === day,
      url: open ? (d === today ? '/daily' : `/daily/${d}`) : null,
    });
  }
  while (cells.length % 7 !== 0) cells.push(null);
  const weeks: (CalendarDay | null)[][] = [];
  for (let i = 0; i < cells.length; i += 7) weeks.push(cells.slice(i, i + 7));
  const previous = shiftDay(first, -1);
  const next = nextMonth(first);
  const months = new Intl.DateTimeFormat(locale, { month: 'long', timeZone: 'UTC' });
  const monthName = (d: string): string => months.format(Date.parse(`${d.slice(0, 7)}-01T00:00:00Z`));
  return {
    title: new Intl.DateTimeFormat(locale, { month: 'long', year: 'numeric', timeZone: 'UTC' }).format(
      Date.parse(`${first}T00:00:00Z`),
    ),
    weekdays: weekdaysIn(locale),
    weeks,
    // Another month opens on its last day (or today, in today's month).
    previous: previous >= FIRST_DAILY ? { url: `/daily/${previous}`, label: monthName(previous) } : null,
    next:
      next <= today
        ? {
            url: next.slice(0, 7) === today.slice(0, 7) ? '/daily' : `/daily/${shiftDay(nextMonth(next), -1)}`,
            label: monthName(next),
          }
        : null,
  };
}

async function renderDaily(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  day: string,
  form: FormState = {},
) {
  const now = fastify.now();
  const today = utcDate(now);
  const isToday = day === today;
  const seed = seedOfDay(day);
  // Today's deal is everyone's; a past day's new deal is paid from the client's budget.
  const layout = dailyLayoutOf(day); // services/daily.ts
  const key = dealKey(layout, seed, DAILY_MODE);
  const playerId = request.playerId;
  const known = !request.isNewPlayer;
  // Without a cookie nothing is stored, not even today's deal.
  const client = isToday ? undefined : clientKey(request.ip);
  let found: ShownLookup = known ? await fastify.dealer.get(key, client) : await fastify.dealer.show(key, client);
  if (!found.ok && found.code === 'ERR_GROWTH') found = await fastify.dealer.show(key, client);
  if (!found.ok) return sendRefusal(request, reply, found);
  const dealId = found.value.id;
  const repo = fastify.gamesStore;
  const best = (dealId === null ? [] : await repo.bestTimes(dealId, DAILY_BOARD_SIZE, true)).map((row, i) => ({
    rank: i + 1,
    name: row.nickname,
    you: row.player_id === playerId,
    time: formatTime(row.time_ms),
    clean: isCleanWin(row),
  }));
  const monthStart = `${day.slice(0, 7)}-01`;
  const monthEnd = `${day.slice(0, 7)}-31`;
  // Wins of daily seeds on any layout: only each day's own layout counts.
  const results = known
    ? (await repo.dailyResults(playerId, DAILY_MODE, seedOfDay(monthStart), seedOfDay(monthEnd))).filter(
        (r) => r.layout === dailyLayoutOf(r.day),
      )
    : [];
  const result = results.find((r) => r.day === day);
  const unfinished = known && !result && dealId !== null ? await repo.unfinishedOfDeal(playerId, dealId) : undefined;
  const pairs = found.value.deal.tiles.length / 2;
  const i18n = request.i18n;
  const date = i18n.date(Date.parse(`${day}T00:00:00Z`), 'day');
  const title = isToday ? i18n.t('daily.pageTitle') : i18n.t('daily.pageTitleDay', { date });
  const deal = found.value.deal;
  return reply.page('daily', {
    title,
    preview: boardPreview(fastify.previews, fastify.publicOrigin, i18n, {
      title,
      path: isToday ? '/daily' : `/daily/${day}`,
      layout,
      name: layoutInfo(layout, i18n)?.name ?? layout,
      geom: geometryOfDeal(deal),
      faces: deal.tiles.map((t) => t.face),
    }),
    nav: 'daily',
    isToday,
    date,
    isoDate: day,
    layout: layoutInfo(layout, i18n),
    rotates: periodOf(day).layouts.length > 1,
    url: dealUrl(layout, seed, DAILY_MODE),
    difficulty: {
      band: found.value.deal.difficulty.band,
      score: found.value.deal.difficulty.score,
      againUrl: newDealUrl(layout, DAILY_MODE, found.value.deal.difficulty.band),
    },
    best,
    won: result ? (result.onDay ? 'on-day' : 'late') : null,
    unfinished: Boolean(unfinished),
    calendar: calendarOf(day, today, results, i18n.locale),
    streak: known ? await repo.dailyStreak(playerId, today, shiftDay(today, -1)) : 0,
    canName: isToday && known && (await repo.hasDailyWin(playerId)), // only a ranked daily win names a player
    nickname: known ? ((await fastify.playersStore.find(playerId))?.nickname ?? '') : '',
    nicknameMax: NICKNAME_MAX,
    rules: { floor: PAIR_FLOOR_MS / 1000, burst: PACE_BURST, fastest: formatTime(fastestRankedMs(pairs)) },
    form,
  });
}

const DateParamsSchema = z.object({ date: z.string() }); // a day not served is a 404

export default async function pagesDaily(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/daily', async (request, reply) => renderDaily(fastify, request, reply, utcDate(fastify.now())));

  app.get('/daily/:date', { schema: { params: DateParamsSchema } }, async (request, reply) => {
    const { date } = request.params;
    const today = utcDate(fastify.now());
    if (!isRealDay(date))
      return sendError(
        request,
        reply,
        'ERR_NOT_FOUND',
        `there is no daily deal for "${date}": dates are written YYYY-MM-DD`,
      );
    if (date > today)
      return sendError(
        request,
        reply,
        'ERR_NOT_FOUND',
        `the daily deal of ${date} is not out yet: it comes at midnight UTC`,
      );
    if (date < FIRST_DAILY)
      return sendError(request, reply, 'ERR_NOT_FOUND', `the first daily deal was on ${FIRST_DAILY}`);
    return renderDaily(fastify, request, reply, date);
  });

  app.post(
    '/daily/name',
    { schema: { body: NicknameBodySchema }, attachValidation: true, config: { rateLimit: LIMITS.nickname } },
    async (request, reply) => {
      const today = utcDate(fastify.now());
      if (request.validationError) {
        const issue = (request.validationError.validation ?? [])[0];
        const raw = (request.body as { name?: unknown } | undefined)?.name;
        reply.code(400);
        return renderDaily(fastify, request, reply, today, {
          error: request.i18n.t(NAME_ERRORS[issue?.message ?? ''] ?? 'daily.nameError.empty', { max: NICKNAME_MAX }),
          value: typeof raw === 'string' ? raw.slice(0, 100) : '',
        });
      }
      if (request.isNewPlayer || !(await fastify.gamesStore.hasDailyWin(request.playerId)))
        return sendError(
          request,
          reply,
          'ERR_FORBIDDEN',
          'win a daily deal on its day first (a ranked time); then your name can stand beside your time',
          undefined,
          'daily.nameForbidden',
        );
      const refused = await fastify.growth.take(clientKey(request.ip), nicknameGrowth(request.body.name));
      if (refused) return sendRefusal(request, reply, refused);
      const saved = await fastify.playersStore.setNickname(
        request.playerId,
        request.body.name,
        nameKey(request.body.name),
      );
      if (saved === 'taken') {
        reply.code(409);
        return renderDaily(fastify, request, reply, today, {
          error: request.i18n.t('daily.nameError.taken'),
          value: request.body.name,
        });
      }
      return reply.redirect('/daily', 303);
    },
  );
}
