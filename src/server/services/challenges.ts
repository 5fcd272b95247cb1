/**
 * Challenge links (docs/server.md, "Challenges"): a won game's deal sent with the time to beat (the server's
 * time of the win, as a friend's win answer gives theirs); whoever opens it plays an ordinary verified game.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { z } from 'zod';
import type { Move } from '../../engine/index.ts';
import type { SentChallengeSchema } from '../../shared/answers.ts';
import { CHALLENGE_ID, challengeUrl, leftAlong, type ChallengeOutcome } from '../../shared/challenge.ts';
import type { Refusal } from '../errors.ts';
import type { ChallengeRow, GameRow, SentChallenge } from '../stores/types.ts';
import type { DealKey } from '../schemas/common.ts';
import type { StoredDeal } from './dealer.ts';
import { ownGameRow } from './game-rows.ts';
import { ROW_BYTES } from './growth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    challenges: ReturnType<typeof createChallenges>;
  }
}

export const makeChallengeId = (): string => randomBytes(16).toString('base64url');

/** How many of a player's newest challenges their stats list. */
export const SENT_LIST = 20;

/** A challenge opened. */
export interface OpenChallenge {
  readonly challenge: ChallengeRow;
  readonly row: GameRow; // the sender's game
  readonly stored: StoredDeal;
  readonly nickname: string | null;
  readonly left: readonly number[]; // the ghost: tiles left after each step
}

export type SentChallengeView = z.infer<typeof SentChallengeSchema>;

/** How a challenge ended for its sender; times compare in whole seconds, as the friend's win panel judges. */
export const outcomeOf = (c: Pick<SentChallenge, 'best_ms' | 'time_ms' | 'ended'>): ChallengeOutcome =>
  c.best_ms !== null && Math.floor(c.best_ms / 1000) < Math.floor(c.time_ms / 1000)
    ? 'beaten'
    : c.ended > 0
      ? 'held'
      : 'open';

export function createChallenges(fastify: FastifyInstance, now: () => number) {
  const store = fastify.challengesStore;
  return {
    /** The challenge link of a won game, made on its player's first ask; `client` pays the row. */
    async make(playerId: string, gameId: string, client: string): Promise<{ url: string } | Refusal> {
      const row = await ownGameRow(fastify.gamesStore, playerId, gameId);
      if ('ok' in row) return row;
      if (row.result !== 'won' || row.finished_at === null)
        return {
          ok: false,
          code: 'ERR_NOT_WON',
          message: 'only a won game makes a challenge: it sends the time to beat (is the win still being saved?)',
        };
      const refused = await fastify.growth.take(client, ROW_BYTES.challenge);
      if (refused) return refused;
      const made = await store.challengeFor({
        id: makeChallengeId(),
        gameId,
        playerId,
        timeMs: row.finished_at - row.shown_at,
        now: now(),
      });
      return { url: challengeUrl(made.id) };
    },

    async open(id: string): Promise<OpenChallenge | undefined> {
      if (!CHALLENGE_ID.test(id)) return undefined;
      const challenge = await store.find(id);
      if (!challenge) return undefined;
      const row = await fastify.gamesStore.findById(challenge.game_id);
      if (!row) throw new Error(`challenge ${id} points at a missing game ${challenge.game_id}`);
      const stored = await fastify.dealer.byId(row.deal_id);
      if (!stored) throw new Error(`game ${row.id} points at a missing deal ${row.deal_id}`);
      const sender = await fastify.playersStore.find(challenge.player_id);
      const log = JSON.parse(row.moves_json) as Move[];
      return {
        challenge,
        row,
        stored,
        nickname: sender?.nickname ?? null,
        left: leftAlong(stored.deal.tiles.length, log),
      };
    },

    /** Checks, before it is made, that a game of `key` may answer challenge `id` (the sender's own does not). */
    async check(playerId: string, id: string, key: DealKey): Promise<{ readonly answers: boolean } | Refusal> {
      const challenge = CHALLENGE_ID.test(id) ? await store.find(id) : undefined;
      if (!challenge) return { ok: false, code: 'ERR_NO_CHALLENGE', message: 'there is no challenge at this link' };
      const row = await fastify.gamesStore.findById(challenge.game_id);
      if (!row || row.layout !== key.layout || row.seed !== key.seed || row.mode !== key.mode)
        return { ok: false, code: 'ERR_CHALLENGE_DEAL', message: 'this challenge is of another deal' };
      return { answers: challenge.player_id !== playerId };
    },

    /** Records the game as the challenge's answer. */
    answer: (id: string, gameId: string): Promise<void> => store.answer(id, gameId),

    /** The player's latest game of the challenge, if any. */
    answerOf: (playerId: string, id: string): Promise<string | undefined> => store.answerOf(playerId, id),

    /** The player's newest challenges with how each went, for the stats page and the API. */
    async sentList(
      playerId: string | undefined,
      namer: (ids: Iterable<string>) => Promise<(layout: string) => string>,
    ): Promise<SentChallengeView[]> {
      const sent = playerId === undefined ? [] : await store.sentBy(playerId, SENT_LIST);
      const nameOf = await namer(sent.map((c) => c.layout));
      return sent.map((c) => ({
        id: c.id,
        url: challengeUrl(c.id),
        layout: c.layout,
        name: nameOf(c.layout),
        seed: c.seed,
        mode: c.mode,
        sentAt: c.created_at,
        timeMs: c.time_ms,
        players: c.players,
        games: c.games,
        ended: c.ended,
        bestMs: c.best_ms,
        outcome: outcomeOf(c),
      }));
    },
  };
}

export default fp(
  async (fastify: FastifyInstance, opts: { now?: () => number }) => {
    fastify.decorate('challenges', createChallenges(fastify, opts.now ?? Date.now));
  },
  { name: 'challenges', dependencies: ['stores', 'dealer', 'growth'] },
);
