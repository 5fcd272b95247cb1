/** Security headers, rate limits and the Host check (docs/http.md, "Headers and rate limits"). */
import helmet, { type HelmetOptions } from 'helmet';
import rateLimit, { type FastifyRateLimitOptions, type FastifyRateLimitStore } from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { Counters } from '../services/counters.ts';
import { clientKey } from '../services/limits.ts';

/** A valid cookie's player, else the address. */
export const playerKey = (request: FastifyRequest): string =>
  request.isNewPlayer ? `address ${clientKey(request.ip)}` : `player ${request.playerId}`;

const addressKey = (request: FastifyRequest): string => clientKey(request.ip);

const MINUTE = 60_000;
const KEYS_KEPT = 50_000;

/** Requests per minute (docs/operations.md, "Security"). */
export const LIMITS = {
  createGame: {
    max: (request: FastifyRequest) => (request.isNewPlayer ? 120 : 30),
    timeWindow: MINUTE,
    keyGenerator: playerKey,
    cache: KEYS_KEPT,
  },
  moves: {
    max: 120,
    timeWindow: MINUTE,
    keyGenerator: playerKey,
    cache: KEYS_KEPT,
  },
  nickname: { max: 10, timeWindow: MINUTE },
  transfer: { max: 10, timeWindow: 15 * MINUTE },
  export: { max: 10, timeWindow: MINUTE },
  uploadLayout: { max: 20, timeWindow: MINUTE, keyGenerator: playerKey, cache: KEYS_KEPT },
  stats: { max: 60, timeWindow: MINUTE },
  shareReplay: { max: 30, timeWindow: MINUTE, keyGenerator: playerKey, cache: KEYS_KEPT },
  replay: { max: 300, timeWindow: MINUTE },
  notFound: { max: 120, timeWindow: MINUTE }, // an attacker could search for valid URLs if 404s were free
} as const;

/** Per-address flood guards, for hundreds of players behind one NAT. */
export const FLOOD_LIMITS = {
  createGame: { max: 1200, timeWindow: MINUTE, keyGenerator: addressKey, cache: KEYS_KEPT },
  moves: { max: 6000, timeWindow: MINUTE, keyGenerator: addressKey, cache: KEYS_KEPT },
} as const;

export const RATE_LIMITED = 'ERR_RATE_LIMITED';

const limitError = (statusCode: number, max: number, after: string) => ({
  statusCode,
  code: RATE_LIMITED,
  error: `too many requests: at most ${max} per minute; try again in ${after}`,
  message: `too many requests: at most ${max} per minute; try again in ${after}`,
});

declare module 'fastify' {
  interface FastifyInstance {
    floodGuard(limit: (typeof FLOOD_LIMITS)[keyof typeof FLOOD_LIMITS]): onRequestAsyncHookHandler;
  }
}

const HOST =
  /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[[0-9A-Fa-f:.]{2,45}\])(?::[0-9]{1,5})?$/;

export const isValidHost = (host: string): boolean => host.length <= 255 && HOST.test(host);

const HELMET_OPTIONS = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      styleSrcAttr: ["'unsafe-inline'"], // tiles placed by custom properties
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      workerSrc: ["'self'"],
      manifestSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  strictTransportSecurity: { maxAge: 180 * 24 * 3600, includeSubDomains: false },
} satisfies HelmetOptions;

/** For answers that skip the hooks (errors.ts). */
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

/** @fastify/rate-limit's store on our counters. */
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
  rateLimit?: boolean;
}

async function securityPlugin(fastify: FastifyInstance, opts: SecurityOptions): Promise<void> {
  fastify.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS);
    const host = request.headers.host;
    // A forged Host would land in the share link.
    if (host !== undefined && !isValidHost(host))
      return done(fastify.httpErrors.badRequest('the Host header is not a host name'));
    // JSON only: a form body here is a cross-site form.
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
    keyGenerator: (request) => clientKey(request.ip),
    store: countersStore(fastify.counters),
    allowList: opts.rateLimit === false ? () => true : undefined,
    errorResponseBuilder: (_request, context) => limitError(context.statusCode, context.max, context.after),
  });
  // The plugin runs one limit per route: a second is checked here.
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
