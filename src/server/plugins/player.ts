/** The anonymous player in a signed cookie (docs/http.md, "The player cookie"). */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    playerId: string;
    isNewPlayer: boolean;
  }
  interface FastifyContextConfig {
    player?: false; // public data: no cookie
  }
}

export const PLAYER_COOKIE = 'mj_player';
export const HOST_PLAYER_COOKIE = '__Host-mj_player';
const PLAYER_ID = /^[A-Za-z0-9_-]{22}$/;
const MAX_AGE = 400 * 24 * 3600; // seconds; a browser's longest
const SAFE_METHODS = new Set(['GET', 'HEAD']);

const ID_POOL = 4096; // one system call per 256 ids
let pool = Buffer.alloc(0);
let taken = 0;

export function makePlayerId(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(ID_POOL);
    taken = 0;
  }
  taken += 16;
  return pool.toString('base64url', taken - 16, taken);
}

export interface PlayerOptions {
  publicOrigin?: string;
}

/** From another site or origin? */
function isForeign(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  // Sec-Fetch-Site is final (Chromium sends `Origin: null` for our forms).
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return origin !== (publicOrigin ?? `${request.protocol}://${request.host}`);
}

export function cookiePlayerId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[HOST_PLAYER_COOKIE] ?? request.cookies[PLAYER_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value && PLAYER_ID.test(unsigned.value) ? unsigned.value : undefined;
}

function makePlayerHook(fastify: FastifyInstance, opts: PlayerOptions) {
  const secureOrigin = opts.publicOrigin?.startsWith('https://') ?? false;
  return function playerHook(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    if (request.routeOptions.config?.player === false || request.url.startsWith('/static/') || request.is404)
      return done();
    const safe = SAFE_METHODS.has(request.method);
    // A cross-site form can POST here: refuse it, without a cookie.
    if (!safe && isForeign(request, opts.publicOrigin))
      return done(fastify.httpErrors.forbidden("requests from other sites are refused; use this site's own pages"));
    const https = secureOrigin || request.protocol === 'https';
    const known = cookiePlayerId(request);
    if (known !== undefined) {
      request.playerId = known;
      request.isNewPlayer = false;
      if (https && safe && request.cookies[HOST_PLAYER_COOKIE] === undefined)
        setPlayerCookie(reply, request.playerId, true);
      return done();
    }
    // A new cookie on a POST would replace the player's identity.
    if (!safe)
      return done(
        fastify.httpErrors.forbidden('no player cookie came with this request; open a page of this site first'),
      );
    request.playerId = makePlayerId();
    request.isNewPlayer = true;
    setPlayerCookie(reply, request.playerId, https);
    done();
  };
}

export function setPlayerCookie(reply: FastifyReply, id: string, https: boolean): void {
  addCookie(reply, https ? HOST_PLAYER_COOKIE : PLAYER_COOKIE, reply.signCookie(id), MAX_AGE, https);
}

/** A Set-Cookie line, written directly: the serializer was slow. */
export function addCookie(reply: FastifyReply, name: string, value: string, maxAge: number, https: boolean): void {
  reply.header(
    'set-cookie',
    `${name}=${encodeURIComponent(value)}; Max-Age=${maxAge}; Path=/; HttpOnly; ${https ? 'Secure; ' : ''}SameSite=Lax`,
  );
}

async function playerPlugin(fastify: FastifyInstance, opts: PlayerOptions): Promise<void> {
  fastify.decorateRequest('playerId', '');
  fastify.decorateRequest('isNewPlayer', false);
  fastify.addHook('onRequest', makePlayerHook(fastify, opts));
}

export default fp(playerPlugin, { name: 'player', dependencies: ['@fastify/cookie', '@fastify/sensible'] });
