/**
 * When the server first showed a player a deal: their ranked time's start, stored once per player and deal; a
 * visitor without a cookie gets a signed stamp instead (docs/fair-play.md, "The rule"; docs/server.md, "Who pays").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { addCookie } from '../plugins/player.ts';
import type { BestTime } from '../stores/types.ts';
import type { StoredDeal } from './dealer.ts';
import { ROW_BYTES } from './growth.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, HEAP, stringBytes } from '../utils/sizes.ts';
import { RECORD_SIZE } from './wins.ts';

declare module 'fastify' {
  interface FastifyInstance {
    firstShown: FirstShown;
  }
}

export const STAMP_COOKIE = 'mj_seen';
export const HOST_STAMP_COOKIE = '__Host-mj_seen';
export const STAMP_MAX_AGE_S = 7 * 24 * 3600; // as long as an unplayed deal is kept

const stampKey = (deal: { layout: string; seed: string; mode: string }): string =>
  `${deal.layout}:${deal.seed}:${deal.mode}`;
const STAMP = /^v1:([A-Za-z0-9_-]{22}):([a-z0-9-]{1,40}:[A-Za-z0-9_-]{1,32}:(?:relaxed|classic)):([0-9]{13})$/;

/** As the player cookie decides. */
const isHttps = (fastify: FastifyInstance, request: FastifyRequest): boolean =>
  (fastify.publicOrigin?.startsWith('https://') ?? false) || request.protocol === 'https';

/** Null when it is not one of ours. */
function readStamp(request: FastifyRequest): { player: string; deal: string; at: number } | null | undefined {
  const raw = request.cookies[HOST_STAMP_COOKIE] ?? request.cookies[STAMP_COOKIE];
  if (raw === undefined) return undefined;
  if (raw.length > 200) return null;
  const unsigned = request.unsignCookie(raw);
  const match = unsigned.valid && unsigned.value ? STAMP.exec(unsigned.value) : null;
  return match ? { player: match[1]!, deal: match[2]!, at: Number(match[3]) } : null;
}

/** Signed by us, for this player and deal, not in the future. */
export function stampedAt(
  fastify: FastifyInstance,
  request: FastifyRequest,
  playerId: string,
  deal: { layout: string; seed: string; mode: string },
): number | undefined {
  const stamp = readStamp(request);
  if (!stamp || stamp.player !== playerId || stamp.deal !== stampKey(deal)) return undefined;
  return stamp.at <= fastify.now() ? stamp.at : undefined;
}

/** On a page of `deal`: stampedAt, and the stamp cleared unless it is another deal's. */
export function takeStamp(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  playerId: string,
  deal: { layout: string; seed: string; mode: string },
): number | undefined {
  const stamp = readStamp(request);
  if (stamp === undefined) return undefined;
  const at = stampedAt(fastify, request, playerId, deal);
  if (at !== undefined || stamp === null || stamp.player !== playerId) clearStamp(fastify, request, reply);
  return at;
}

export function setStamp(
  fastify: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  deal: { layout: string; seed: string; mode: string },
  at: number,
): void {
  const https = isHttps(fastify, request);
  const value = reply.signCookie(`v1:${request.playerId}:${stampKey(deal)}:${at}`);
  addCookie(reply, https ? HOST_STAMP_COOKIE : STAMP_COOKIE, value, STAMP_MAX_AGE_S, https);
}

/** On a GET only: a POST never answers with a cookie. */
function clearStamp(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply): void {
  const https = isHttps(fastify, request);
  for (const name of [HOST_STAMP_COOKIE, STAMP_COOKIE])
    if (request.cookies[name] !== undefined)
      reply.clearCookie(name, {
        path: '/',
        secure: https || name === HOST_STAMP_COOKIE,
        httpOnly: true,
        sameSite: 'lax',
      });
}

/** #deal-stats: docs/contracts.md, "The play page". */
export interface OwnRecord {
  readonly opened: number;
  readonly won: number;
  readonly best: readonly BestTime[];
}

const RECORD_HTML_BYTES = 4_096; // #deal-stats with five best times
const RECORD_TTL_MS = 1_000; // other processes' writes show within it

export interface FirstShown {
  /** Records and returns the first show (`now`, or an earlier `stamped`); `now` unrecorded when growth is spent. */
  show(playerId: string, client: string, stored: StoredDeal, now: number, stamped?: number): Promise<number>;
  /** Kept up to RECORD_TTL_MS. */
  record(dealId: number): Promise<OwnRecord>;
  changed(dealId: number): void;
}

async function firstShownPlugin(fastify: FastifyInstance): Promise<void> {
  const repo = fastify.gamesStore;
  const records = new ByteLru<number, { record: OwnRecord; at: number }>('deal records', CACHE_BUDGETS.records);
  fastify.caches.push(records);
  fastify.decorate('firstShown', {
    async show(playerId, client, stored, now, stamped) {
      const at = stamped !== undefined && stamped < now ? stamped : now;
      const seen = await repo.findFirstShown(playerId, stored.id);
      if (seen !== undefined && seen <= at) return seen;
      if (seen === undefined && (await fastify.growth.take(client, ROW_BYTES.firstShown))) return now;
      records.delete(stored.id);
      return repo.recordFirstShown(playerId, stored.id, at);
    },
    async record(dealId) {
      const now = fastify.now();
      const kept = records.get(dealId);
      if (kept && now - kept.at < RECORD_TTL_MS && now >= kept.at) return kept.record;
      const [counts, best] = await Promise.all([repo.dealRecord(dealId), repo.bestTimes(dealId, RECORD_SIZE)]);
      const record: OwnRecord = { ...counts, best };
      // With the HTML the play page keeps beside it.
      const bytes =
        HEAP.object * (2 + best.length) +
        best.reduce((n, b) => n + stringBytes(b.player_id) + stringBytes(b.nickname ?? ''), 0) +
        RECORD_HTML_BYTES;
      records.set(dealId, { record, at: now }, bytes);
      return record;
    },
    changed(dealId) {
      records.delete(dealId);
    },
  } satisfies FirstShown);
}

export default fp(firstShownPlugin, { name: 'first-shown', dependencies: ['stores', 'growth'] });
