/**
 * Security headers and rate limits.
 *
 * - helmet's headers with a strict Content-Security-Policy: scripts, styles, images and
 *   fetches only from our own origin, no inline script, no framing (made once: SECURITY_HEADERS). Inline
 *   `style` attributes are allowed (style-src-attr) because the board places
 *   each tile with custom properties (`style="--x:4;--y:2;--z:0"`); they cannot
 *   run code.
 * - @fastify/rate-limit is registered with `global: false`: writes and the 404
 *   handler opt in through `config.rateLimit` (see LIMITS), reads stay free, but
 *   a read that makes a new deal pays from the new-deal budget (services/limits.ts).
 *   Play counts per player (the signed cookie); addresses, IPv6 by /64 (clientKey),
 *   only meet coarse flood guards (FLOOD_LIMITS), since many players may share one.
 *   Behind a proxy the address is only right with TRUST_PROXY set. Every refusal is
 *   429 with Retry-After and the code ERR_RATE_LIMITED.
 * - The Host header must look like a host: it is printed into the share link, and
 *   anything else is a client error, not something to render.
 */
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit, { type FastifyRateLimitOptions, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Counters } from '../services/counters.ts';
import { clientKey } from '../services/limits.ts';

/**
 * Who a request counts as for the limits of play: the player of a valid cookie, else (a first visit,
 * or a client that keeps no cookies and would get a new id each time) its address.
 */
export const playerKey = (request: FastifyRequest): string =>
  request.isNewPlayer ? `address ${clientKey(request.ip)}` : `player ${request.playerId}`;

const addressKey = (request: FastifyRequest): string => clientKey(request.ip);

const MINUTE = 60_000; // ms
const KEYS_KEPT = 50_000; // counters per limit; past this the least recently seen key starts afresh

/**
 * Requests per minute, by purpose (docs/operations.md, "Security": rate limits). Play is limited per player:
 * a person at the fastest sends a batch of moves every few seconds (src/client/sync.ts), so the limit
 * only meets scripts. Requests without a player cookie count by address, with their own allowance
 * (a class on its first visit: every pupil is new at once).
 */
export const LIMITS = {
  createGame: {
    max: (request: FastifyRequest) => (request.isNewPlayer ? 120 : 30), // new games a minute; 30 is one every 2 s
    timeWindow: MINUTE,
    keyGenerator: playerKey,
    cache: KEYS_KEPT,
  },
  moves: {
    max: 120, // batches a minute; the page sends about 6 at a person's pace, 20 at the fastest
    timeWindow: MINUTE,
    keyGenerator: playerKey,
    cache: KEYS_KEPT,
  },
  nickname: { max: 10, timeWindow: MINUTE },
  transfer: { max: 10, timeWindow: 15 * MINUTE }, // one-time links made and used: a person needs one or two
  export: { max: 10, timeWindow: MINUTE }, // every game of a player: up to 100,000 rows each
  uploadLayout: { max: 20, timeWindow: MINUTE, keyGenerator: playerKey, cache: KEYS_KEPT }, // each reads up to 96 KB (and is charged to the CPU budget) and may deal it once
  stats: { max: 60, timeWindow: MINUTE }, // the stats page and API: a read of several index ranges each
  shareReplay: { max: 30, timeWindow: MINUTE, keyGenerator: playerKey, cache: KEYS_KEPT }, // replay links made: one a game
  replay: { max: 300, timeWindow: MINUTE }, // replay pages: a replay of the log each; stepping without script loads one a move
  notFound: { max: 120, timeWindow: MINUTE }, // an attacker could search for valid URLs if 404s were free
} as const;

/**
 * Per-address flood guards on top of the per-player limits: one address may carry a school, an office
 * or a mobile carrier's many players, so these are set for hundreds of players at once, and only stop
 * a single machine flooding the server with made-up players.
 */
export const FLOOD_LIMITS = {
  createGame: { max: 1200, timeWindow: MINUTE, keyGenerator: addressKey, cache: KEYS_KEPT }, // 600 players starting a game every 30 s
  moves: { max: 6000, timeWindow: MINUTE, keyGenerator: addressKey, cache: KEYS_KEPT }, // 600 players at 10 batches a minute
} as const;

export const RATE_LIMITED = 'ERR_RATE_LIMITED';

/** The 429 (or ban) error every limit throws; the error handler sends it with its code. */
const limitError = (statusCode: number, max: number, after: string) => ({
  statusCode,
  code: RATE_LIMITED,
  error: `too many requests: at most ${max} per minute; try again in ${after}`,
  message: `too many requests: at most ${max} per minute; try again in ${after}`,
});

