/**
 * The application: plugins, routes and error handlers (fastify/demo's app.ts).
 * `buildApp(opts)` is used by server.ts and by the tests (`app.inject`); it
 * never listens and never reads the environment.
 */
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
    now: () => number; // the server clock, in ms since the epoch; injectable for tests
    publicOrigin: string | undefined; // PUBLIC_ORIGIN: absolute links are built from it, never from Host
    tutorial: boolean; // the first game's lesson may open by itself (AppOptions.tutorial)
    caches: MeasuredCache[]; // every cache bounded by bytes, for /healthz?detail=1 (utils/sizes.ts)
    connectionStats: () => ConnectionStats; // open sockets, and those shed or refused (connections.ts)
    readiness: Readiness; // draining after SIGTERM: /healthz 503, every answer Connection: close (readiness.ts)
  }
}

export interface AppOptions {
  databasePath: string; // a file path, or ':memory:' (SQLite; unused when databaseUrl is given)
  databaseUrl?: string; // postgres://…: every store on PostgreSQL instead of SQLite
  databasePoolMax?: number; // PostgreSQL connections at most per process (DATABASE_POOL_MAX)
  cookieSecret?: string; // signs the player cookie; default: generated once and kept in the database
  logger?: boolean | object;
  publicOrigin?: string; // scheme://host[:port] the site is served at; share links and the same-origin check use it
  trustProxy?: TrustProxy; // believe X-Forwarded-* from this proxy (https detection, client IPs); see config.ts
  redisUrl?: string; // redis://…: limits and budgets counted in Redis, shared by a fleet (plugins/counters.ts)
  rateLimit?: boolean; // false turns rate limits, budgets and the per-address socket cap off (benchmarks); default on
  dealer?: DealerOptions; // deal workers, deadline, or an injected deal function (tests)
  publicDir?: string; // default: the project's public/
  now?: () => number; // default Date.now
  gamesPerDay?: number; // games one player may start in a UTC day (services/games.ts GAMES_PER_DAY)
  newLayouts?: NewLayoutLimits; // new custom layouts one client / everyone may store an hour (limits.ts NEW_LAYOUT_LIMITS)
  connections?: Partial<ConnectionLimits>; // time limits and caps on sockets (connections.ts); tests shorten them
  growthPerClient?: number; // bytes one client may add to the database a day (services/growth.ts GROWTH_PER_CLIENT)
  cpu?: Partial<CpuLimits>; // the server's time one client / everyone may ask for (services/cpu-budget.ts CPU_LIMITS)
  metricsToken?: string; // METRICS_TOKEN: GET /metrics with this bearer token (plugins/metrics.ts); unset: no metrics
  tutorial?: boolean; // false: the first game's lesson never opens by itself (tests of other things); default on
  races?: Partial<RaceLimits>; // bounds and times of live races (services/races.ts RACE_LIMITS); tests shorten them
}

const FLEET_SECRET_KEY = 'fleet_cookie_secret'; // settings row of the generated secret on PostgreSQL

export const BODY_LIMIT = 64 * 1024; // bytes; 500 moves are about 15 KB

/** The cookie plugin, with the secret from the options or from the database. */
const cookieSetup = fp(
  async (fastify: FastifyInstance, opts: { secret?: string; databasePath: string }) => {
    // SQLite: generated on the first start and kept in <DATABASE_PATH>.secret (0600, not in the database:
    // secret.ts). PostgreSQL: every process of a fleet must sign alike, so it is kept in the database
    // (set COOKIE_SECRET to keep it out of the database and its backups: docs/operations.md).
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
  let root: FastifyInstance | undefined; // for frameworkErrors, which fastify calls without the instance
  const limits: ConnectionLimits = { ...CONNECTION_LIMITS, ...opts.connections };
  // Behind a proxy every socket is the proxy's; a benchmark (rateLimit: false) opens many from one address.
  if ((opts.trustProxy || opts.rateLimit === false) && opts.connections?.perAddress === undefined)
    limits.perAddress = 0;
  const app = Fastify({
    logger: opts.logger ?? false,
    // A hop count trusts that many proxies next to us (fastify's own rule for numbers; its types omit them).
    trustProxy: typeof opts.trustProxy === 'number' ? hopsTrusted(opts.trustProxy) : (opts.trustProxy ?? false),
    bodyLimit: BODY_LIMIT,
    // A request that reaches a closing server on a connection already open (a balancer's, just before it
    // took this process out) is served as any other, not refused: the database closes only after it.
    return503OnClosing: false,
    // A request that never finishes must not hold its socket for ever (connections.ts).
    connectionTimeout: limits.idleTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    http: { headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: limits.checkIntervalMs },
    genReqId: requestIdMaker(Boolean(opts.trustProxy)),
    frameworkErrors: (error, request, reply) => frameworkError(root!, error, request, reply),
    clientErrorHandler: answerClientError, // a 408 (or 400, 431) before routing: written, then the socket closed
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
  app.decorate('writeFailures', new WriteFailures(now)); // write errors requests met, for /healthz
  app.decorate('readiness', new Readiness()); // server.ts drains it on SIGTERM
  app.register(headers);
  app.register(metrics, { token: opts.metricsToken }); // first: its onRoute hook gives every route a recorder
  app.register(sensible);
  app.register(formbody, { bodyLimit: 4096 }); // the nickname, theme and tiles forms: a field or two
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

  app.register(openapi, { publicOrigin: opts.publicOrigin }); // before the routes: it collects them as they come
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
