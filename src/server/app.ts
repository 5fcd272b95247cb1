/** The application: plugins, routes and error handlers. Used by server.ts and the tests; never listens or reads env. */
import { randomBytes } from 'node:crypto';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import sensible from '@fastify/sensible';
import Fastify, { type FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import type { TrustProxy } from './config.ts';
import { cookieSecretFor } from './secret.ts';
import {
  answerClientError,
  capConnections,
  CONNECTION_LIMITS,
  type ConnectionLimits,
  type ConnectionStats,
} from './connections.ts';
import { frameworkError, registerErrorHandler, registerNotFoundHandler } from './errors.ts';
import headers, { requestIdMaker } from './plugins/headers.ts';
import i18n from './plugins/i18n.ts';
import metrics from './plugins/metrics.ts';
import openapi from './plugins/openapi.ts';
import tiles from './plugins/tiles.ts';
import assets from './plugins/assets.ts';
import counters from './plugins/counters.ts';
import database from './plugins/database.ts';
import postgres from './plugins/postgres.ts';
import player from './plugins/player.ts';
import security from './plugins/security.ts';
import stores from './plugins/stores.ts';
import view from './plugins/view.ts';
import apiDeals from './routes/api/deals.ts';
import apiGames from './routes/api/games.ts';
import apiLayouts from './routes/api/layouts.ts';
import apiStats from './routes/api/stats.ts';
import apiTilesets from './routes/api/tilesets.ts';
import health, { WriteFailures } from './routes/health.ts';
import offline from './routes/offline.ts';
import findable from './routes/findable.ts';
import pagesDaily from './routes/pages/daily.ts';
import pagesEditor from './routes/pages/editor.ts';
import pagesHome from './routes/pages/home.ts';
import pagesLayouts from './routes/pages/layouts.ts';
import pagesPlay from './routes/pages/play.ts';
import pagesRace from './routes/pages/race.ts';
import pagesReplay from './routes/pages/replay.ts';
import pagesChallenge from './routes/pages/challenge.ts';
import pagesStats from './routes/pages/stats.ts';
import pagesTransfer from './routes/pages/transfer.ts';
import pagesExport from './routes/pages/export.ts';
import customLayouts from './services/custom-layouts.ts';
import previews from './services/previews.ts';
import pagesTheme from './routes/pages/theme.ts';
import pagesTiles from './routes/pages/tiles.ts';
import pagesLang from './routes/pages/lang.ts';
import dealer, { type DealerOptions } from './services/dealer.ts';
import games from './services/games.ts';
import races, { type RaceLimits } from './services/races.ts';
import replays from './services/replays.ts';
import challenges from './services/challenges.ts';
import growth from './services/growth.ts';
import cpuBudget, { type CpuLimits } from './services/cpu-budget.ts';
import firstShown from './services/first-shown.ts';
import type { NewLayoutLimits } from './services/limits.ts';
import type { MeasuredCache } from './utils/lru.ts';
import { Readiness } from './readiness.ts';

declare module 'fastify' {
  interface FastifyInstance {
    now: () => number; // ms epoch
    publicOrigin: string | undefined; // absolute links come from it, never from Host
    tutorial: boolean;
    caches: MeasuredCache[]; // for /healthz?detail=1
    connectionStats: () => ConnectionStats;
    readiness: Readiness;
  }
}

export interface AppOptions {
  databasePath: string; // a file path or :memory:
  databaseUrl?: string;
  databasePoolMax?: number;
  cookieSecret?: string; // default: generated and kept (secret.ts)
  logger?: boolean | object;
  publicOrigin?: string; // share links and the same-origin check
  trustProxy?: TrustProxy;
  redisUrl?: string; // limits shared by a fleet
  rateLimit?: boolean; // false: no limits (benchmarks)
  dealer?: DealerOptions;
  publicDir?: string;
  now?: () => number;
  gamesPerDay?: number;
  newLayouts?: NewLayoutLimits;
  connections?: Partial<ConnectionLimits>;
  growthPerClient?: number;
  cpu?: Partial<CpuLimits>;
  metricsToken?: string; // bearer token for GET /metrics; unset: no metrics
  tutorial?: boolean;
  races?: Partial<RaceLimits>;
}

const FLEET_SECRET_KEY = 'fleet_cookie_secret';

export const BODY_LIMIT = 64 * 1024; // bytes; 500 moves are about 15 KB

const cookieSetup = fp(
  async (fastify: FastifyInstance, opts: { secret?: string; databasePath: string }) => {
    // SQLite: a file (secret.ts); PostgreSQL: the database, so a fleet signs alike.
    const secret =
      opts.secret ??
      (fastify.backend === 'postgres'
        ? await fastify.settingsStore.getOrCreate(FLEET_SECRET_KEY, () => randomBytes(32).toString('base64url'))
        : await cookieSecretFor(opts.databasePath, fastify.settingsStore));
    await fastify.register(cookie, { secret });
  },
  { name: 'cookie-setup', dependencies: ['stores'] },
);

const hopsTrusted =
  (hops: number) =>
  (_address: string, hop: number): boolean =>
    hop < hops;

export function buildApp(opts: AppOptions): FastifyInstance {
  let root: FastifyInstance | undefined; // frameworkErrors gets no instance
  const limits: ConnectionLimits = { ...CONNECTION_LIMITS, ...opts.connections };
  // Behind a proxy, or in a benchmark, one address holds many sockets.
  if ((opts.trustProxy || opts.rateLimit === false) && opts.connections?.perAddress === undefined)
    limits.perAddress = 0;
  const app = Fastify({
    logger: opts.logger ?? false,
    // A hop count trusts that many proxies (fastify's rule).
    trustProxy: typeof opts.trustProxy === 'number' ? hopsTrusted(opts.trustProxy) : (opts.trustProxy ?? false),
    bodyLimit: BODY_LIMIT,
    // Requests on open connections are served while closing.
    return503OnClosing: false,
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    genReqId: requestIdMaker(Boolean(opts.trustProxy)),
    frameworkErrors: (error, request, reply) => frameworkError(root!, error, request, reply),
    clientErrorHandler: answerClientError,
  }).withTypeProvider<ZodTypeProvider>();
  root = app;
  const connectionStats = capConnections(app.server, limits, {
    refused: (client) =>
      app.log.warn({ client, perAddress: limits.perAddress }, 'too many connections from one client; refusing more'),
    shed: (client, open) =>
      app.log.warn(
        { client, open },
        'all connections taken: closing the oldest unfinished ones of the clients holding the most',
      ),
    full: (open) => app.log.warn({ open }, 'every connection is being answered; refusing new ones'),
  });
  app.decorate('connectionStats', connectionStats);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const now = opts.now ?? Date.now;
  app.decorate('now', now);
  app.decorate('publicOrigin', opts.publicOrigin);
  app.decorate('tutorial', opts.tutorial ?? true);
  app.decorate('caches', [] as MeasuredCache[]);
  app.decorate('writeFailures', new WriteFailures(now));
  app.decorate('readiness', new Readiness());
  app.register(headers);
  app.register(metrics, { token: opts.metricsToken }); // first: it hooks every route
  app.register(sensible);
  app.register(formbody, { bodyLimit: 4096 });
  app.register(compress, { threshold: 1024 });
  registerErrorHandler(app);
  app.register(counters, { redisUrl: opts.redisUrl, now });
  app.register(growth, { perClient: opts.rateLimit === false ? false : opts.growthPerClient });
  app.register(cpuBudget, { limits: opts.rateLimit === false ? false : opts.cpu, now });
  app.register(security, { rateLimit: opts.rateLimit });
  app.after(() => registerNotFoundHandler(app));

  if (opts.databaseUrl) app.register(postgres, { url: opts.databaseUrl, poolMax: opts.databasePoolMax });
  else app.register(database, { path: opts.databasePath });
  app.register(stores);
  app.register(cookieSetup, { secret: opts.cookieSecret, databasePath: opts.databasePath });
  app.register(player, { publicOrigin: opts.publicOrigin });
  app.register(i18n);
  app.register(tiles);
  app.register(firstShown);
  app.register(assets, { publicDir: opts.publicDir });
  app.register(view);
  app.register(dealer, {
    ...opts.dealer,
    newDeals: opts.rateLimit === false ? false : opts.dealer?.newDeals,
    bandSeeds: opts.rateLimit === false ? false : opts.dealer?.bandSeeds,
    now,
  });
  app.register(games, { now, gamesPerDay: opts.rateLimit === false ? false : opts.gamesPerDay });
  app.register(replays, { now });
  app.register(challenges, { now });
  app.register(races, { redisUrl: opts.redisUrl, limits: opts.races, now });
  app.register(customLayouts, { now, newLayouts: opts.rateLimit === false ? false : opts.newLayouts });
  app.register(previews);

  app.register(openapi, { publicOrigin: opts.publicOrigin }); // before the routes it collects
  app.register(health);
  app.register(apiLayouts);
  app.register(apiDeals);
  app.register(apiGames);
  app.register(apiStats);
  app.register(apiTilesets);
  app.register(pagesHome);
  app.register(pagesPlay);
  app.register(pagesReplay);
  app.register(pagesRace);
  app.register(pagesChallenge);
  app.register(pagesDaily);
  app.register(pagesStats);
  app.register(pagesTransfer);
  app.register(pagesExport);
  app.register(pagesLayouts);
  app.register(pagesEditor);
  app.register(offline);
  app.register(pagesTheme);
  app.register(pagesTiles);
  app.register(pagesLang);
  app.register(findable);
  return app;
}
