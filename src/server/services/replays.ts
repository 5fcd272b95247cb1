/**
 * Shared replays (docs/server.md, "Replays"): a game's own player makes a link, and whoever has it
 * watches the game move by move, shown nothing else about the player.
 *
 * Implementation notes: a link's token is 16 bytes of the crypto RNG (base64url, 22 characters), stored with
 * its game (one per game: asked again, the same link), so it says nothing of the game's id and cannot be
 * guessed from it. The page replays the stored log (shuffle boards included) with the engine, as the moves
 * API does. Where the win was lost comes from the engine's review of the log (reviewLog: solver work, up to a
 * second on a long game with many undos), made where classic deals are made (the deal workers), never on the
 * event loop. A review is made once per game state (a game and its log's length: a log only grows): a finished
 * game's when its player asks for the link (its log never changes), kept with its replay row (paid from the
 * player's day of growth); any other is kept in memory by game and log length, so a view of a replay writes
 * nothing (a visitor without a cookie costs reads only) and a repeated view costs nothing. A review to make is
 * charged to the asking client's CPU budget first (services/costs.ts) and counts in its worker tasks
 * (MAX_QUEUED_PER_CLIENT); past either the page is refused (429). A view that finds the workers busy shows the
 * replay without it.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import {
  explainLoss,
  parseBoards,
  replay,
  type Game,
  type Move,
  type Reason,
  type Review,
} from '../../engine/index.ts';
import type { LossWords } from '../../shared/coach.ts';
import type { Refusal } from '../errors.ts';
import type { GameRow, ReplayRow } from '../stores/types.ts';
import type { StoredDeal } from './dealer.ts';
import { ownGameRow } from './games.ts';
import { reviewGrowth, ROW_BYTES } from './growth.ts';
import { reviewCostMs } from './costs.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, HEAP, keyedRecordBytes } from '../utils/sizes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    replays: ReturnType<typeof createReplays>;
  }
}

/** What a replay token looks like: 16 random bytes in base64url. Anything else is no replay. */
export const REPLAY_TOKEN = /^[A-Za-z0-9_-]{22}$/;
export const makeReplayToken = (): string => randomBytes(16).toString('base64url');

/** A replay opened: the game as the server has it, its deal, and its log replayed to move `k`. */
export interface OpenReplay {
  readonly replay: ReplayRow;
  readonly row: GameRow;
  readonly stored: StoredDeal;
  readonly log: readonly Move[]; // the stored log (moves the server has; hints and checks are counted, not logged)
  readonly boards: string; // the shuffles' boards, as stored (the script replays with them)
}

/** A game as the server keeps it, enough to replay it: its row, its deal, its stored log and shuffles' boards. */
export type StoredGame = Pick<OpenReplay, 'row' | 'stored' | 'log' | 'boards'>;

/** Why a game's win was lost (docs/coach.md): its first lost position and the reason of the match into it. */
export interface Loss {
  readonly at: number; // the first lost position: the board after the losing match (move `at`)
  readonly reason: Reason;
  readonly tiles: readonly number[]; // the reason's tiles
  readonly words: LossWords; // for the reason's text (shared/coach.ts)
}

/** How long a list of games waits for the reviews of its lost games (made once, then kept): past it, it goes without. */
export const LOSS_WAIT_MS = 1500;

/** A game of a list (the stats' history), enough to tell whether it may have been lost. */
export interface ListedGame {
  readonly id: string;
  readonly result: 'won' | null;
  readonly moves: number;
}

/** Heap bytes of a review kept in memory: its spans and fields. */
const reviewBytes = (review: Review): number => HEAP.object * (2 + review.lost.length);

