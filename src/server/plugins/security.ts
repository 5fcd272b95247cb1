/**
 * Security headers and rate limits.
 *
 * - helmet with a strict Content-Security-Policy: scripts, styles, images and
 *   fetches only from our own origin, no inline script, no framing. Inline
 *   `style` attributes are allowed (style-src-attr) because the board places
 *   each tile with custom properties (`style="--x:4;--y:2;--z:0"`); they cannot
 *   run code.
 * - @fastify/rate-limit is registered with `global: false`: writes and the 404
 *   handler opt in through `config.rateLimit` (see LIMITS), reads stay free, but
 *   a read that makes a new deal pays from the new-deal budget (services/limits.ts).
 *   Clients are counted by address, IPv6 by /64 (clientKey); behind a proxy the
 *   address is only right with TRUST_PROXY set.
 * - The Host header must look like a host: it is printed into the share link, and
 *   anything else is a client error, not something to render.
 */
import fastifyHelmet from '@fastify/helmet';
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { clientKey } from '../services/limits.ts';

/** Requests per IP per minute, by purpose. */
export const LIMITS = {
  createGame: { max: 60, timeWindow: 60_000 }, // a new deal every second, sustained, is not a person
  moves: { max: 300, timeWindow: 60_000 }, // the client batches; five batches a second is plenty
  nickname: { max: 10, timeWindow: 60_000 },
  stats: { max: 60, timeWindow: 60_000 }, // the stats page and API: a read of several index ranges each
  notFound: { max: 120, timeWindow: 60_000 }, // an attacker could search for valid URLs if 404s were free
} as const;

/** A host name or address with an optional port: what a Host header may hold (255 characters at most). */
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

export const isValidHost = (host: string): boolean => host.length <= 255 && HOST.test(host);

/** The security headers (helmet): also sent on answers fastify makes before routing (errors.ts). */
const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"], // no inline script anywhere
      styleSrc: ["'self'"],
      styleSrcAttr: ["'unsafe-inline'"], // tile coordinates as custom properties, see above
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // On plain http (a LAN, localhost) HSTS would be ignored anyway; behind https it pins the site to https.
  strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
} satisfies HelmetOptions;

/**
 * The same headers as a fixed map, for answers that skip the hooks (a malformed URL is refused before
 * routing: issue 9, item 10). Made once by running helmet on a stand-in response.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = (() => {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: string | number) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
    getHeader: (name: string) => headers[name.toLowerCase()],
  };
  helmet(HELMET_OPTIONS)({} as never, res as never, () => {});
  return headers;
})();

export interface SecurityOptions {
  rateLimit?: boolean; // false turns every limit off (benchmarks); default on
}

async function securityPlugin(fastify: FastifyInstance, opts: SecurityOptions): Promise<void> {
  await fastify.register(fastifyHelmet, HELMET_OPTIONS);
  fastify.addHook('onRequest', (request, _reply, done) => {
    const host = request.headers.host;
    // A forged Host header would land in the share link of the page (escaped, but still wrong).
    if (host !== undefined && !isValidHost(host)) return done(fastify.httpErrors.badRequest('the Host header is not a host name'));
    // The JSON API takes JSON only: a form body there is a cross-site form or a confused client (issue 9).
    const type = request.headers['content-type'];
    if (request.url.startsWith('/api/') && type !== undefined && /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type))
      return done(fastify.httpErrors.unsupportedMediaType('the API takes JSON bodies (Content-Type: application/json)'));
    done();
  });
  await fastify.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientKey(request.ip), // an IPv6 client holds a /64: count it as one
    allowList: opts.rateLimit === false ? () => true : undefined,
    errorResponseBuilder: (_request, context) => ({
      statusCode: context.statusCode,
      error: `too many requests: at most ${context.max} per minute; try again in ${context.after}`,
      message: `too many requests: at most ${context.max} per minute; try again in ${context.after}`,
    }),
  });
}

export default fp(securityPlugin, { name: 'security', dependencies: ['@fastify/sensible'] });
