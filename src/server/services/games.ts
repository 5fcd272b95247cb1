/**
 * Playing games on the server: create, replay, verify, store (docs/contracts.md, "JSON API" and "Moves").
 *
 * The stored move log is the only truth: a batch is replayed on the game's state (cached by id and
 * `move_count`) and stored, all or nothing, by a write conditional on `move_count`. Hints and checks are
 * counted, not logged. How `at` makes batches idempotent: docs/server.md, "Games and verification".
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  applyMoves,
  isBoardMove,
  isSameMove,
  makeBoard,
  newGame,
  parseBoards,
  replay,
  statusOf,
  type Band,
  type Deal,
  type Game,
  type Move,
  type Status,
} from '../../engine/index.ts';
import { isErrorCode, type ErrorCode } from '../errors.ts';
import type { GameRow } from '../stores/types.ts';
import type { StoredDeal } from './dealer.ts';
import { paceAfter, paceStart, rankWin } from './fair-play.ts';
import { ROW_BYTES, textGrowth } from './growth.ts';
import { WindowBudget } from './limits.ts';
import { isCustomId } from './upload.ts';
import { clientLog, MAX_CHECKS, MAX_HINTS, MAX_LOG, ownGameRow, PlayError, type PlayFailure } from './game-rows.ts';
import { gameStates } from './game-states.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: ReturnType<typeof createGames>;
  }
}

export const GAMES_PER_DAY = 500; // games one player may start in a UTC day
/** Custom layouts smaller than this have no calibrated bands (docs/server.md, "Achievements"). */
export const CALIBRATED_MIN_TILES = 72;

/** The band a new game of `deal` counts under: its deal's, where the layout's bands are calibrated. */
export const gameBand = (deal: Deal): Band | null =>
  isCustomId(deal.layout) && deal.tiles.length < CALIBRATED_MIN_TILES ? null : deal.difficulty.band;

export const MAX_SHUFFLES = 100; // shuffles in one game
/** New shuffles one player may play a minute: each searches for a removal order. */
export const SHUFFLES_PER_MINUTE = 60;
/** A shuffle's search as the CPU budget counts it (docs/operations.md, "CPU budgets"). */
export const SHUFFLE_COST = { baseMs: 0.5, perTileMs: 0.0015 } as const;
/** The estimated cost of one shuffle of a deal of `tiles` tiles, in ms. */
export const shuffleCostMs = (tiles: number): number => SHUFFLE_COST.baseMs + tiles * SHUFFLE_COST.perTileMs;

export interface Played {
  readonly ok: true;
  readonly row: GameRow; // as read before this batch, rank fields as after it
  readonly game: Game; // after this batch
  readonly moves: number; // move_count
  readonly status: Status;
  readonly finishedAt: number | null; // ms epoch of the win
  readonly log?: readonly Move[]; // a repeat from further back: the server's log
}

export const makeGameId = (): string => randomBytes(12).toString('base64url');

const countOf = (moves: readonly Move[], type: Move['type']): number => moves.filter((m) => m.type === type).length;

/** Whether `overlap` (a batch's first moves, from `at`) repeats the server's `span` moves from `at` on. */
function isRepeat(storedLog: readonly Move[], overlap: readonly Move[], span: number, at: number): boolean {
  const mine = overlap.filter(isBoardMove);
  const theirs = storedLog.filter(isBoardMove);
  if (mine.length > theirs.length) return false;
  const matchesAt = (n: number): boolean => mine.every((m, i) => isSameMove(m, theirs[n + i]!));
  if (overlap.length === span) return matchesAt(theirs.length - mine.length);
  const last = Math.min(at, theirs.length - mine.length);
  for (let n = Math.max(0, theirs.length - span); n <= last; n++) if (matchesAt(n)) return true;
  return false;
}

/** The limit a batch would pass (hints and checks are counted, not logged): its refusal, or null. */
function overLimit(row: GameRow, batch: readonly Move[]): [ErrorCode, string] | null {
  const hints = countOf(batch, 'hint');
  const checks = countOf(batch, 'check');
  if (row.move_count - row.hints - row.checks + batch.length - hints - checks > MAX_LOG)
    return [PlayError.TooManyMoves, `a game holds at most ${MAX_LOG} moves; start a new one`];
  if (row.hints + hints > MAX_HINTS) return [PlayError.TooManyHints, `a game allows at most ${MAX_HINTS} hints`];
  if (row.checks + checks > MAX_CHECKS)
    return [PlayError.TooManyChecks, `a game allows at most ${MAX_CHECKS} "can this still be won?" questions`];
  if (row.shuffles + countOf(batch, 'shuffle') > MAX_SHUFFLES)
    return [PlayError.TooManyShuffles, `a game allows at most ${MAX_SHUFFLES} shuffles; undo instead`];
  return null;
}

