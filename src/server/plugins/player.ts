/**
 * The anonymous player: a random id in a signed cookie, made on the first visit
 * (docs/contracts.md, "Serving"). `request.playerId` is set for every page and API request but
 * static files, /healthz and routes with `config: { player: false }` (public
 * data such as deals: API clients need no identity there). `request.isNewPlayer`
 * says the cookie was made just now (so the player has no games yet and no row
 * in the database).
 *
 * Only GET and HEAD make a player. A state-changing request (POST …) needs a valid cookie and
 * must come from our own origin, else it is 403 with no Set-Cookie: a cross-site form would
 * otherwise arrive without the SameSite=Lax cookie, get a new one, and the browser would keep
 * it, wiping the player's stats. Over https the cookie is `__Host-mj_player`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyRequest {
    playerId: string;
    isNewPlayer: boolean;
  }
  interface FastifyContextConfig {
    player?: false; // this route needs no player: no cookie is read or made (public read-only data)
  }
}

export const PLAYER_COOKIE = 'mj_player';
/** The cookie's name over https: the __Host- prefix makes browsers refuse it unless Secure, Path=/, no Domain. */
export const HOST_PLAYER_COOKIE = '__Host-mj_player';
const PLAYER_ID = /^[A-Za-z0-9_-]{22}$/; // 16 random bytes, base64url
const MAX_AGE = 400 * 24 * 3600; // seconds; the longest a browser keeps a cookie
const SAFE_METHODS = new Set(['GET', 'HEAD']); // requests that change nothing: the only ones that may make a player

const ID_POOL = 4096; // random bytes fetched at once: one call to the system for 256 ids, not one each
let pool = Buffer.alloc(0);
let taken = 0;

/** A new random player id: 16 bytes of the crypto RNG. */
export function makePlayerId(): string {
  if (taken + 16 > pool.length) {
    pool = randomBytes(ID_POOL);
    taken = 0;
  }
  taken += 16;
  return pool.toString('base64url', taken - 16, taken);
}

export interface PlayerOptions {
  publicOrigin?: string; // e.g. https://mahjong.example; the origin state-changing requests must come from
}

/**
 * Is this request from another site or origin? Browsers say so in `Sec-Fetch-Site` (anything but
 * `same-origin`, or `none` for what the user typed); browsers without it, in `Origin` (sent with every
 * POST). A request with neither is not from a browser page (curl, a script): it still needs the cookie.
 */
function isForeign(request: FastifyRequest, publicOrigin: string | undefined): boolean {
  const site = request.headers['sec-fetch-site'];
  // Where the browser says it, its word is final (no page can set Sec-Fetch-*): Chromium sends
  // `Origin: null` with a form posted from our own page, as our Referrer-Policy is no-referrer.
  if (site !== undefined) return site !== 'same-origin' && site !== 'none';
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  return origin !== (publicOrigin ?? `${request.protocol}://${request.host}`);
}

/** The player id of a request's valid signed cookie, if it has one (also on routes that make no player). */
export function cookiePlayerId(request: FastifyRequest): string | undefined {
  const raw = request.cookies[HOST_PLAYER_COOKIE] ?? request.cookies[PLAYER_COOKIE];
  if (!raw) return undefined;
  const unsigned = request.unsignCookie(raw); // a forged or tampered id fails the signature
  return unsigned.valid && unsigned.value && PLAYER_ID.test(unsigned.value) ? unsigned.value : undefined;
}

function makePlayerHook(fastify: FastifyInstance, opts: PlayerOptions) {
  const secureOrigin = opts.publicOrigin?.startsWith('https://') ?? false;
  return function playerHook(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
    if (request.routeOptions.config?.player === false || request.url.startsWith('/static/') || request.is404)
      return done();
    const safe = SAFE_METHODS.has(request.method);
    // A page of another site can make the browser POST here (a form needs no script): refuse it
    // before it can change anything, and never answer it with a cookie.
    if (!safe && isForeign(request, opts.publicOrigin))
      return done(fastify.httpErrors.forbidden("requests from other sites are refused; use this site's own pages"));
    const https = secureOrigin || request.protocol === 'https';
    const known = cookiePlayerId(request);
    if (known !== undefined) {
      request.playerId = known;
      request.isNewPlayer = false;
      // Over https, an id still under the old name moves to the __Host- name on its next page.
      if (https && safe && request.cookies[HOST_PLAYER_COOKIE] === undefined)
        setPlayerCookie(reply, request.playerId, true);
      return done();
    }
    // Only a safe request makes a new player. A POST without a valid cookie is a browser that
    // did not send it (a cross-site form: SameSite=Lax) or a client that never had one: answering
    // it with a new cookie would replace the player's identity, so it is refused and gets none.
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
  // signed; HttpOnly: scripts never need the id, an XSS cannot steal it; SameSite=Lax: not sent on cross-site
  // POSTs (refused anyway: isForeign); Secure over https (behind a proxy: trustProxy or PUBLIC_ORIGIN).
  addCookie(reply, https ? HOST_PLAYER_COOKIE : PLAYER_COOKIE, reply.signCookie(id), MAX_AGE, https);
}

/**
 * Adds a Set-Cookie of `name=value` (encoded), Path=/, HttpOnly, SameSite=Lax, Secure over https, kept
 * `maxAge` seconds: the line written here rather than through @fastify/cookie's serializer, which
 * checks and builds every attribute again on each answer (with the new player's two cookies, a tenth of
 * a first page view's time).
 */
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