declare module 'fastify' {
  interface FastifyInstance {
    /** An onRequest hook that enforces `limit` besides a route's own `config.rateLimit`. */
    floodGuard(limit: (typeof FLOOD_LIMITS)[keyof typeof FLOOD_LIMITS]): onRequestAsyncHookHandler;
  }
}

/** A host name or address with an optional port: what a Host header may hold (255 characters at most). */
const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

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
      workerSrc: ["'self'"], // the solver's worker and the service worker (/sw.js)
      manifestSrc: ["'self'"], // the web app manifest
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
 * routing). Made once by running helmet on a stand-in response.
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

/**
 * @fastify/rate-limit's store on the server's counters (plugins/counters.ts): in memory, or in Redis
 * for a fleet, with the fallback to the process's counters when Redis cannot be reached. Each limit
 * counts under its own prefix: a route's method and URL, or for a flood guard (made without a route)
 * its max and window, the same on every process.
 */
function countersStore(counters: Counters) {
  return class CountersStore implements FastifyRateLimitStore {
    constructor(
      _options?: FastifyRateLimitOptions,
      private readonly prefix = 'rate:',
    ) {}

    incr(
      key: string,
      callback: (error: Error | null, result?: { current: number; ttl: number }) => void,
      timeWindow: number,
    ) {
      counters.hit(this.prefix + key, timeWindow).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: (error: Error | null, result?: { current: number; ttl: number }) => void) {
      counters.peek(this.prefix + key).then(
        (result) => callback(null, result),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]): CountersStore {
      // At run time the plugin passes its merged limit, with the route (empty for createRateLimit).
      const limit = routeOptions as unknown as {
        routeInfo: { method?: string; url?: string };
        max: unknown;
        timeWindow: unknown;
      };
      const { method, url } = limit.routeInfo;
      const name = method && url ? `${method} ${url}` : `guard ${String(limit.max)}/${String(limit.timeWindow)}`;
      return new CountersStore(undefined, `rate:${name}:`);
    }
  };
}

export interface SecurityOptions {
  rateLimit?: boolean; // false turns every limit off (benchmarks); default on
}

async function securityPlugin(fastify: FastifyInstance, opts: SecurityOptions): Promise<void> {
  fastify.addHook('onRequest', (request, reply, done) => {
    // The same headers on every answer, made once (@fastify/helmet ran helmet's setup again for every
    // request: a twentieth of the deal page's time).
    reply.headers(SECURITY_HEADERS);
    const host = request.headers.host;
    // A forged Host header would land in the share link of the page (escaped, but still wrong).
    if (host !== undefined && !isValidHost(host))
      return done(fastify.httpErrors.badRequest('the Host header is not a host name'));
    // The JSON API takes JSON only: a form body there is a cross-site form or a confused client.
    const type = request.headers['content-type'];
    if (
      request.url.startsWith('/api/') &&
      type !== undefined &&
      /^\s*(application\/x-www-form-urlencoded|multipart\/form-data)/i.test(type)
    )
      return done(
        fastify.httpErrors.unsupportedMediaType('the API takes JSON bodies (Content-Type: application/json)'),
      );
    done();
  });
  await fastify.register(rateLimit, {
    global: false,
    keyGenerator: (request) => clientKey(request.ip), // an IPv6 client holds a /64: count it as one
    store: countersStore(fastify.counters), // in Redis for a fleet (plugins/counters.ts)
    allowList: opts.rateLimit === false ? () => true : undefined,
    errorResponseBuilder: (_request, context) => limitError(context.statusCode, context.max, context.after),
  });
  // @fastify/rate-limit runs one limit per route (a second hook of its own is skipped), so a second
  // limit on a route is checked here, with the plugin's counters and the same answer.
  fastify.decorate(
    'floodGuard',
    (limit: (typeof FLOOD_LIMITS)[keyof typeof FLOOD_LIMITS]): onRequestAsyncHookHandler => {
      if (opts.rateLimit === false) return async () => {};
      const check = fastify.createRateLimit(limit);
      return async (request, reply) => {
        const result = await check(request);
        if (result.isAllowed || !result.isExceeded) return;
        reply.header('retry-after', String(result.ttlInSeconds));
        throw limitError(429, result.max, `${result.ttlInSeconds} seconds`);
      };
    },
  );
}

export default fp(securityPlugin, { name: 'security', dependencies: ['@fastify/sensible', 'counters'] });
