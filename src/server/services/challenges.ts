/**
 * Challenge links (docs/server.md, "Challenges"): the player of a won game sends its deal with the time to
 * beat; whoever opens the link plays the same deal as an ordinary verified game, which is recorded as the
 * challenge's answer, and the sender's stats list how their challenges went.
 *
 * Implementation notes: an id is 16 bytes of the crypto RNG (base64url), one per game (asked again, the same
 * link), so it says nothing of the game's id. The time to beat is the server's time of the win (finished_at -
 * shown_at), as a friend's own win answer gives theirs, so the two compare like for like. The page shows the
 * sender's nickname (public on the daily tables already) and, as the ghost, the tiles left along their log: what
 * a replay shows, and nothing more (shared/challenge.ts).
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
import { ownGameRow } from './games.ts';
import { ROW_BYTES } from './growth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    challenges: ReturnType<typeof createChallenges>;
  }
}

export const makeChallengeId = (): string => randomBytes(16).toString('base64url');

/** How many of a player's challenges their stats list (the newest). */
export const SENT_LIST = 20;

/** A challenge opened: its row, the sender's game and deal, their public name, and their ghost. */
export interface OpenChallenge {
  readonly challenge: ChallengeRow;
  readonly row: GameRow; // the sender's won game
  readonly stored: StoredDeal;
  readonly nickname: string | null; // the sender's, if they set one
  readonly left: readonly number[]; // tiles left after each step of the sender's log (leftAlong)
}

/** One of a player's challenges as their stats list it (the page and GET /api/stats). */
export type SentChallengeView = z.infer<typeof SentChallengeSchema>;

/**
 * How a challenge ended for its sender: a friend beat the time, none did though one finished, or none finished yet.
 * Times are compared in whole seconds, as both are shown and as the friend's win panel judges (client/challenge.ts).
 */
export const outcomeOf = (c: Pick<SentChallenge, 'best_ms' | 'time_ms' | 'ended'>): ChallengeOutcome =>
  c.best_ms !== null && Math.floor(c.best_ms / 1000) < Math.floor(c.time_ms / 1000)
    ? 'beaten'
    : c.ended > 0
      ? 'held'
      : 'open';

export function createChallenges(fastify: FastifyInstance, now: () => number) {
  const store = fastify.challengesStore;
  return {
    /**
     * The challenge link of a won game, made on its player's first ask (the same link ever after). 404 for an
     * unknown game, 403 for another player's, 409 ERR_NOT_WON for a game the server has not recorded as won.
     * `client` (a clientKey) pays the row from its day of growth (services/growth.ts).
     */
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

    /** The challenge of an id, or undefined when there is none. */
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

    /**
     * Checks that a new game of `key` may answer challenge `id` before it is made: 404 for no such challenge,
     * 409 for another deal's. `answers` says whether the game counts as its answer (the sender's own does not).
     */
    async check(playerId: string, id: string, key: DealKey): Promise<{ readonly answers: boolean } | Refusal> {
      const challenge = CHALLENGE_ID.test(id) ? await store.find(id) : undefined;
      if (!challenge) return { ok: false, code: 'ERR_NO_CHALLENGE', message: 'there is no challenge at this link' };
      const row = await fastify.gamesStore.findById(challenge.game_id);
      if (!row || row.layout !== key.layout || row.seed !== key.seed || row.mode !== key.mode)
        return { ok: false, code: 'ERR_CHALLENGE_DEAL', message: 'this challenge is of another deal' };
      return { answers: challenge.player_id !== playerId };
    },

    /** Records the game as the answer of the challenge (checked first with `check`). */
    answer: (id: string, gameId: string): Promise<void> => store.answer(id, gameId),

    /** The player's latest game of the challenge, if any. */
    answerOf: (playerId: string, id: string): Promise<string | undefined> => store.answerOf(playerId, id),

    /**
     * The player's newest challenges (SENT_LIST), with how each went: the stats page's list and the API's, from
     * one source. `namer` names their layouts (in the page's language, or the API's English). A new player has none.
     */
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