export function createReplays(fastify: FastifyInstance, now: () => number) {
  const store = fastify.replaysStore;
  // Reviews not kept in a replay row, by game id and log length (move_count also counts hints, which change nothing).
  const reviews = new ByteLru<string, Review>('replay reviews', CACHE_BUDGETS.reviews);
  fastify.caches.push(reviews);
  const pending = new Map<string, Promise<Review | null | Refusal>>(); // one review of a game state at a time
  // Losses explained (lossAt), with the review kept in memory they came from: they go when it goes.
  const explained = new WeakMap<Review, Loss | null>();

  /**
   * The review of a game's stored log: kept in memory, being made, or made now in a deal worker (charged to
   * `client` first, and kept in memory); null when the workers are busy or stopping; a refusal past the
   * client's CPU budget or worker tasks.
   */
  function makeReview(row: GameRow, stored: StoredDeal, client: string): Promise<Review | null | Refusal> {
    const log = JSON.parse(row.moves_json) as unknown[];
    const key = `${row.id} ${log.length}`;
    const cached = reviews.get(key);
    if (cached) return Promise.resolve(cached);
    let job = pending.get(key);
    if (!job) {
      job = (async (): Promise<Review | null | Refusal> => {
        const cost = reviewCostMs(stored.deal.tiles.length, log.length);
        const refused = await fastify.cpuBudget.charge(client, cost, 'review', 'worker');
        if (refused) return refused;
        const made = await fastify.dealer.review(
          { kind: 'review', dealJson: stored.json, movesJson: row.moves_json, boards: row.boards },
          client,
        );
        if ('code' in made) return made;
        if (made.ok) {
          reviews.set(key, made.review, keyedRecordBytes(key, reviewBytes(made.review)));
          return made.review;
        }
        if (made.error === 'broken') throw new Error(`stored game ${row.id}: ${made.message}`);
        fastify.log.warn({ game: row.id, error: made.error }, 'no review of a replay: the workers are busy');
        return null;
      })().finally(() => pending.delete(key));
      pending.set(key, job);
    }
    return job;
  }

  /** The game after its first `k` moves. Throws when the stored log does not replay: that is our bug. */
  function positionAt(open: StoredGame, k: number): Game {
    const known = open.boards === '' ? undefined : parseBoards(open.boards, open.stored.deal.tiles.length);
    if (known && !known.ok) throw new Error(`stored game ${open.row.id} has broken boards: ${known.message}`);
    const game = replay(open.stored.deal, open.log.slice(0, k), known?.value);
    if (!game.ok) throw new Error(`stored game ${open.row.id} does not replay: ${game.message}`);
    return game.value;
  }

  /**
   * The losing match into the review's first lost position and why it lost the win (engine explain.ts): one
   * replay of the log to there. Null when the game was not lost (as far as the review settled). Kept with the
   * review it came from, so a list of games explains each loss once.
   */
  function lossAt(open: StoredGame, review: Review): Loss | null {
    const firstLost = review.firstLost;
    if (firstLost === null || firstLost < 1) return null;
    if (explained.has(review)) return explained.get(review)!;
    const after = positionAt(open, firstLost);
    const step = after.past[after.past.length - 1];
    let loss: Loss | null = null;
    if (step?.type === 'match') {
      const before = after.faces.slice();
      before[step.a] = step.faceA;
      before[step.b] = step.faceB;
      const e = explainLoss(after.geom, before, [step.a, step.b]);
      const named = e.named[0];
      loss = {
        at: firstLost,
        reason: e.reason,
        tiles: e.tiles,
        words: {
          reason: e.reason,
          faces: [step.faceA, step.faceB],
          at: firstLost - 1,
          named: named === undefined ? null : (after.faces[named] ?? null),
        },
      };
    }
    explained.set(review, loss);
    return loss;
  }

  /**
   * Why the win of a game was lost, for lists of games (the stats' history): its review (kept in memory,
   * or made now for `client` as the replay page's is) and the losing match's reason. Null when the game was not
   * lost (as far as the review settled), the workers are busy, or the client is past its budget.
   */
  async function lossOf(row: GameRow, client: string): Promise<Loss | null> {
    const stored = await fastify.dealer.byId(row.deal_id);
    if (!stored) return null;
    const review = await makeReview(row, stored, client);
    if (review === null || 'code' in review || review.firstLost === null) return null;
    return lossAt({ row, stored, log: JSON.parse(row.moves_json) as Move[], boards: row.boards }, review);
  }

  return {
    /**
     * The replay link of a game, made on its player's first ask (the same link ever after). `client` (a
     * clientKey) pays the row from its day of growth (services/growth.ts).
     */
    async share(playerId: string, gameId: string, client: string): Promise<{ url: string } | Refusal> {
      const row = await ownGameRow(fastify.gamesStore, playerId, gameId);
      if ('ok' in row) return row;
      const refused = await fastify.growth.take(client, ROW_BYTES.replay);
      if (refused) return refused;
      const token = await store.tokenFor(gameId, makeReplayToken(), now());
      // A finished game's review is made and kept now, by its player's request: views of the link write nothing.
      // It is paid from the player's day of growth (up to ~60 KB); past it, or past the player's CPU budget, the
      // link is made all the same and the review is made by a view (kept in memory).
      if (row.result !== null) {
        const replay = await store.find(token);
        const stored = await fastify.dealer.byId(row.deal_id);
        if (replay && replay.review === null && stored) {
          const made = await makeReview(row, stored, client);
          if (made && !('code' in made)) {
            const json = JSON.stringify(made);
            if (!(await fastify.growth.take(client, reviewGrowth(json.length)))) await store.keepReview(token, json);
          }
        }
      }
      return { url: `/replay/${token}` };
    },

    /** The replay of a token, or undefined when there is none. */
    async open(token: string): Promise<OpenReplay | undefined> {
      if (!REPLAY_TOKEN.test(token)) return undefined;
      const found = await store.find(token);
      if (!found) return undefined;
      const row = await fastify.gamesStore.findById(found.game_id);
      if (!row) throw new Error(`replay ${token} points at a missing game ${found.game_id}`);
      const stored = await fastify.dealer.byId(row.deal_id);
      if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
      return { replay: found, row, stored, log: JSON.parse(row.moves_json) as Move[], boards: row.boards };
    },

    positionAt,
    lossAt,
    lossOf,

    /**
     * Why the win was lost, for a list's lost games (the stats page and `GET /api/stats`, docs/coach.md): stuck
     * ones, and unfinished ones whose player heard "no" (given up after the check). Each is `lossOf` (made once
     * per game state, charged to `client`, kept); the list waits LOSS_WAIT_MS at most, so a long first visit gets
     * some of them and the next the rest. Games without a loss (or not ready) are not in the map.
     */
    async lossesOf(games: readonly ListedGame[], client: string): Promise<Map<string, Loss | null>> {
      const losses = new Map<string, Loss | null>();
      const candidates = games.filter((g) => g.result === null && g.moves > 0);
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, LOSS_WAIT_MS)));
      const work = Promise.all(
        candidates.map(async (g) => {
          try {
            const row = await fastify.gamesStore.findById(g.id);
            if (!row || (row.status !== 'stuck' && row.checks_no === 0)) return;
            losses.set(g.id, await lossOf(row, client));
          } catch (error) {
            fastify.log.error({ game: g.id, err: error }, 'no reason for a lost game of a list'); // the row goes without
          }
        }),
      );
      try {
        await Promise.race([work, late]);
      } finally {
        clearTimeout(timer);
      }
      return new Map(losses); // a copy: work still under way goes on filling the kept reviews, not this list
    },

    /**
     * The review of the game's log (where its win was lost): kept with the replay, in memory, or made now in a
     * deal worker for `client` (a clientKey, charged first; kept in memory); null when the workers are busy or
     * stopping (the page then shows the replay without it); a refusal past the client's budget. Writes nothing.
     */
    async review(open: OpenReplay, client: string): Promise<Review | null | Refusal> {
      if (open.replay.review !== null) return JSON.parse(open.replay.review) as Review;
      return makeReview(open.row, open.stored, client);
    },
  };
}

export default fp(
  async (fastify: FastifyInstance, opts: { now?: () => number }) => {
    fastify.decorate('replays', createReplays(fastify, opts.now ?? Date.now));
  },
  { name: 'replays', dependencies: ['stores', 'dealer', 'growth', 'cpu-budget'] },
);
