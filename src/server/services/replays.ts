/** Shared replays (docs/server.md, "Replays"), with the engine's review of where the win was lost. */
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
import { ownGameRow } from './game-rows.ts';
import { reviewGrowth, ROW_BYTES } from './growth.ts';
import { reviewCostMs } from './costs.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, HEAP, keyedRecordBytes } from '../utils/sizes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    replays: ReturnType<typeof createReplays>;
  }
}

/** A replay token: 16 random bytes in base64url. */
export const REPLAY_TOKEN = /^[A-Za-z0-9_-]{22}$/;
export const makeReplayToken = (): string => randomBytes(16).toString('base64url');

export interface OpenReplay {
  readonly replay: ReplayRow;
  readonly row: GameRow;
  readonly stored: StoredDeal;
  readonly log: readonly Move[];
  readonly boards: string;
}

export type StoredGame = Pick<OpenReplay, 'row' | 'stored' | 'log' | 'boards'>;

/** Why a game's win was lost (docs/coach.md). */
export interface Loss {
  readonly at: number; // the board after the losing match (move `at`)
  readonly reason: Reason;
  readonly tiles: readonly number[];
  readonly words: LossWords;
}

/** How long a list waits for its lost games' reviews; ms. */
export const LOSS_WAIT_MS = 1500;

export interface ListedGame {
  readonly id: string;
  readonly result: 'won' | null;
  readonly moves: number;
}

const reviewBytes = (review: Review): number => HEAP.object * (2 + review.lost.length);

export function createReplays(fastify: FastifyInstance, now: () => number) {
  const store = fastify.replaysStore;
  // By game id and log length.
  const reviews = new ByteLru<string, Review>('replay reviews', CACHE_BUDGETS.reviews);
  fastify.caches.push(reviews);
  const pending = new Map<string, Promise<Review | null | Refusal>>(); // one review of a game state at a time
  // Losses explained, kept as long as their review.
  const explained = new WeakMap<Review, Loss | null>();

  /** A game log's review, made in a worker if need be (charged to `client`); null: workers busy. */
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

  /** The game after its first `k` moves; throws if the stored log does not replay (our bug). */
  function positionAt(open: StoredGame, k: number): Game {
    const known = open.boards === '' ? undefined : parseBoards(open.boards, open.stored.deal.tiles.length);
    if (known && !known.ok) throw new Error(`stored game ${open.row.id} has broken boards: ${known.message}`);
    const game = replay(open.stored.deal, open.log.slice(0, k), known?.value);
    if (!game.ok) throw new Error(`stored game ${open.row.id} does not replay: ${game.message}`);
    return game.value;
  }

  /** Why the match into the review's first lost position lost the win; null when not lost. */
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

  /** Why a game's win was lost; null when not lost, the workers are busy or `client` is past its budget. */
  async function lossOf(row: GameRow, client: string): Promise<Loss | null> {
    const stored = await fastify.dealer.byId(row.deal_id);
    if (!stored) return null;
    const review = await makeReview(row, stored, client);
    if (review === null || 'code' in review || review.firstLost === null) return null;
    return lossAt({ row, stored, log: JSON.parse(row.moves_json) as Move[], boards: row.boards }, review);
  }

  return {
    /** A game's replay link, made on its player's first ask; `client` pays the row. */
    async share(playerId: string, gameId: string, client: string): Promise<{ url: string } | Refusal> {
      const row = await ownGameRow(fastify.gamesStore, playerId, gameId);
      if ('ok' in row) return row;
      const refused = await fastify.growth.take(client, ROW_BYTES.replay);
      if (refused) return refused;
      const token = await store.tokenFor(gameId, makeReplayToken(), now());
      // A finished game's review is kept now, so views write nothing; past a budget a view makes it.
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

    /** Why the win was lost for a list's stuck or given-up games, waiting LOSS_WAIT_MS at most. */
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
            fastify.log.error({ game: g.id, err: error }, 'no reason for a lost game of a list');
          }
        }),
      );
      try {
        await Promise.race([work, late]);
      } finally {
        clearTimeout(timer);
      }
      return new Map(losses); // a copy: late work fills the kept reviews, not this list
    },

    /** The review of the replay's log: kept, or made as `makeReview` does. Writes nothing. */
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
