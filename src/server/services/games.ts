/**
 * Playing games on the server: create, replay, verify, store (SPEC §3.2).
 *
 * Implementation notes: the stored move log is the only truth. A move batch is
 * checked by replaying it with the engine on the game's current state, which
 * comes from a small cache keyed by game id and checked against the stored
 * `move_count`, or else from a replay of the stored log, which takes the stored boards of its
 * shuffles instead of searching for them again (`boards`; issue 9, item 4). Nothing is
 * stored unless every move in the batch is legal. The write is conditional on
 * `move_count` (another tab may have written first) and finishes the game, with
 * the server's clock, in the same statement when the board is clear.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applyMoves, makeBoard, newGame, parseBoards, replay, statusOf, type Game, type Move, type Status } from '../../engine/index.ts';
import type { GameRow } from '../repositories/types.ts';
import type { StoredDeal } from './dealer.ts';
import { WindowBudget } from './limits.ts';
import { Lru } from './lru.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: ReturnType<typeof createGames>;
  }
}

export const MAX_LOG = 5000; // moves in one game's log; a real game needs a few hundred at most
export const MAX_SHUFFLES = 100; // shuffles in one game
/** New shuffles one player may play a minute: each searches for a removal order (~0.4 ms on the turtle). */
export const SHUFFLES_PER_MINUTE = 60;

export type PlayFailure = {
  readonly ok: false;
  readonly status: 403 | 404 | 409 | 429;
  readonly retryAfterS?: number; // with 429
  readonly error: string;
  readonly code?: string; // engine MoveError code for an illegal move
  readonly index?: number; // position in the batch of the first illegal move
};

export interface Played {
  readonly ok: true;
  readonly row: GameRow; // as read before this batch
  readonly game: Game; // after this batch
  readonly status: Status;
  readonly finishedAt: number | null; // ms epoch when this batch won the game
}

/** The answer of the moves API and the game part of the play page. */
export function gameAnswer(game: Game, startedAt: number, finishedAt: number | null) {
  return {
    status: statusOf(game),
    faces: game.faces,
    left: game.left,
    hints: game.hints,
    shuffles: game.shuffles,
    undos: game.undos,
    moves: game.log.length,
    startedAt,
    finishedAt,
    timeMs: finishedAt === null ? null : finishedAt - startedAt, // server clock
  };
}

export const makeGameId = (): string => randomBytes(12).toString('base64url');

const countOf = (moves: readonly Move[], type: Move['type']): number => moves.filter((m) => m.type === type).length;

export function createGames(fastify: FastifyInstance, now: () => number) {
  const repo = fastify.gamesRepository;
  const cache = new Lru<string, Game>(500); // game id → state after its stored log
  const shuffleBudget = new WindowBudget(SHUFFLES_PER_MINUTE, 60_000, now); // by player

  /** The state after a stored game's log. Throws if the stored log does not replay: that is our bug. */
  function stateOf(row: GameRow, stored: StoredDeal): Game {
    const cached = cache.get(row.id);
    if (cached && cached.log.length === row.move_count) return cached;
    const boards = row.boards === '' ? undefined : parseBoards(row.boards, stored.deal.tiles.length);
    if (boards && !boards.ok) throw new Error(`stored game ${row.id} has broken boards: ${boards.message}`);
    const result = replay(stored.deal, JSON.parse(row.moves_json) as Move[], boards?.value);
    if (!result.ok) throw new Error(`stored game ${row.id} does not replay: ${result.message}`);
    cache.set(row.id, result.value);
    return result.value;
  }

  return {
    /** Starts a game of a stored deal for a player. */
    async create(playerId: string, stored: StoredDeal): Promise<{ id: string; startedAt: number }> {
      const start = newGame(stored.deal);
      if (!start.ok) throw new Error(`stored deal ${stored.id} is not playable: ${start.message}`);
      const id = makeGameId();
      const startedAt = now();
      await repo.create({ id, playerId, dealId: stored.id, layout: stored.deal.layout, status: statusOf(start.value), tilesLeft: start.value.left, now: startedAt });
      cache.set(id, start.value);
      return { id, startedAt };
    },

    /** Checks a batch of moves by replay and stores it; nothing is stored when any move is illegal. */
    async play(playerId: string, gameId: string, moves: readonly Move[]): Promise<Played | PlayFailure> {
      const row = await repo.findById(gameId);
      if (!row) return { ok: false, status: 404, error: 'there is no such game' };
      if (row.player_id !== playerId) return { ok: false, status: 403, error: 'this game belongs to another player' };
      if (row.result !== null) return { ok: false, status: 409, error: 'this game is finished; start a new one' };
      if (row.move_count + moves.length > MAX_LOG)
        return { ok: false, status: 409, error: `a game holds at most ${MAX_LOG} moves; start a new one` };
      if (row.shuffles + countOf(moves, 'shuffle') > MAX_SHUFFLES)
        return { ok: false, status: 409, error: `a game allows at most ${MAX_SHUFFLES} shuffles; undo instead` };
      // Shuffles cost a search each: a budget per player, beside the per-request bound (schemas/games.ts).
      const wait = shuffleBudget.take(playerId, countOf(moves, 'shuffle'));
      if (wait !== undefined)
        return { ok: false, status: 429, retryAfterS: wait, error: `at most ${SHUFFLES_PER_MINUTE} shuffles a minute; try again in ${wait} s` };
      const stored = await fastify.dealer.byId(row.deal_id);
      if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
      const next = applyMoves(stateOf(row, stored), moves);
      if (!next.ok)
        return { ok: false, status: 409, error: next.message, code: next.error.code, index: next.error.index };
      const game = next.value;
      const status = statusOf(game);
      const at = now();
      const saved = await repo.saveMoves({
        id: row.id,
        expectedCount: row.move_count,
        movesJson: JSON.stringify(game.log),
        boards: game.boards.map(makeBoard).join(''),
        moveCount: game.log.length,
        status,
        tilesLeft: game.left,
        hints: game.hints,
        shuffles: game.shuffles,
        undos: game.undos,
        now: at,
        won: status === 'won',
      });
      if (!saved) {
        cache.delete(row.id);
        return { ok: false, status: 409, error: 'this game changed in another window; reload it' };
      }
      cache.set(row.id, game);
      return { ok: true, row, game, status, finishedAt: status === 'won' ? at : null };
    },

    /** The player's unfinished game of a deal, replayed, if there is one. */
    async unfinished(playerId: string, stored: StoredDeal): Promise<{ row: GameRow; game: Game } | undefined> {
      const row = await repo.unfinishedOfDeal(playerId, stored.id);
      return row ? { row, game: stateOf(row, stored) } : undefined;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance, opts: { now?: () => number }) => {
    fastify.decorate('games', createGames(fastify, opts.now ?? Date.now));
  },
  { name: 'games', dependencies: ['games-repository', 'dealer'] },
);
