/**
 * A player's stats from their games (`/api/stats` and the /stats page). The rules (played, clean wins, streaks,
 * bands, own times) and the cost: docs/server.md, "Stats". Everything comes from aggregates and indexes
 * (stores/game-stats.ts), so an answer costs the same at 10 or 100,000 games.
 */
import type { z } from 'zod';
import { BANDS, type Band } from '../../engine/index.ts';
import type { HistoryEntrySchema, StatsSchema } from '../../shared/answers.ts';
import { dealUrl, isCleanWin } from '../../shared/display.ts';
import type { GamesStore, StatsRows } from '../stores/types.ts';
import { achievementViews } from './achievements.ts';

export const HISTORY_SIZE = 50; // games a page
export const MAX_HISTORY_PAGE = 2000;
export const CHART_SIZE = 300;

// The answer's types, from GET /api/stats's schema (shared/answers.ts); the routes add its challenges.
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

/** A player's stats at `now`, with page `page` of the history; a new player (no `playerId`) has none. */
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
    loss: null, // filled in by the route (replays.ts lossesOf)
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
