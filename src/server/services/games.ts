/**
 * Playing games on the server: create, replay, verify, store (docs/contracts.md, "JSON API" and "Moves").
 *
 * Implementation notes: the stored move log is the only truth. A move batch is
 * checked by replaying it with the engine on the game's current state, which
 * comes from a small cache keyed by game id and checked against the stored
 * `move_count`, or else from a replay of the stored log, which takes the stored boards of its
 * shuffles instead of searching for them again (`boards`). Nothing is
 * stored unless every move in the batch is legal. The write is conditional on
 * `move_count` (another tab may have written first) and finishes the game, with
 * the server's clock, in the same statement when the board is clear.
 *
 * Hints are counted, not logged: a hint changes nothing on the board, and hint
 * spam grew logs by megabytes a minute. The stored log holds every other accepted move; `hints`
 * counts the hints; `move_count` counts every accepted move, hints included (the client's sync
 * makes batches idempotent by it), so it is the log's length plus the hints of this era. A player
 * starts at most GAMES_PER_DAY games a UTC day.
 *
 * "Can this still be won?" travels the same way: the solver answers it in the browser, and the
 * client queues `{"type":"check","heard":"yes"|"no"|"unknown"}` with its moves, so a question asked
 * offline arrives with them and a repeated batch counts it once. A check is counted (`checks`, and
 * `checks_no` for a "no") and not logged, like a hint; what the player heard is the client's word, used
 * by `mahjong report` only: a check changes no board, result, time or rank (the pace rule counts pairs).
 *
 * Batches may say where they start (`at`: how many moves the sender believes the server has). Then
 * a batch is idempotent by move count: moves the server already has are compared with its log and
 * skipped, so a batch that arrives twice, or after a newer one (a retry whose answer was lost, the
 * page's last send on leaving), changes nothing; a batch whose moves differ from the stored ones is a
 * real conflict (another tab played this game), answered 409 with the server's log; a batch that
 * starts past the stored log is 409 `ERR_MOVE_GAP` with the count to resend from. The stored log has
 * no hints, so the comparison is of the other moves: the server's moves after `at` are the last ones
 * it stored, and a repeat has the same ones. A write that loses the race against another write of the
 * same game is read and checked again.
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
import type { GameAnswer } from '../../shared/api.ts';
import { isErrorCode, type ErrorCode, type Refusal } from '../errors.ts';
import type { GameRow, GamesStore } from '../stores/types.ts';
import type { StoredDeal } from './dealer.ts';
import { paceAfter, paceStart, rankWin } from './fair-play.ts';
import { ROW_BYTES, textGrowth } from './growth.ts';
import { WindowBudget } from './limits.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, dealBytes, gameBytes } from '../utils/sizes.ts';
import { isCustomId } from './upload.ts';

declare module 'fastify' {
  interface FastifyInstance {
    games: ReturnType<typeof createGames>;
  }
}

export const MAX_LOG = 5000; // moves in one game's stored log (hints are not in it); a real game needs a few hundred at most
export const MAX_HINTS = 500; // hints in one game; a person asks for a few dozen at most
export const MAX_CHECKS = 500; // "can this still be won?" questions in one game; a person asks a few times
export const GAMES_PER_DAY = 500; // games one player may start in a UTC day; a person plays a few dozen
/**
 * Custom layouts smaller than this have no calibrated bands: a small board deals "hard" and "expert" deals a person
 * clears in seconds, so a game of one begins under no band and its win earns no band achievement (docs/server.md,
 * "Achievements"). The built-in layouts are calibrated (docs/study.md, "Measured difficulty").
 */
export const CALIBRATED_MIN_TILES = 72;

/** The band a new game of `deal` counts under: its deal's, where the layout's bands are calibrated. */
export const gameBand = (deal: Deal): Band | null =>
  isCustomId(deal.layout) && deal.tiles.length < CALIBRATED_MIN_TILES ? null : deal.difficulty.band;

export const MAX_SHUFFLES = 100; // shuffles in one game
/** New shuffles one player may play a minute: each searches for a removal order (~0.4 ms on the turtle). */
export const SHUFFLES_PER_MINUTE = 60;
/**
 * A shuffle's search as the CPU budget counts it: measured 0.1–0.3 ms on the turtle and 0.8–1.3 ms on a
 * 1,000-tile layout (warm), so an estimate above both (docs/operations.md, "CPU budgets").
 */
export const SHUFFLE_COST = { baseMs: 0.5, perTileMs: 0.0015 } as const;
/** The estimated cost of one shuffle of a deal of `tiles` tiles, in ms. */
export const shuffleCostMs = (tiles: number): number => SHUFFLE_COST.baseMs + tiles * SHUFFLE_COST.perTileMs;

