/**
 * Playing games on the server: create, replay, verify, store (SPEC §3.2).
 *
 * Implementation notes: the stored move log is the only truth. A move batch is
 * checked by replaying it with the engine on the game's current state, which
 * comes from a small cache keyed by game id and checked against the stored
 * `move_count`, or else from a full replay of the stored log. Nothing is
 * stored unless every move in the batch is legal. The write is conditional on
 * `move_count` (another tab may have written first) and finishes the game, with
 * the server's clock, in the same statement when the board is clear.
 *
 * Batches may say where they start (`at`: how many moves the sender believes the server has). Then
 * a batch is idempotent by move count: moves the server already has are compared with its log and
 * skipped, so a batch that arrives twice, or after a newer one (a retry whose answer was lost, the
 * page's last send on leaving), changes nothing; a batch whose moves differ from the stored ones is a
 * real conflict (another tab played this game), answered 409 with the server's log; a batch that
 * starts past the stored log is 409 `ERR_MOVE_GAP` with the count to resend from. A write that loses
 * the race against another write of the same game is read and checked again.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { applyMoves, newGame, replay, statusOf, type Game, type Move, type Status } from '../../engine/index.ts';
import type { GameRow } from '../repositories/types.ts';
import type { StoredDeal } from './dealer.ts';
import { Lru } from './lru.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: ReturnType<typeof createGames>;
  }
}

export const MAX_LOG = 5000; // moves in one game's log; a real game needs a few hundred at most
export const MAX_SHUFFLES = 100; // shuffles in one game; each replay pays for all of them

/** Codes of the moves API's refusals besides the engine's MoveError codes (docs/server.md). */
export const PlayError = {
  NotFound: 'ERR_GAME_NOT_FOUND',
  Forbidden: 'ERR_NOT_YOUR_GAME',
  Finished: 'ERR_GAME_FINISHED',
  Conflict: 'ERR_CONFLICT', // the stored log differs from the batch's view of it
  Gap: 'ERR_MOVE_GAP', // the batch starts past the stored log
  TooManyMoves: 'ERR_TOO_MANY_MOVES',
  TooManyShuffles: 'ERR_TOO_MANY_SHUFFLES',
} as const;

export type PlayFailure = {
  readonly ok: false;
  readonly status: 403 | 404 | 409;
  readonly error: string;
  readonly code: string; // a PlayError, or the engine's MoveError code for an illegal move
  readonly index?: number; // position in the batch of the first illegal move
  readonly moves?: number; // 409: how many moves the server has of this game
  readonly log?: readonly Move[]; // 409: the server's log, so the sender can show the server's position
};

export interface Played {
  readonly ok: true;
  readonly row: GameRow; // as read before this batch
  readonly game: Game; // after this batch
  readonly status: Status;
  readonly finishedAt: number | null; // ms epoch when the game was won (by this batch or, for a repeat, before)
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

const sameMove = (a: Move, b: Move): boolean =>
  a.type === b.type && (a.type !== 'match' || (b.type === 'match' && a.a === b.a && a.b === b.b));

const WRITE_TRIES = 3; // a batch that loses a write race is checked again against the newer log

export function createGames(fastify: FastifyInstance, now: () => number) {
  const repo = fastify.gamesRepository;
  const cache = new Lru<string, Game>(500); // game id → state after its stored log

  /** The state after a stored game's log. Throws if the stored log does not replay: that is our bug. */
  function stateOf(row: GameRow, stored: StoredDeal): Game {
    const cached = cache.get(row.id);
    if (cached && cached.log.length === row.move_count) return cached;
    const result = replay(stored.deal, JSON.parse(row.moves_json) as Move[]);
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
      await repo.create({ id, playerId, dealId: stored.id, status: statusOf(start.value), tilesLeft: start.value.left, now: startedAt });
      cache.set(id, start.value);
      return { id, startedAt };
    },

    /**
     * Checks a batch of moves by replay and stores it; nothing is stored when any move is illegal.
     * `at`, when given, is where the batch starts in the game's log (see the module notes).
     */
    async play(playerId: string, gameId: string, moves: readonly Move[], at?: number): Promise<Played | PlayFailure> {
      for (let attempt = 1; ; attempt++) {
        const row = await repo.findById(gameId);
        if (!row) return { ok: false, status: 404, code: PlayError.NotFound, error: 'there is no such game' };
        if (row.player_id !== playerId)
          return { ok: false, status: 403, code: PlayError.Forbidden, error: 'this game belongs to another player' };
        const stored = await fastify.dealer.byId(row.deal_id);
        if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
        const refuse = (code: string, error: string, extra: { index?: number } = {}): PlayFailure => ({
          ok: false,
          status: 409,
          code,
          error,
          ...extra,
          moves: row.move_count,
          log: JSON.parse(row.moves_json) as Move[],
        });

        let batch = moves;
        if (at !== undefined) {
          if (at > row.move_count)
            return refuse(PlayError.Gap, `the server has ${row.move_count} moves of this game, not ${at}: send from move ${row.move_count}`);
          const overlap = Math.min(row.move_count - at, moves.length);
          if (overlap > 0) {
            const log = JSON.parse(row.moves_json) as Move[];
            for (let i = 0; i < overlap; i++)
              if (!sameMove(log[at + i]!, moves[i]!))
                return refuse(PlayError.Conflict, 'this game was played on in another tab or window; here is the position the server has');
            batch = moves.slice(overlap);
          }
          if (batch.length === 0) {
            // Every move is stored already: a repeat. Answer as the first time, whatever happened since.
            const game = stateOf(row, stored);
            return { ok: true, row, game, status: statusOf(game), finishedAt: row.finished_at };
          }
        }
        if (row.result !== null) return refuse(PlayError.Finished, 'this game is finished; start a new one');
        if (row.move_count + batch.length > MAX_LOG)
          return refuse(PlayError.TooManyMoves, `a game holds at most ${MAX_LOG} moves; start a new one`);
        if (row.shuffles + countOf(batch, 'shuffle') > MAX_SHUFFLES)
          return refuse(PlayError.TooManyShuffles, `a game allows at most ${MAX_SHUFFLES} shuffles; undo instead`);
        const next = applyMoves(stateOf(row, stored), batch);
        if (!next.ok) {
          const index = next.error.index + (moves.length - batch.length); // in the batch as sent
          return refuse(next.error.code, next.message, { index });
        }
        const game = next.value;
        const status = statusOf(game);
        const time = now();
        const saved = await repo.saveMoves({
          id: row.id,
          expectedCount: row.move_count,
          movesJson: JSON.stringify(game.log),
          moveCount: game.log.length,
          status,
          tilesLeft: game.left,
          hints: game.hints,
          shuffles: game.shuffles,
          undos: game.undos,
          now: time,
          won: status === 'won',
        });
        if (saved) {
          cache.set(row.id, game);
          return { ok: true, row, game, status, finishedAt: status === 'won' ? time : null };
        }
        cache.delete(row.id);
        // Someone wrote this game between our read and our write. A batch that says where it starts can
        // be checked again against the newer log; one that does not cannot know what it would overwrite.
        if (at === undefined || attempt >= WRITE_TRIES) {
          const fresh = await repo.findById(gameId);
          return {
            ok: false,
            status: 409,
            code: PlayError.Conflict,
            error: 'this game changed in another window; here is the position the server has',
            moves: fresh?.move_count ?? row.move_count,
            log: JSON.parse(fresh?.moves_json ?? row.moves_json) as Move[],
          };
        }
      }
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