const WRITE_TRIES = 3;

export function createGames(fastify: FastifyInstance, now: () => number, gamesPerDay: number | false = GAMES_PER_DAY) {
  const repo = fastify.gamesStore;
  const cache = gameStates();
  fastify.caches.push(cache.cache);
  const shuffleBudget = new WindowBudget('shuffles', SHUFFLES_PER_MINUTE, 60_000, fastify.counters); // by player

  /** The state after a stored game's log; throws if it does not replay (our bug). */
  function stateOf(row: GameRow, stored: StoredDeal): Game {
    const cached = cache.get(row.id, row.move_count);
    if (cached) return cached;
    const boards = row.boards === '' ? undefined : parseBoards(row.boards, stored.deal.tiles.length);
    if (boards && !boards.ok) throw new Error(`stored game ${row.id} has broken boards: ${boards.message}`);
    const result = replay(stored.deal, JSON.parse(row.moves_json) as Move[], boards?.value);
    if (!result.ok) throw new Error(`stored game ${row.id} does not replay: ${result.message}`);
    const game = { ...result.value, hints: row.hints };
    cache.set(row.id, game, row.move_count, stored);
    return game;
  }

  /**
   * The moves of a batch from `at` the server has not stored yet; a repeat's answer (as the first time, with the
   * server's log when it has moves past this batch); or a refusal (a gap, or another tab's moves).
   */
  function unstored(
    row: GameRow,
    stored: StoredDeal,
    storedLog: readonly Move[],
    moves: readonly Move[],
    at: number | undefined,
    refuse: (code: ErrorCode, message: string) => PlayFailure,
  ): readonly Move[] | Played | PlayFailure {
    if (at === undefined) return moves;
    if (at > row.move_count)
      return refuse(
        PlayError.Gap,
        `the server has ${row.move_count} moves of this game, not ${at}: send from move ${row.move_count}`,
      );
    const span = row.move_count - at;
    const overlap = Math.min(span, moves.length);
    if (overlap > 0 && !isRepeat(storedLog, moves.slice(0, overlap), span, at))
      return refuse(
        PlayError.Conflict,
        'this game was played on in another tab or window; here is the position the server has',
      );
    if (overlap < moves.length) return moves.slice(overlap);
    const game = stateOf(row, stored);
    const log = span > moves.length ? clientLog({ log: storedLog }, row.move_count, row) : undefined;
    return { ok: true, row, game, moves: row.move_count, status: statusOf(game), finishedAt: row.finished_at, log };
  }

  /** Charges a batch's shuffles to the client's CPU budget, then to the player's shuffles a minute; a refusal. */
  async function chargeShuffles(playerId: string, client: string | undefined, costMs: number, shuffles: number) {
    // The CPU budget first: its refusal spends nothing.
    const refused = client === undefined ? undefined : await fastify.cpuBudget.charge(client, costMs, 'shuffle');
    if (refused) return refused;
    const wait = await shuffleBudget.take(playerId, shuffles);
    if (wait === undefined) return undefined;
    return {
      ok: false,
      code: PlayError.RateLimited,
      retryAfterS: wait,
      message: `at most ${SHUFFLES_PER_MINUTE} shuffles a minute; try again in ${wait} s`,
    } satisfies PlayFailure;
  }

  /**
   * Stores a checked batch by a write conditional on the row's `move_count`: the answer, the client's growth
   * refusal, or null when another write came first.
   */
  async function save(
    row: GameRow,
    stored: StoredDeal,
    storedLog: readonly Move[],
    batch: readonly Move[],
    next: Game,
    playMs: number | undefined,
    client: string | undefined,
  ): Promise<Played | PlayFailure | null> {
    const game: Game = { ...next, log: next.log.filter(isBoardMove) };
    const status = statusOf(game);
    const time = now();
    const count = row.move_count + batch.length;
    const checks = batch.filter((m) => m.type === 'check');
    // "First": no pair came before, so moves sent ahead of one cannot lift the pace cap.
    const first = !storedLog.some((m) => m.type === 'match');
    const { pacedAt, unranked } = paceAfter(row, batch, time, first);
    const rank =
      status === 'won' ? rankWin({ ...row, unranked }, time) : { rankedMs: null, dailyDay: null, onTable: false };
    const movesJson = JSON.stringify(game.log);
    const boards = game.boards.map(makeBoard).join('');
    // What this write adds: the growth of log and boards, and a win's rows.
    const growth =
      textGrowth(movesJson.length + boards.length - row.moves_json.length - row.boards.length) +
      (status === 'won' ? ROW_BYTES.win : 0);
    const refused = client === undefined ? undefined : await fastify.growth.take(client, growth);
    if (refused) return refused;
    const saved = await repo.saveMoves({
      id: row.id,
      expectedCount: row.move_count,
      movesJson,
      boards,
      moveCount: count,
      status,
      tilesLeft: game.left,
      hints: game.hints,
      checks: row.checks + checks.length,
      checksNo: row.checks_no + checks.filter((m) => m.heard === 'no').length,
      shuffles: game.shuffles,
      undos: game.undos,
      now: time,
      won: status === 'won',
      pacedAt,
      unranked,
      ...rank,
      playMs: playMs ?? null,
    });
    if (!saved) return null;
    cache.set(row.id, game, count, stored);
    if (status === 'won') {
      fastify.firstShown.changed(row.deal_id);
      fastify.metrics.gameWon(stored.deal.mode);
    }
    const after: GameRow = {
      ...row,
      paced_at: pacedAt,
      unranked,
      ranked_ms: rank.rankedMs,
      daily: rank.onTable ? 1 : 0,
      play_ms: playMs === undefined ? row.play_ms : Math.max(row.play_ms ?? 0, playMs),
    };
    return { ok: true, row: after, game, moves: count, status, finishedAt: status === 'won' ? time : null };
  }

  return {
    /** Starts a game of a stored deal; `client` pays its growth, `stamped` proves a first view. */
    async create(
      playerId: string,
      stored: StoredDeal,
      { client, stamped, fresh }: { client?: string; stamped?: number; fresh?: boolean } = {},
    ): Promise<{ id: string; startedAt: number; shownAt: number } | PlayFailure> {
      const start = newGame(stored.deal);
      if (!start.ok) throw new Error(`stored deal ${stored.id} is not playable: ${start.message}`);
      // An untouched game of this deal is answered again: a lost answer makes no second, empty game.
      const untouched = fresh ? undefined : await repo.unfinishedOfDeal(playerId, stored.id);
      if (untouched && untouched.move_count === 0)
        return { id: untouched.id, startedAt: untouched.started_at, shownAt: untouched.shown_at };
      const startedAt = now();
      const midnight = startedAt - (startedAt % 86_400_000); // UTC
      if (gamesPerDay !== false && (await repo.countStartedSince(playerId, midnight)) >= gamesPerDay)
        return {
          ok: false,
          code: PlayError.RateLimited,
          retryAfterS: Math.ceil((midnight + 86_400_000 - startedAt) / 1000),
          message: `at most ${gamesPerDay} new games a day; finish one you started, or come back tomorrow (UTC)`,
        };
      const refused = client === undefined ? undefined : await fastify.growth.take(client, ROW_BYTES.game);
      if (refused) return refused;
      const id = makeGameId();
      // An API client is shown the deal now; a browser was at its page.
      const shownAt =
        client === undefined
          ? await repo.recordFirstShown(playerId, stored.id, startedAt)
          : await fastify.firstShown.show(playerId, client, stored, startedAt, stamped);
      await repo.create({
        id,
        playerId,
        dealId: stored.id,
        layout: stored.deal.layout,
        band: gameBand(stored.deal),
        status: statusOf(start.value),
        tilesLeft: start.value.left,
        now: startedAt,
        shownAt,
        pacedAt: paceStart(shownAt),
      });
      cache.set(id, start.value, 0, stored);
      fastify.metrics.gameStarted(stored.deal.mode);
      return { id, startedAt, shownAt };
    },

    /** Checks a batch of moves by replay and stores it, all or nothing; `at` is where it starts. */
    async play(
      playerId: string,
      gameId: string,
      moves: readonly Move[],
      at?: number,
      playMs?: number, // the page's own clock (docs/fair-play.md)
      client?: string, // pays the growth (none: free)
    ): Promise<Played | PlayFailure> {
      let charged = false; // shuffles are paid once, whatever the write races
      for (let attempt = 1; ; attempt++) {
        const row = await ownGameRow(repo, playerId, gameId);
        if ('ok' in row) return row;
        const stored = await fastify.dealer.byId(row.deal_id);
        if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
        const storedLog = JSON.parse(row.moves_json) as Move[];
        const refuse = (code: ErrorCode, message: string, extra: { index?: number } = {}): PlayFailure => ({
          ok: false,
          code,
          message,
          ...extra,
          moves: row.move_count,
          log: clientLog({ log: storedLog }, row.move_count, row),
        });
        const batch = unstored(row, stored, storedLog, moves, at, refuse);
        if (!Array.isArray(batch)) return batch as Played | PlayFailure;
        if (row.result !== null) return refuse(PlayError.Finished, 'this game is finished; start a new one');
        const limit = overLimit(row, batch);
        if (limit) return refuse(...limit);
        const shuffles = countOf(batch, 'shuffle');
        if (shuffles > 0 && !charged) {
          const refused = await chargeShuffles(
            playerId,
            client,
            shuffles * shuffleCostMs(stored.deal.tiles.length),
            shuffles,
          );
          if (refused) return refused;
          charged = true;
        }
        const next = applyMoves(stateOf(row, stored), batch);
        if (!next.ok)
          return refuse(isErrorCode(next.error.code) ? next.error.code : 'ERR_BAD_REQUEST', next.message, {
            index: next.error.index + moves.length - batch.length,
          });
        const saved = await save(row, stored, storedLog, batch, next.value, playMs, client);
        if (saved) return saved;
        cache.delete(row.id);
        // Lost a write race: only a batch with `at` can be checked again against the newer log.
        if (at === undefined || attempt >= WRITE_TRIES) {
          const fresh = (await repo.findById(gameId)) ?? row;
          return {
            ok: false,
            code: PlayError.Conflict,
            message: 'this game changed in another window; here is the position the server has',
            moves: fresh.move_count,
            log: clientLog({ log: JSON.parse(fresh.moves_json) as Move[] }, fresh.move_count, fresh),
          };
        }
      }
    },

    /**
     * Play on from move `k` (docs/coach.md, "Play on from the mistake"): a new, never ranked game of the same
     * deal starting from the first `k` stored moves. `open`: the replay is public, so anyone may.
     */
    async playOn(
      playerId: string,
      gameId: string,
      k: number,
      { client, open = false }: { client?: string; open?: boolean } = {},
    ): Promise<{ id: string; layout: string; seed: string; mode: string } | PlayFailure> {
      const row = await ownGameRow(repo, playerId, gameId, open);
      if ('ok' in row) return row;
      const stored = await fastify.dealer.byId(row.deal_id);
      if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
      const storedLog = JSON.parse(row.moves_json) as Move[];
      if (k > storedLog.length)
        return {
          ok: false,
          code: PlayError.Gap,
          message: `the server has ${storedLog.length} moves of this game, not ${k}: play on from one of those`,
        };
      const prefix = storedLog.slice(0, k);
      const known = row.boards === '' ? undefined : parseBoards(row.boards, stored.deal.tiles.length);
      if (known && !known.ok) throw new Error(`stored game ${row.id} has broken boards: ${known.message}`);
      const replayed = replay(stored.deal, prefix, known?.value);
      if (!replayed.ok) throw new Error(`stored game ${row.id} does not replay: ${replayed.message}`);
      const game = replayed.value;
      const status = statusOf(game);
      if (status === 'won')
        return { ok: false, code: PlayError.Finished, message: `the board is clear after move ${k}: nothing to play` };
      const created = await this.create(playerId, stored, { client, fresh: true });
      if ('ok' in created) return created;
      const movesJson = JSON.stringify(prefix);
      const boards = game.boards.map(makeBoard).join('');
      const refused =
        client === undefined
          ? undefined
          : await fastify.growth.take(client, textGrowth(movesJson.length + boards.length));
      if (refused) return refused;
      const time = now();
      const saved = await repo.saveMoves({
        id: created.id,
        expectedCount: 0,
        movesJson,
        boards,
        moveCount: k,
        status,
        tilesLeft: game.left,
        hints: 0,
        checks: 0,
        checksNo: 0,
        shuffles: game.shuffles,
        undos: game.undos,
        now: time,
        won: false,
        pacedAt: time,
        unranked: 'play-on',
        playOnFrom: k,
        rankedMs: null,
        dailyDay: null,
        onTable: false,
        playMs: 0,
      });
      if (!saved) throw new Error(`game ${created.id}, made a moment ago, was written by another`);
      cache.set(created.id, { ...game, hints: 0 }, k, stored);
      return { id: created.id, layout: stored.deal.layout, seed: stored.deal.seed, mode: stored.deal.mode };
    },

    /** A game of the player's by its id, replayed, if there is one. */
    async mine(
      playerId: string,
      gameId: string,
    ): Promise<{ row: GameRow; game: Game; stored: StoredDeal } | undefined> {
      const row = await repo.findById(gameId);
      if (!row || row.player_id !== playerId) return undefined;
      const stored = await fastify.dealer.byId(row.deal_id);
      if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
      return { row, game: stateOf(row, stored), stored };
    },

    /** The player's unfinished game of a deal, replayed, if there is one. */
    async unfinished(playerId: string, stored: StoredDeal): Promise<{ row: GameRow; game: Game } | undefined> {
      const row = await repo.unfinishedOfDeal(playerId, stored.id);
      return row ? { row, game: stateOf(row, stored) } : undefined;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance, opts: { now?: () => number; gamesPerDay?: number | false }) => {
    fastify.decorate('games', createGames(fastify, opts.now ?? Date.now, opts.gamesPerDay));
  },
  { name: 'games', dependencies: ['stores', 'dealer', 'counters', 'growth', 'first-shown', 'metrics', 'cpu-budget'] },
);
