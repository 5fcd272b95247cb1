/**
 * Fair play (docs/fair-play.md; docs/contracts.md, "Fair play: the two clocks"): which wins are ranked, and on which
 * daily table.
 *
 * - A game's time runs from the moment the server first showed the player its deal (a play page,
 *   the deal API or a new game: `first_shown`) to the server's receipt of the winning move.
 * - The pace rule: moves must reach the server as a person plays them. By the time a batch arrives,
 *   the game may have received at most PACE_BURST pairs plus one pair per PAIR_FLOOR_MS since the
 *   deal was shown, and the first batch with a pair at most PACE_BURST pairs (a person's browser sends the first
 *   move at once: a whole game in one request is a script or a game played offline; batches of only checks,
 *   hints or shuffles before it do not make it any less the first). A batch over
 *   that makes the game unranked for good (`fast`); it still counts as a win in the player's stats.
 *   The fastest ranked time is then (pairs − 6) × 0.7 s: 46 s for the turtle, where people need
 *   minutes. Kept as one number per game, `paced_at`, a pace clock: it starts at shown_at −
 *   PACE_BURST × PAIR_FLOOR_MS and goes PAIR_FLOOR_MS further with every pair received; a batch
 *   whose arrival is before the clock is too fast. Waiting, losing the network a while, or sending
 *   in any batches never hurts a person.
 * - A ranked win of a daily deal stands on its day's table when the deal was first shown to the
 *   player on that UTC day and the game started on it.
 */
import type { Move } from '../../engine/index.ts';
import type { Unranked } from '../stores/types.ts';
import { dailyDayOf } from './daily.ts';

export const PAIR_FLOOR_MS = 700; // the fastest a person is credited with: a pair every 0.7 s …
export const PACE_BURST = 6; // … after a burst of 6 pairs (pairs seen before the batch went)

/** The pace clock of a new game (see above). */
export const paceStart = (shownAt: number): number => shownAt - PACE_BURST * PAIR_FLOOR_MS;

/** The fastest ranked time the pace rule allows for a board of `pairs` pairs (what a paced bot can reach). */
export const fastestRankedMs = (pairs: number): number => Math.max(0, pairs - PACE_BURST) * PAIR_FLOOR_MS;

/**
 * A game's pace after a batch of `moves` (the new ones) that arrived at `at`: its new pace clock and
 * whether it may still be ranked. `first`: the game received no pair before this batch (whatever else it received).
 */
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

/**
 * What a won game is: its ranked time (null when unranked); the day of its daily deal when it was
 * started on that day (the player's calendar and daily streak); and whether it stands on that day's
 * table (ranked, and the deal first shown to the player on the day too).
 */
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