/** Codes of the games service's refusals besides the engine's MoveError codes (docs/server.md). */
export const PlayError = {
  NotFound: 'ERR_GAME_NOT_FOUND',
  Forbidden: 'ERR_NOT_YOUR_GAME',
  Finished: 'ERR_GAME_FINISHED',
  Conflict: 'ERR_CONFLICT', // the stored log differs from the batch's view of it
  Gap: 'ERR_MOVE_GAP', // the batch starts past the stored log
  TooManyMoves: 'ERR_TOO_MANY_MOVES',
  TooManyHints: 'ERR_TOO_MANY_HINTS',
  TooManyChecks: 'ERR_TOO_MANY_CHECKS',
  TooManyShuffles: 'ERR_TOO_MANY_SHUFFLES',
  RateLimited: 'ERR_RATE_LIMITED',
} as const satisfies Record<string, ErrorCode>;

/** A refused batch or game (its code a PlayError, or the engine's MoveError code for an illegal move). */
export interface PlayFailure extends Refusal {
  readonly index?: number; // position in the batch of the first illegal move
  readonly moves?: number; // 409: how many moves the server has of this game, hints included
  readonly log?: readonly Move[]; // 409: the server's log as a client replays it (clientLog)
}

/** A game's row for its own player (for anyone when `open`): else the refusal, 404 unknown or 403 another's. */
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

export interface Played {
  readonly ok: true;
  readonly row: GameRow; // as read before this batch, with its rank fields (unranked, ranked_ms, daily) after it
  readonly game: Game; // after this batch
  readonly moves: number; // moves accepted in the game so far, hints included (move_count)
  readonly status: Status;
  readonly finishedAt: number | null; // ms epoch when the game was won (by this batch or, for a repeat, before)
  readonly log?: readonly Move[]; // a repeat from further back: the server's log, which goes past it
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
    moves, // every accepted move, hints included
    startedAt: row.started_at,
    shownAt: row.shown_at, // the game's time runs from here: the player's first view of the deal
    finishedAt,
    timeMs: finishedAt === null ? null : finishedAt - row.shown_at, // server clock
    playMs: row.play_ms, // the player's own time as their page last sent it (null: never sent)
    ranked: finishedAt === null ? null : row.ranked_ms !== null, // a win whose time may stand on tables (docs/fair-play.md)
    unranked: row.unranked, // why it may not: 'fast', 'legacy' or 'play-on'; null while it may
  };
}

const HINT: Move = { type: 'hint' };
const CHECK_YES: Move = { type: 'check', heard: 'yes' };
const CHECK_NO: Move = { type: 'check', heard: 'no' };

/**
 * The log a client replays: the stored log and then the game's checks and hints that are not in it
 * (both are counted, not logged; neither changes anything on the board, so the position and counters
 * are the same), so its length is the game's accepted-move count, `moves` (move_count). `checks`: the
 * game's counts of checks and of "no" answers (GameRow.checks, checks_no).
 */
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

/** A player's unfinished game as its page's script takes it (`GameData`, view-models/board.ts `dealData`). */
export function clientGame({ game, row }: { readonly game: Pick<Game, 'log'>; readonly row: GameRow }) {
  return {
    id: row.id,
    log: clientLog(game, row.move_count, row),
    startedAt: row.started_at,
    status: row.status,
    playMs: row.play_ms,
  };
}

export const makeGameId = (): string => randomBytes(12).toString('base64url');

const countOf = (moves: readonly Move[], type: Move['type']): number => moves.filter((m) => m.type === type).length;

/**
 * Whether `overlap` (a batch's first moves, from `at`) repeats moves the server has: `span` moves from
 * `at` on, whose non-hint moves end the stored log (hints are not logged). When the batch covers all
 * of them they line up at the end; a batch from further back (newer ones came since) begins somewhere
 * the counts bound, and must match there.
 */
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

const WRITE_TRIES = 3; // a batch that loses a write race is checked again against the newer log

interface CachedState {
  readonly game: Game;
  readonly count: number; // the game's move_count the state is after
  readonly stored: StoredDeal; // its deal: counted once for all the states that keep it
}

/**
 * Game states after their stored logs, bounded by bytes: each state counts its own bytes, and
 * each deal the states keep alive (its parsed tiles and geometry) counts once while any state holds it.
 */
