/**
 * A player's stats from their games (`/api/stats`, docs/contracts.md, "JSON API"; the /stats page).
 *
 * Rules we chose:
 * - played: games started (a game starts with the player's first action on a deal);
 *   won: games the server's replay cleared. Win rate = won / played.
 * - A clean win has no hint, no shuffle and no undo.
 * - A streak is days in a row (UTC) on which the player won at least one game. It still runs while
 *   its last day is today or yesterday. Nothing but a day without a win ends it: a game left
 *   unfinished, or given up, never breaks a streak. The daily streak is days in a row
 *   whose daily deal the player won on its day.
 * - Per band (the deal's difficulty band when the game began, docs/study.md "Measured difficulty"): games
 *   started, won and won clean, both modes together; games begun before deals had a band count in no band.
 * - Times are the player's own (docs/fair-play.md, "Two clocks"): the clock their page showed, from the
 *   first move, stopped while paused, in ms; for a game whose page sent none, the server's time from its
 *   first view of the deal to the winning move. A win is ranked when its moves came at a person's pace
 *   (services/fair-play.ts); a ranked win's history entry carries the server's time too.
 *   The median of an even count is the mean of the middle two.
 *
 * Cost: totals, bests, medians and streaks come from aggregates and indexes in
 * the store (stores/game-stats.ts), the history is paged (HISTORY_SIZE a page) and the chart shows
 * the latest CHART_SIZE wins, so the answer costs the same at 10 or 100,000 games. Achievements are rows
 * written with the win that earned them; their progress comes from the same aggregates.
 */
import type { z } from 'zod';
import { BANDS, type Band } from '../../engine/index.ts';
import type { HistoryEntrySchema, StatsSchema } from '../../shared/answers.ts';
import { dealUrl, isCleanWin } from '../../shared/display.ts';
import type { GamesStore, StatsRows } from '../stores/types.ts';
import { achievementViews } from './achievements.ts';

export const HISTORY_SIZE = 50; // games listed per page, newest first
export const MAX_HISTORY_PAGE = 2000; // 100,000 games; a deeper page is a 400
export const CHART_SIZE = 300; // latest wins in the chart

// The answer's types, inferred from the schema GET /api/stats declares (shared/answers.ts); its challenges come
// from their own store (services/challenges.ts sentList), added by the routes.
export type Stats = z.infer<ReturnType<typeof StatsSchema.omit<{ challenges: true }>>>;
export type LayoutStats = Stats['byLayout'][string];
export type BandStats = Stats['byBand'][Band];
export type HistoryEntry = z.infer<typeof HistoryEntrySchema>;
export type WinTime = Stats['wins'][number];

const EMPTY: StatsRows = {
  layouts: [],
  bands: [],
  streak: 0,
  bestStreak: 0,
  dailyStreak: 0,
  history: [],
  wins: [],
  achievements: [],
  bestDailyStreak: 0,
};

/**
 * A player's stats at time `now`, page `page` of the history. `namer` names the layout ids in it (custom
 * layouts' names come from the store). A new player (`playerId` undefined) has none.
 */
export async function statsOf(
  store: GamesStore,
  playerId: string | undefined,
  page: number,
  namer: (ids: Iterable<string>) => Promise<(layout: string) => string>,
  now: number,
): Promise<Stats> {
  const today = new Date(now).toISOString().slice(0, 10);
  const yesterday = new Date(now - 86_400_000).toISOString().slice(0, 10);
  const rows =
    playerId === undefined
      ? EMPTY
      : await store.statsOf(playerId, {
          historyOffset: (page - 1) * HISTORY_SIZE,
          historyLimit: HISTORY_SIZE,
          winsLimit: CHART_SIZE,
          today,
          yesterday,
        });
  const nameOf = await namer([...rows.layouts.map((t) => t.layout), ...rows.history.map((g) => g.layout)]);
  return makeStats(rows, page, nameOf);
}

/** Shapes the store's rows into the API's stats. */
export function makeStats(rows: StatsRows, page: number, nameOf: (layout: string) => string): Stats {
  const byLayout: Record<string, LayoutStats> = {};
  let played = 0;
  let won = 0;
  let cleanWins = 0;
  for (const t of rows.layouts) {
    byLayout[t.layout] = {
      name: nameOf(t.layout),
      played: t.played,
      won: t.won,
      bestMs: t.best_ms,
      medianMs: t.median_ms,
    };
    played += t.played;
    won += t.won;
    cleanWins += t.clean_wins;
  }
  const byBand = Object.fromEntries(BANDS.map((b) => [b, { played: 0, won: 0, cleanWins: 0 }])) as Record<
    Band,
    BandStats
  >;
  for (const t of rows.bands) byBand[t.band] = { played: t.played, won: t.won, cleanWins: t.clean_wins };
  const history = rows.history.map((g): HistoryEntry => ({
    id: g.id,
    layout: g.layout,
    seed: g.seed,
    mode: g.mode,
    band: g.band,
    status: g.status,
    result: g.result,
    startedAt: g.started_at,
    finishedAt: g.finished_at,
    timeMs: g.finished_at === null ? null : g.own_ms,
    rankedMs: g.ranked_ms,
    moves: g.move_count,
    hints: g.hints,
    shuffles: g.shuffles,
    undos: g.undos,
    clean: g.result === 'won' && isCleanWin(g),
    ranked: g.ranked_ms !== null,
    url: dealUrl(g.layout, g.seed, g.mode),
    playedOnFrom: g.play_on_from,
    loss: null, // why a lost game was lost: from its review, filled in by the route (services/replays.ts lossesOf)
  }));
  const wins = rows.wins
    .map((w) => ({ layout: w.layout, finishedAt: w.finished_at, timeMs: w.time_ms, clean: w.clean === 1 }))
    .reverse();
  return {
    played,
    won,
    winRate: played === 0 ? 0 : won / played,
    cleanWins,
    streak: rows.streak,
    bestStreak: rows.bestStreak,
    dailyStreak: rows.dailyStreak,
    bestDailyStreak: rows.bestDailyStreak,
    byLayout,
    byBand,
    history,
    historyPage: page,
    historyPages: Math.max(1, Math.ceil(played / HISTORY_SIZE)),
    wins,
    achievements: achievementViews(rows),
  };
}
