/**
 * A game's stored row toward its player: the limits of a game's log, the refusal codes of the moves API, the
 * owner check, and the answers built from a row (the moves API's, the play page's script data).
 */
import { statusOf, type Game, type Move } from '../../engine/index.ts';
import type { GameAnswer } from '../../shared/api.ts';
import type { ErrorCode, Refusal } from '../errors.ts';
import type { GameRow, GamesStore } from '../stores/types.ts';

export const MAX_LOG = 5000; // moves in one game's stored log (hints are not in it)
export const MAX_HINTS = 500; // hints in one game
export const MAX_CHECKS = 500; // checks in one game

/** Refusal codes besides the engine's MoveError codes (docs/server.md). */
export const PlayError = {
  NotFound: 'ERR_GAME_NOT_FOUND',
  Forbidden: 'ERR_NOT_YOUR_GAME',
  Finished: 'ERR_GAME_FINISHED',
  Conflict: 'ERR_CONFLICT',
  Gap: 'ERR_MOVE_GAP',
  TooManyMoves: 'ERR_TOO_MANY_MOVES',
  TooManyHints: 'ERR_TOO_MANY_HINTS',
  TooManyChecks: 'ERR_TOO_MANY_CHECKS',
  TooManyShuffles: 'ERR_TOO_MANY_SHUFFLES',
  RateLimited: 'ERR_RATE_LIMITED',
} as const satisfies Record<string, ErrorCode>;

/** A refused batch or game: a PlayError or the engine's MoveError code. */
export interface PlayFailure extends Refusal {
  readonly index?: number; // the first illegal move's place in the batch
  readonly moves?: number; // 409: the server's move_count
  readonly log?: readonly Move[]; // 409: the server's clientLog
}

/** A game's row for its own player (anyone's when `open`), else a 404 or 403 refusal. */
export async function ownGameRow(
  store: Pick<GamesStore, 'findById'>,
  playerId: string,
  gameId: string,
  open = false,
): Promise<GameRow | PlayFailure> {
  const row = await store.findById(gameId);
  if (!row) return { ok: false, code: PlayError.NotFound, message: 'there is no such game' };
  if (!open && row.player_id !== playerId)
    return { ok: false, code: PlayError.Forbidden, message: 'this game belongs to another player' };
  return row;
}

/** The answer of the moves API and the game part of the play page. */
export function gameAnswer(
  game: Game,
  moves: number,
  row: Pick<GameRow, 'started_at' | 'shown_at' | 'unranked' | 'ranked_ms' | 'play_ms'>,
  finishedAt: number | null,
): GameAnswer {
  return {
    status: statusOf(game),
    faces: game.faces,
    left: game.left,
    hints: game.hints,
    shuffles: game.shuffles,
    undos: game.undos,
    moves,
    startedAt: row.started_at,
    shownAt: row.shown_at, // the game's time runs from the first view of the deal
    finishedAt,
    timeMs: finishedAt === null ? null : finishedAt - row.shown_at,
    playMs: row.play_ms,
    ranked: finishedAt === null ? null : row.ranked_ms !== null, // docs/fair-play.md
    unranked: row.unranked,
  };
}

const HINT: Move = { type: 'hint' };
const CHECK_YES: Move = { type: 'check', heard: 'yes' };
const CHECK_NO: Move = { type: 'check', heard: 'no' };

/** The log a client replays: the stored log, then the counted checks and hints; its length is `moves`. */
export function clientLog(
  game: Pick<Game, 'log'>,
  moves: number,
  checks: { readonly checks: number; readonly checks_no: number } = { checks: 0, checks_no: 0 },
): readonly Move[] {
  const missing = Math.min(moves - game.log.length, MAX_HINTS + MAX_CHECKS);
  if (missing <= 0) return game.log;
  const asked = Math.min(missing, checks.checks);
  const no = Math.min(asked, checks.checks_no);
  return [
    ...game.log,
    ...Array<Move>(no).fill(CHECK_NO),
    ...Array<Move>(asked - no).fill(CHECK_YES),
    ...Array<Move>(missing - asked).fill(HINT),
  ];
}

/** A player's unfinished game as its page's script takes it (`GameData`). */
export function clientGame({ game, row }: { readonly game: Pick<Game, 'log'>; readonly row: GameRow }) {
  return {
    id: row.id,
    log: clientLog(game, row.move_count, row),
    startedAt: row.started_at,
    status: row.status,
    playMs: row.play_ms,
  };
}
