/** Fair play: which wins are ranked and which stand on a daily table (docs/fair-play.md, "The rule"). */
import type { Move } from '../../engine/index.ts';
import type { Unranked } from '../stores/types.ts';
import { dailyDayOf } from './daily.ts';

export const PAIR_FLOOR_MS = 700; // a pair every 0.7 s at most …
export const PACE_BURST = 6; // … after a burst of 6 pairs

export const paceStart = (shownAt: number): number => shownAt - PACE_BURST * PAIR_FLOOR_MS;

/** What a paced bot can reach. */
export const fastestRankedMs = (pairs: number): number => Math.max(0, pairs - PACE_BURST) * PAIR_FLOOR_MS;

/** The pace clock after a batch that arrived `at`; `first`: no pair received before it. */
export function paceAfter(
  game: { unranked: Unranked | null; paced_at: number },
  moves: readonly Move[],
  at: number,
  first: boolean,
): { pacedAt: number; unranked: Unranked | null } {
  const pairs = moves.reduce((n, m) => n + (m.type === 'match' ? 1 : 0), 0);
  const pacedAt = game.paced_at + pairs * PAIR_FLOOR_MS;
  const tooFast = pacedAt > at || (first && pairs > PACE_BURST);
  return { pacedAt, unranked: game.unranked ?? (tooFast ? 'fast' : null) };
}

/** A win's ranked time, its daily day (started on the day) and whether it stands on the day's table. */
export function rankWin(
  game: { unranked: Unranked | null; shown_at: number; started_at: number; layout: string; seed: string; mode: string },
  finishedAt: number,
): { rankedMs: number | null; dailyDay: string | null; onTable: boolean } {
  const ranked = game.unranked === null;
  const day = dailyDayOf(game.layout, game.seed, game.mode);
  const start = day === null ? NaN : Date.parse(`${day}T00:00:00Z`);
  const startedOnDay = day !== null && game.started_at >= start && game.started_at < start + 86_400_000;
  return {
    rankedMs: ranked ? finishedAt - game.shown_at : null,
    dailyDay: startedOnDay ? day : null,
    onTable: ranked && startedOnDay && game.shown_at >= start,
  };
}