export function gameStates(maxBytes: number = CACHE_BUDGETS.games) {
  const deals = new Map<StoredDeal, number>(); // deal → states holding it
  const bytesOf = (stored: StoredDeal): number => dealBytes(stored.json, stored.deal.tiles.length);
  const release = (stored: StoredDeal): void => {
    const left = (deals.get(stored) ?? 1) - 1;
    if (left > 0) return void deals.set(stored, left);
    deals.delete(stored);
    states.account(-bytesOf(stored));
  };
  const states: ByteLru<string, CachedState> = new ByteLru('game states', maxBytes, (_id, state) =>
    release(state.stored),
  );
  return {
    cache: states,
    get(id: string, count: number): Game | undefined {
      const state = states.get(id);
      return state && state.count === count ? state.game : undefined;
    },
    set(id: string, game: Game, count: number, stored: StoredDeal): void {
      states.delete(id);
      const bytes = gameBytes(game);
      if (bytes > maxBytes) return; // too big to keep at all (never at the caps: about 2 MB at most)
      const holders = deals.get(stored) ?? 0;
      deals.set(stored, holders + 1);
      if (holders === 0) states.account(bytesOf(stored));
      states.set(id, { game, count, stored }, bytes);
    },
    delete(id: string): void {
      states.delete(id);
    },
  };
}

