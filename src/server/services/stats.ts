/**
 * A player's stats from their games (SPEC §3.2 `/api/stats`, the /stats page).
 *
 * Rules we chose:
 * - played: games started (a game starts with the player's first action on a deal);
 *   won: games the server's replay cleared. Win rate = won / played.
 * - A clean win has no hint, no shuffle and no undo.
 * - Streaks run over games in the order they were started. A win extends the
 *   run; any other game breaks it, except unfinished games started after the
 *   player's last win: those may still be won, so they do not break the current
 *   streak yet.
 * - Times are the server's: finish minus start, in ms. The median of an even
 *   count is the mean of the middle two.
 */
import type { Mode, Status } from '../../engine/index.ts';
import type { GameSummary } from '../repositories/types.ts';

export const HISTORY_SIZE = 100; // games listed, newest first

export interface LayoutStats {
  name: string;
  played: number;
  won: number;
  bestMs: number | null;
  medianMs: number | null;
}

export interface HistoryEntry {
  id: string;
  layout: string;
  seed: string;
  mode: Mode;
  status: Status;
  result: 'won' | null;
  startedAt: number;
  finishedAt: number | null;
  timeMs: number | null;
  moves: number;
  hints: number;
  shuffles: number;
  undos: number;
  clean: boolean;
  url: string; // the deal's link
}

export interface WinTime {
  layout: string;
  finishedAt: number;
  timeMs: number;
  clean: boolean;
}

export interface Stats {
  played: number;
  won: number;
  winRate: number; // 0–1
  cleanWins: number;
  streak: number;
  bestStreak: number;
  byLayout: Record<string, LayoutStats>;
  history: HistoryEntry[];
  wins: WinTime[]; // oldest first: the chart's data
}

export const dealUrl = (layout: string, seed: string, mode: Mode): string =>
  `/play/${layout}/${seed}${mode === 'classic' ? '?mode=classic' : ''}`;

export function median(values: readonly number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const isClean = (g: GameSummary): boolean => g.hints === 0 && g.shuffles === 0 && g.undos === 0;

/** Stats of a player's games, given oldest first. `nameOf` names a layout id. */
export function computeStats(games: readonly GameSummary[], nameOf: (layout: string) => string): Stats {
  const won = games.filter((g) => g.result === 'won');
  let lastWin = -1;
  games.forEach((g, i) => {
    if (g.result === 'won') lastWin = i;
  });
  let run = 0;
  let bestStreak = 0;
  games.forEach((g, i) => {
    if (g.result === 'won') bestStreak = Math.max(bestStreak, ++run);
    else if (i < lastWin) run = 0;
  });

  const byLayout: Record<string, LayoutStats> = {};
  const times = new Map<string, number[]>();
  for (const g of games) {
    const entry = (byLayout[g.layout] ??= { name: nameOf(g.layout), played: 0, won: 0, bestMs: null, medianMs: null });
    entry.played++;
    if (g.result === 'won') {
      entry.won++;
      const list = times.get(g.layout) ?? [];
      list.push(g.finished_at! - g.started_at);
      times.set(g.layout, list);
    }
  }
  for (const [layout, list] of times) {
    byLayout[layout]!.bestMs = Math.min(...list);
    byLayout[layout]!.medianMs = median(list);
  }

  const history = games
    .slice(-HISTORY_SIZE)
    .reverse()
    .map(
      (g): HistoryEntry => ({
        id: g.id,
        layout: g.layout,
        seed: g.seed,
        mode: g.mode,
        status: g.status,
        result: g.result,
        startedAt: g.started_at,
        finishedAt: g.finished_at,
        timeMs: g.finished_at === null ? null : g.finished_at - g.started_at,
        moves: g.move_count,
        hints: g.hints,
        shuffles: g.shuffles,
        undos: g.undos,
        clean: g.result === 'won' && isClean(g),
        url: dealUrl(g.layout, g.seed, g.mode),
      }),
    );

  const wins = won
    .map((g) => ({ layout: g.layout, finishedAt: g.finished_at!, timeMs: g.finished_at! - g.started_at, clean: isClean(g) }))
    .sort((a, b) => a.finishedAt - b.finishedAt);

  return {
    played: games.length,
    won: won.length,
    winRate: games.length === 0 ? 0 : won.length / games.length,
    cleanWins: won.filter(isClean).length,
    streak: run,
    bestStreak,
    byLayout,
    history,
    wins,
  };
}
