/**
 * The anonymous player: a random id in a signed cookie, made on the first visit
 * (SPEC §3.2). `request.playerId` is set for every page and API request but
 * static files, /healthz and routes with `config: { player: false }` (public
 * data such as deals: API clients need no identity there). `request.isNewPlayer`
 * says the cookie was made just now (so the player has no games yet and no row
 * in the database).
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
const PLAYER_ID = /^[A-Za-z0-9_-]{22}$/; // 16 random bytes, base64url
const MAX_AGE = 400 * 24 * 3600; // seconds; the longest a browser keeps a cookie


/** A new random player id. */
export const makePlayerId = (): string => randomBytes(16).toString('base64url');

function playerHook(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  if (request.routeOptions.config?.player === false || request.url.startsWith('/static/')) return done();
  const raw = request.cookies[PLAYER_COOKIE];
  if (raw) {
    const unsigned = request.unsignCookie(raw); // a forged or tampered id fails the signature
    if (unsigned.valid && unsigned.value && PLAYER_ID.test(unsigned.value)) {
      request.playerId = unsigned.value;
      request.isNewPlayer = false;
      return done();
    }
  }
  request.playerId = makePlayerId();
  request.isNewPlayer = true;
  reply.setCookie(PLAYER_COOKIE, request.playerId, {
    signed: true,
    httpOnly: true, // scripts never need the id; an XSS cannot steal it
    sameSite: 'lax', // not sent on cross-site POSTs: the nickname form and the API need no CSRF token
    secure: request.protocol === 'https', // behind a proxy this relies on trustProxy
    path: '/',
    maxAge: MAX_AGE,
  });
  done();
}

async function playerPlugin(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('playerId', '');
  fastify.decorateRequest('isNewPlayer', false);
  fastify.addHook('onRequest', playerHook);
}

export default fp(playerPlugin, { name: 'player', dependencies: ['@fastify/cookie'] });