export function createGames(fastify: FastifyInstance, now: () => number, gamesPerDay: number | false = GAMES_PER_DAY) {
  const repo = fastify.gamesStore;
  const cache = gameStates(); // game id → state after its stored log, and its move_count
  fastify.caches.push(cache.cache);
  const shuffleBudget = new WindowBudget('shuffles', SHUFFLES_PER_MINUTE, 60_000, fastify.counters); // by player

  /** The state after a stored game's log. Throws if the stored log does not replay: that is our bug. */
  function stateOf(row: GameRow, stored: StoredDeal): Game {
    const cached = cache.get(row.id, row.move_count);
    if (cached) return cached;
    const boards = row.boards === '' ? undefined : parseBoards(row.boards, stored.deal.tiles.length);
    if (boards && !boards.ok) throw new Error(`stored game ${row.id} has broken boards: ${boards.message}`);
    const result = replay(stored.deal, JSON.parse(row.moves_json) as Move[], boards?.value);
    if (!result.ok) throw new Error(`stored game ${row.id} does not replay: ${result.message}`);
    const game = { ...result.value, hints: row.hints }; // hints are counted, not logged
    cache.set(row.id, game, row.move_count, stored);
    return game;
  }

  return {
    /**
     * Starts a game of a stored deal for a player. `client` (a clientKey) pays the rows from its day of
     * growth (services/growth.ts; none: free), `stamped` is a first view proved by a stamp (services/first-shown.ts).
     */
    async create(
      playerId: string,
      stored: StoredDeal,
      { client, stamped, fresh }: { client?: string; stamped?: number; fresh?: boolean } = {},
    ): Promise<{ id: string; startedAt: number; shownAt: number } | PlayFailure> {
      const start = newGame(stored.deal);
      if (!start.ok) throw new Error(`stored deal ${stored.id} is not playable: ${start.message}`);
      // A game of this deal the player started and never moved in is the same fresh game: it is answered again,
      // so a client whose first answer was lost (a network drop after the server made the game) and asks again
      // gets no second, empty game in its history.
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
      // An API client is shown the deal now, a browser at its page (recorded then, or proved by its stamp).
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

    /**
     * Checks a batch of moves by replay and stores it; nothing is stored when any move is illegal.
     * `at`, when given, is where the batch starts in the game's moves (see the module notes).
     */
    async play(
      playerId: string,
      gameId: string,
      moves: readonly Move[],
      at?: number,
      playMs?: number, // the page's own clock after these moves (the player's own time; docs/fair-play.md)
      client?: string, // a clientKey: pays the log's growth from its day of growth (none: free)
    ): Promise<Played | PlayFailure> {
      let charged = false; // the batch's shuffles are paid for once, whatever the write races
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

        let batch = moves;
        if (at !== undefined) {
          if (at > row.move_count)
            return refuse(
              PlayError.Gap,
              `the server has ${row.move_count} moves of this game, not ${at}: send from move ${row.move_count}`,
            );
          const span = row.move_count - at; // how many moves the server has from `at` on
          const overlap = Math.min(span, moves.length);
          if (overlap > 0) {
            if (!isRepeat(storedLog, moves.slice(0, overlap), span, at))
              return refuse(
                PlayError.Conflict,
                'this game was played on in another tab or window; here is the position the server has',
              );
            batch = moves.slice(overlap);
          }
          if (batch.length === 0) {
            // Every move is stored already: a repeat. Answer as the first time, whatever happened since,
            // with the server's log when it has moves past this batch (the sender may not know them).
            const game = stateOf(row, stored);
            const log = span > moves.length ? clientLog({ log: storedLog }, row.move_count, row) : undefined;
            return {
              ok: true,
              row,
              game,
              moves: row.move_count,
              status: statusOf(game),
              finishedAt: row.finished_at,
              log,
            };
          }
        }
        const skipped = moves.length - batch.length;
        if (row.result !== null) return refuse(PlayError.Finished, 'this game is finished; start a new one');
        const checks = batch.filter((m) => m.type === 'check');
        const unlogged = row.hints + row.checks;
        if (row.move_count - unlogged + batch.length - countOf(batch, 'hint') - checks.length > MAX_LOG)
          return refuse(PlayError.TooManyMoves, `a game holds at most ${MAX_LOG} moves; start a new one`);
        if (row.hints + countOf(batch, 'hint') > MAX_HINTS)
          return refuse(PlayError.TooManyHints, `a game allows at most ${MAX_HINTS} hints`);
        if (row.checks + checks.length > MAX_CHECKS)
          return refuse(
            PlayError.TooManyChecks,
            `a game allows at most ${MAX_CHECKS} "can this still be won?" questions`,
          );
        if (row.shuffles + countOf(batch, 'shuffle') > MAX_SHUFFLES)
          return refuse(PlayError.TooManyShuffles, `a game allows at most ${MAX_SHUFFLES} shuffles; undo instead`);
        // Shuffles cost a search each: a budget per player, beside the per-request bound (schemas/games.ts), and
        // the client's CPU budget; both before the replay and the searches, so a refused batch costs nothing.
        // Hints and checks cost the server no search (counted only).
        const shuffles = countOf(batch, 'shuffle');
        if (shuffles > 0 && !charged) {
          // The CPU budget first: its refusal spends nothing, so a client that waits it out keeps its shuffles.
          const cost = shuffles * shuffleCostMs(stored.deal.tiles.length);
          const refused = client === undefined ? undefined : await fastify.cpuBudget.charge(client, cost, 'shuffle');
          if (refused) return refused;
          const wait = await shuffleBudget.take(playerId, shuffles);
          if (wait !== undefined)
            return {
              ok: false,
              code: PlayError.RateLimited,
              retryAfterS: wait,
              message: `at most ${SHUFFLES_PER_MINUTE} shuffles a minute; try again in ${wait} s`,
            };
          charged = true;
        }
        const next = applyMoves(stateOf(row, stored), batch);
        if (!next.ok)
          return refuse(isErrorCode(next.error.code) ? next.error.code : 'ERR_BAD_REQUEST', next.message, {
            index: next.error.index + skipped,
          });
        // Hints are counted, not kept (older logs may hold some: they go as the log is rewritten).
        const game: Game = { ...next.value, log: next.value.log.filter(isBoardMove) };
        const status = statusOf(game);
        const time = now();
        const count = row.move_count + batch.length;
        // The pace rule and, on a win, its rank (services/fair-play.ts).
        // "First": no pair came before, so a batch of checks, hints or shuffles sent ahead cannot lift the cap.
        const first = !storedLog.some((m) => m.type === 'match');
        const { pacedAt, unranked } = paceAfter(row, batch, time, first);
        const rank =
          status === 'won' ? rankWin({ ...row, unranked }, time) : { rankedMs: null, dailyDay: null, onTable: false };
        const movesJson = JSON.stringify(game.log);
        const boards = game.boards.map(makeBoard).join('');
        // What this write adds: the log and boards grow (a rewritten row's size is its new length), and a win's rows.
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
        if (saved) {
          cache.set(row.id, game, count, stored);
          if (status === 'won') {
            fastify.firstShown.changed(row.deal_id); // its record has a winner more
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
        cache.delete(row.id);
        // Someone wrote this game between our read and our write. A batch that says where it starts can
        // be checked again against the newer log; one that does not cannot know what it would overwrite.
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
     * Play on from move `k` (docs/coach.md, "Play on from the mistake"): a new game of the same deal for
     * `playerId` whose log is the first `k` moves of game `gameId`'s stored log (hints and checks are not in it),
     * replayed and checked here. Its clock starts at zero, and it is never ranked: its first moves reached the
     * server at once, so it carries a mark of its own ('play-on', with k). `open`: anyone may play on from a game
     * whose replay is public (the caller checked the token); otherwise only the game's own player.
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
        unranked: 'play-on', // never ranked: its first k moves were played in another game
        playOnFrom: k,
        rankedMs: null,
        dailyDay: null,
        onTable: false,
        playMs: 0, // its own clock, from zero
      });
      if (!saved) throw new Error(`game ${created.id}, made a moment ago, was written by another`);
      cache.set(created.id, { ...game, hints: 0 }, k, stored);
      return { id: created.id, layout: stored.deal.layout, seed: stored.deal.seed, mode: stored.deal.mode };
    },

    /** A game of the player's by its id, replayed (a race's game: services/races.ts), if there is one. */
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
