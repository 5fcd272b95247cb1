/**
 * The JSON the browser's scripts read from the API, typed once for the server's answers and the client
 * (docs/contracts.md, "JSON API"; docs/server.md, "Games and verification"). No DOM, no Node types.
 */
import type { Face, Mode, Move, Status } from '../engine/index.ts';

/** The longest own time a page may report for a game: 100 hours of play (its clock stops while paused or hidden). */
export const MAX_PLAY_MS = 100 * 3_600_000;

/** Which deal a game is of: what `POST /api/games` takes. */
export interface DealKey {
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
}

/** Why a won game is not ranked (docs/fair-play.md): its pairs came faster than the pace rule, or it began before the rule. */
export type Unranked = 'fast' | 'legacy';

/** One line of a deal's record: a player's best ranked time on it. */
export interface RecordLine {
  readonly name: string | null; // the player's name on tables; null: anonymous
  readonly timeMs: number; // the ranked time, server clock
  readonly clean: boolean;
  readonly you: boolean; // the asking player's own line
}

/** A deal's own record (`#deal-stats`): players shown it, players who won it, its best ranked times. */
export interface DealRecordAnswer {
  readonly opened: number;
  readonly won: number;
  readonly best: readonly RecordLine[];
}

/** An achievement a win just earned, as the win panel announces it (docs/server.md, "Achievements"). */
export interface EarnedAnswer {
  readonly id: string;
  readonly name: string;
  readonly rule: string; // what earns it, in a sentence
}

/** What `POST /api/games/:id/moves` answers (docs/contracts.md, "Moves"; with our extra keys). */
export interface MovesAnswer {
  readonly status: Status;
  readonly faces: readonly (Face | null)[];
  readonly moves: number; // moves the server has of this game, hints included
  readonly timeMs: number | null; // the win's ranked-clock time: from the deal's first view, server clock
  readonly playMs?: number | null; // the player's own time as their page last sent it
  readonly log?: readonly Move[]; // with a repeat the server had moves past: its log
  readonly previousBestMs?: number | null; // with a win: the player's best own time on this layout and mode before it
  readonly ranked?: boolean | null; // with a win: its time may stand on tables (docs/fair-play.md)
  readonly unranked?: Unranked | null; // why not
  readonly dailyRank?: number | null; // with a win on its day's daily table: its place there
  readonly next?: { readonly id: string; readonly name: string; readonly url: string } | null; // a layout not played yet
  readonly record?: DealRecordAnswer; // with a win: the deal's record now, the win included
  readonly achievements?: readonly EarnedAnswer[]; // with a win: the achievements it earned
}

/** What `POST /api/games/:id/replay` answers (docs/server.md, "Replays"). */
export interface ReplayLinkAnswer {
  readonly url: string; // /replay/<token>
}
