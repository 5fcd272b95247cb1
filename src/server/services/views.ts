/**
 * Views of deals: when the server first showed a player a deal, the start of their ranked time on it
 * (docs/fair-play.md), and what that costs the database (issue 24).
 *
 * - A view is stored once per player and deal (`deal_views`) and paid from the client's day of growth
 *   (services/growth.ts). A player seen before pays only for views new to the store: one indexed read
 *   first says whether the view is there. With the day's growth spent, a view is not recorded (the page
 *   still shows the deal).
 * - A visitor without a player cookie is shown the page with no write at all: a crawler, a link preview
 *   or a balancer's probe costs a read. Its first view is proved later by a **stamp**: a signed cookie
 *   (`mj_seen`, `__Host-mj_seen` over https) naming the new player id the page also set, the deal and the
 *   server's time, so the server needs to remember nothing. When that player next opens the deal, asks
 *   for its JSON or starts a game of it, the stamp's time is taken as their first view (the store moves
 *   an existing view back to it), and the deal's page then clears the stamp. One stamp at a
 *   time: only the first page a browser gets without a cookie makes one. A stamp is only ever the
 *   player's own earlier time, so a client that drops it gains what a new cookie gains anyway (the
 *   limits in docs/fair-play.md), and one that keeps it loses nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { StoredDeal } from './dealer.ts';
import { ROW_BYTES } from './growth.ts';

declare module 'fastify' {
  interface FastifyInstance {
    views: Views;
  }
}

export const STAMP_COOKIE = 'mj_seen';
export const HOST_STAMP_COOKIE = '__Host-mj_seen';
export const STAMP_MAX_AGE_S = 7 * 24 * 3600; // as long as a deal nobody played is kept (dealer.ts)

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
  reply.setCookie(https ? HOST_STAMP_COOKIE : STAMP_COOKIE, `v1:${request.playerId}:${stampKey(deal)}:${at}`, {
    signed: true,
    httpOnly: true,
    sameSite: 'lax',
    secure: https,
    path: '/',
    maxAge: STAMP_MAX_AGE_S,
  });
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

export interface Views {
  /**
   * The server shows `playerId` the stored deal at `now`, or proved earlier at `stamped`: records it when
   * it is new (paid from `client`'s growth) and returns when the player was first shown the deal; `now`
   * when the client's day of growth is spent (nothing recorded).
   */
  show(playerId: string, client: string, stored: StoredDeal, now: number, stamped?: number): Promise<number>;
}

async function viewsPlugin(fastify: FastifyInstance): Promise<void> {
  const repo = fastify.gamesRepository;
  fastify.decorate('views', {
    async show(playerId, client, stored, now, stamped) {
      const at = stamped !== undefined && stamped < now ? stamped : now;
      const seen = await repo.findView(playerId, stored.id);
      if (seen !== undefined && seen <= at) return seen; // a view stored already: no write
      if (seen === undefined && (await fastify.growth.take(client, ROW_BYTES.view))) return now;
      return repo.recordView(playerId, stored.id, at);
    },
  } satisfies Views);
}

export default fp(viewsPlugin, { name: 'views', dependencies: ['games-repository', 'growth'] });
