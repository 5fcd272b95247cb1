/**
 * First-shown times: when the server first showed a player a deal, the start of their ranked time on it
 * (docs/fair-play.md), and what that costs the database.
 *
 * - A first-shown time is stored once per player and deal (`first_shown`) and paid from the client's day of
 *   growth (services/growth.ts). A player seen before pays only for deals new to them: one indexed read
 *   first says whether the time is there. With the day's growth spent, it is not recorded (the page
 *   still shows the deal).
 * - A visitor without a player cookie is shown the page with no write at all: a crawler, a link preview
 *   or a balancer's probe costs a read. Its first-shown time is proved later by a **stamp**: a signed cookie
 *   (`mj_seen`, `__Host-mj_seen` over https) naming the new player id the page also set, the deal and the
 *   server's time, so the server needs to remember nothing. When that player next opens the deal, asks
 *   for its JSON or starts a game of it, the stamp's time is taken as their first-shown time (the store
 *   moves a stored one back to it), and the deal's page then clears the stamp. One stamp at a
 *   time: only the first page a browser gets without a cookie makes one. A stamp is only ever the
 *   player's own earlier time, so a client that drops it gains what a new cookie gains anyway (the
 *   limits in docs/fair-play.md), and one that keeps it loses nothing.
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
export const STAMP_MAX_AGE_S = 7 * 24 * 3600; // as long as a deal nobody played is kept (deal-pruner.ts)

/** A deal's key in a stamp: layout, seed and mode (none of them holds a `:`). */
const stampKey = (deal: { layout: string; seed: string; mode: string }): string =>
  `${deal.layout}:${deal.seed}:${deal.mode}`;
const STAMP = /^v1:([A-Za-z0-9_-]{22}):([a-z0-9-]{1,40}:[A-Za-z0-9_-]{1,32}:(?:relaxed|classic)):([0-9]{13})$/;

/** Is this request over https (the cookie's Secure flag and __Host- name)? As the player cookie decides. */
const isHttps = (fastify: FastifyInstance, request: FastifyRequest): boolean =>
  (fastify.publicOrigin?.startsWith('https://') ?? false) || request.protocol === 'https';

/** The request's stamp: undefined without one, null when it is not one of ours (forged, tampered, garbled). */
function readStamp(request: FastifyRequest): { player: string; deal: string; at: number } | null | undefined {
  const raw = request.cookies[HOST_STAMP_COOKIE] ?? request.cookies[STAMP_COOKIE];
  if (raw === undefined) return undefined;
  if (raw.length > 200) return null;
  const unsigned = request.unsignCookie(raw); // a forged or tampered stamp fails the signature
  const match = unsigned.valid && unsigned.value ? STAMP.exec(unsigned.value) : null;
  return match ? { player: match[1]!, deal: match[2]!, at: Number(match[3]) } : null;
}

/**
 * The time a valid stamp of this request proves for `deal` and `playerId`, if it has one: signed by us,
 * for this player id, for this deal, not in the future.
 */
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

/**
 * On a page of `deal` (a GET): the time the request's stamp proves, as stampedAt, and the stamp cleared
 * when it is used or of no use (not ours, or another player's). A stamp of another deal stays for it.
 */
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

/** Sets the stamp of a page shown to a visitor without a cookie (the player id the same answer sets). */
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

/** Clears a stamp that has done its work (on a GET only: a POST never answers with a cookie). */
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

/**
 * A deal's own record (#deal-stats: docs/contracts.md, "The play page"): players shown it, players who won it,
 * its best ranked times.
 */
export interface OwnRecord {
  readonly opened: number;
  readonly won: number;
  readonly best: readonly BestTime[];
}

const RECORD_HTML_BYTES = 4_096; // #deal-stats with five best times: about 1.5 KB of two-byte text
const RECORD_TTL_MS = 1_000; // how long a record is kept in memory: what another process of a fleet wrote shows within it

export interface FirstShown {
  /**
   * The server shows `playerId` the stored deal at `now`, or proved earlier at `stamped`: records it when
   * it is new (paid from `client`'s growth) and returns when the player was first shown the deal; `now`
   * when the client's day of growth is spent (nothing recorded).
   */
  show(playerId: string, client: string, stored: StoredDeal, now: number, stamped?: number): Promise<number>;
  /**
   * A deal's record, kept in memory up to RECORD_TTL_MS (two indexed reads were a sixth of a page view's
   * time); this process's own new first-shown times and wins show at once.
   */
  record(dealId: number): Promise<OwnRecord>;
  /** Forgets a deal's kept record: this process just changed it (a win). */
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
      if (seen !== undefined && seen <= at) return seen; // stored already: no write
      if (seen === undefined && (await fastify.growth.take(client, ROW_BYTES.firstShown))) return now;
      records.delete(stored.id); // one more player opened it
      return repo.recordFirstShown(playerId, stored.id, at);
    },
    async record(dealId) {
      const now = fastify.now();
      const kept = records.get(dealId);
      if (kept && now - kept.at < RECORD_TTL_MS && now >= kept.at) return kept.record;
      const [counts, best] = await Promise.all([repo.dealRecord(dealId), repo.bestTimes(dealId, RECORD_SIZE)]);
      const record: OwnRecord = { ...counts, best };
      // Its rows, and the record's HTML for visitors without a game that the play page keeps beside it.
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
