/**
 * The error contract and the error and not-found handlers (one of each, as in fastify/demo).
 *
 * Every refusal has a stable code (`ERR_…`, like fastify core's `FST_ERR_*`): services return domain
 * results that carry one, and ERROR_STATUS, the one map below, turns a code into its HTTP status.
 * /api/* answers `{"error": "...", "code": "ERR_…"}` (ApiErrorSchema, which every API route declares
 * for its error answers beside its success answer); pages get the HTML error page in the site's style,
 * with the same status. The codes are listed in docs/server.md.
 *
 * Errors are logged with method, url, params and the request id. A 4xx answers with its message; a
 * 5xx never shows its message or stack, only the request id to quote.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { baseHeaders } from './plugins/headers.ts';
import { requestLang } from './plugins/i18n.ts';
import { i18n, type Translator } from './services/i18n.ts';
import { DEFAULT_LANG } from '../shared/i18n.ts';
import { LIMITS, SECURITY_HEADERS } from './plugins/security.ts';

/** Every error code the server answers with, and its HTTP status. */
export const ERROR_STATUS = {
  // requests the server cannot read
  ERR_VALIDATION: 400, // a parameter, query or body that breaks its schema (the message says which)
  ERR_BAD_REQUEST: 400, // a body that is not JSON, a Host header that is no host name, a malformed address
  ERR_FORBIDDEN: 403, // a POST from another site, or without the player cookie
  ERR_NOT_FOUND: 404, // no such route (or page)
  ERR_METHOD_NOT_ALLOWED: 405,
  ERR_GONE: 410, // a transfer link used or expired
  ERR_REQUEST_TIMEOUT: 408, // headers or body not arrived by their deadline (connections.ts); the socket is closed
  ERR_URI_TOO_LONG: 414, // a part of the address longer than the router takes
  ERR_PAYLOAD_TOO_LARGE: 413, // past the body limit, a file too big, too many files or fields
  ERR_UNSUPPORTED_MEDIA_TYPE: 415, // a form where JSON goes, or JSON where a form goes
  ERR_HEADERS_TOO_LARGE: 431, // the request's headers past Node's limit (connections.ts); the socket is closed
  ERR_RATE_LIMITED: 429, // a rate limit; Retry-After says when to try again
  ERR_INTERNAL: 500, // our bug; logged under the request id the message quotes
  ERR_UNAVAILABLE: 503, // the server is shutting down or cannot answer now
  ERR_GROWTH: 429, // this client stored as much as one may in a day (services/growth.ts); Retry-After says when
  ERR_CPU: 429, // this client asked for as much of the server's time as one may for now (services/cpu-budget.ts)
  ERR_CPU_FULL: 503, // everyone's share of this process's time for costly requests is spent this second
  // deals (services/dealer.ts)
  ERR_UNKNOWN_LAYOUT: 404,
  ERR_SEED: 400, // a seed the engine refuses
  ERR_UNCLEARABLE: 409, // a custom layout the removal-order search gave up on for this seed
  ERR_TIMEOUT: 409, // making the deal passed its deadline: play it relaxed or try another seed
  ERR_QUEUE: 429, // this client has the most worker tasks in the making it may have, or its minute of band seeds
  ERR_NEW_DEALS: 429, // this client's budget of new deals is spent for now
  ERR_NEW_DEALS_FULL: 503, // everyone's budget of new deals is spent for now
  ERR_BUSY: 503, // the deal workers' queue is full, or everyone's band seeds for this minute are dealt
  ERR_WORKER: 503, // a deal worker failed or is stopping
  ERR_NO_DEAL_IN_BAND: 404, // a band search dealt its most seeds and none was in the band (docs/server.md)
  // uploaded layouts (services/custom-layouts.ts)
  ERR_LAYOUT: 400, // a file that is not a layout we can play (the message says why)
  ERR_LAYOUT_TOO_SLOW: 400, // a layout that takes longer than the deadline to deal
  ERR_LAYOUT_CLASH: 409, // another layout has this one's id
  ERR_NEW_LAYOUTS: 429, // this network's budget of new layouts is spent
  ERR_NEW_LAYOUTS_FULL: 503, // everyone's budget of new layouts is spent
  ERR_LAYOUT_NAME: 400, // a layout's name that is too long or has nothing that can be shown
  ERR_LAYOUT_NAMES_FULL: 409, // the player keeps as many names of layouts as one may (LAYOUT_NAMES_MAX)
  ERR_NOT_NAMER: 403, // a rename of a layout the player never uploaded, saved or named
  // games (services/games.ts)
  ERR_GAME_NOT_FOUND: 404,
  ERR_NOT_YOUR_GAME: 403,
  ERR_GAME_FINISHED: 409,
  ERR_CONFLICT: 409, // the batch does not follow the stored log (another window played)
  ERR_MOVE_GAP: 409, // the batch starts past the stored log
  ERR_TOO_MANY_MOVES: 409,
  ERR_TOO_MANY_HINTS: 409,
  ERR_TOO_MANY_CHECKS: 409,
  ERR_TOO_MANY_SHUFFLES: 409,
  // an illegal move (the engine's MoveError codes)
  ERR_NO_SUCH_TILE: 409,
  ERR_SAME_TILE: 409,
  ERR_REMOVED: 409,
  ERR_NOT_FREE: 409,
  ERR_NO_MATCH: 409,
  ERR_NOTHING_TO_UNDO: 409,
  ERR_NOTHING_TO_REDO: 409,
  ERR_CANNOT_SHUFFLE: 409,
  ERR_GAME_OVER: 409,
  // replays (services/replays.ts)
  ERR_NO_REPLAY: 404, // no replay has this link
  // challenge links (services/challenges.ts)
  ERR_NO_CHALLENGE: 404, // no challenge has this link
  ERR_NOT_WON: 409, // a challenge asked of a game the server has not recorded as won (yet)
  ERR_CHALLENGE_DEAL: 409, // a game made as the answer of a challenge of another deal
  // live races (services/races.ts)
  ERR_NO_RACE: 404, // no live race has this id (never made, or closed after its idle time)
  ERR_RACE_FULL: 409, // the race has its most players
  ERR_RACE_OVER: 409, // the race has ended: it takes no new players
  ERR_RACE_STREAMS: 429, // this player or client holds the most live race streams it may
  ERR_RACE_NOT_STARTED: 409, // a racing game's move before its race's start (its countdown still running)
  ERR_NOT_RACE_HOST: 403, // a start asked by someone other than the race's maker (while the maker is there)
  // players and their stats (pages)
  ERR_NO_GAMES: 404, // an export of a player with no games
  ERR_NOTHING_TO_MOVE: 409, // a transfer link asked for by a player with no games
} as const satisfies Record<`ERR_${string}`, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

/** A refusal as services return it: a code from ERROR_STATUS and a message for the person who asked. */
export interface Refusal {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly message: string;
  readonly retryAfterS?: number; // for a Retry-After header (429, 503)
}

/** The body of every API error: `{"error": "...", "code": "ERR_…"}`. */
export const ApiErrorSchema = z.object({ error: z.string(), code: z.enum(ERROR_CODES) });

/** A refused move batch (409) adds where the server stands: the illegal move's index, its move count and log. */
export const MovesRefusalSchema = ApiErrorSchema.extend({
  index: z.number().int().optional(), // the first illegal move's position in the batch as sent
  moves: z.number().int().optional(), // moves the server has of this game, hints included
  log: z.array(z.unknown()).optional(), // the server's log as a client replays it
});

/**
 * The error answers of an API route's response schema: each listed status with the shared error body.
 * Every route may meet 400 (a malformed request), 404 (an unknown address), 429 and 500 besides its own.
 */
export function errorResponses<const S extends readonly number[]>(
  ...statuses: S
): Record<S[number] | 400 | 404 | 429 | 500, typeof ApiErrorSchema> {
  const all = new Set<number>([400, 404, 429, 500, ...statuses]);
  return Object.fromEntries([...all].map((s) => [s, ApiErrorSchema])) as Record<
    S[number] | 400 | 404 | 429 | 500,
    typeof ApiErrorSchema
  >;
}

/** The code of a status with no more particular code (fastify's own errors, plugins' errors). */
export const CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'ERR_BAD_REQUEST',
  403: 'ERR_FORBIDDEN',
  404: 'ERR_NOT_FOUND',
  405: 'ERR_METHOD_NOT_ALLOWED',
  408: 'ERR_REQUEST_TIMEOUT',
  410: 'ERR_GONE',
  414: 'ERR_URI_TOO_LONG',
  413: 'ERR_PAYLOAD_TOO_LARGE',
  415: 'ERR_UNSUPPORTED_MEDIA_TYPE',
  429: 'ERR_RATE_LIMITED',
  431: 'ERR_HEADERS_TOO_LARGE',
  503: 'ERR_UNAVAILABLE',
};

/** The code an error thrown in a request answers with: its own when it is one of ours, else by its status. */
export function codeOf(error: { code?: unknown; validation?: unknown }, status: number): ErrorCode {
  if (status >= 500 && status !== 503) return 'ERR_INTERNAL';
  if (isErrorCode(error.code)) return error.code;
  if (status === 400 && (error.validation !== undefined || error.code === 'FST_ERR_VALIDATION'))
    return 'ERR_VALIDATION';
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'ERR_INTERNAL' : 'ERR_BAD_REQUEST');
}

export const isApi = (request: FastifyRequest): boolean => request.url.startsWith('/api/');

/** The error page's title by status (keys of locales/*.json); any other status: `error.title.other`. */
const TITLE_KEYS: Readonly<Record<number, string>> = {
  400: 'error.title.400',
  403: 'error.title.403',
  404: 'error.title.404',
  409: 'error.title.409',
  410: 'error.title.410',
  413: 'error.title.413',
  415: 'error.title.415',
  429: 'error.title.429',
};

/**
 * What the error page says for a code, in the player's language. A code not listed says its status's
 * general sentence. The API's `error` stays the English message (its `code` is the contract).
 */
const PAGE_MESSAGE_KEYS: Partial<Readonly<Record<ErrorCode, string>>> = {
  ERR_NOT_FOUND: 'error.notFound',
  ERR_NO_REPLAY: 'error.noReplay',
  ERR_NO_CHALLENGE: 'error.noChallenge',
  ERR_UNKNOWN_LAYOUT: 'error.unknownLayout',
  ERR_RATE_LIMITED: 'error.rateLimited',
  ERR_GROWTH: 'error.growth',
  ERR_CPU: 'error.rateLimited',
  ERR_CPU_FULL: 'error.unavailable',
  ERR_INTERNAL: 'error.internal',
  ERR_UNAVAILABLE: 'error.unavailable',
  ERR_FORBIDDEN: 'error.forbidden',
  ERR_SEED: 'error.seed',
  ERR_UNCLEARABLE: 'error.unclearable',
  ERR_TIMEOUT: 'error.timeout',
  ERR_QUEUE: 'error.newDeals',
  ERR_NEW_DEALS: 'error.newDeals',
  ERR_NEW_DEALS_FULL: 'error.busy',
  ERR_BUSY: 'error.busy',
  ERR_WORKER: 'error.busy',
  ERR_LAYOUT: 'error.layout',
  ERR_LAYOUT_TOO_SLOW: 'error.layoutSlow',
  ERR_LAYOUT_CLASH: 'error.layoutClash',
  ERR_NEW_LAYOUTS: 'error.newLayouts',
  ERR_NEW_LAYOUTS_FULL: 'error.newLayouts',
  ERR_LAYOUT_NAME: 'error.layoutName',
  ERR_LAYOUT_NAMES_FULL: 'error.layoutNamesFull',
  ERR_NOT_NAMER: 'error.notNamer',
  ERR_NO_GAMES: 'error.noGames',
  ERR_NOTHING_TO_MOVE: 'error.nothingToMove',
  ERR_GONE: 'error.gone',
  ERR_PAYLOAD_TOO_LARGE: 'error.tooLarge',
  ERR_UNSUPPORTED_MEDIA_TYPE: 'error.mediaType',
  ERR_URI_TOO_LONG: 'error.uriTooLong',
  ERR_METHOD_NOT_ALLOWED: 'error.method',
  ERR_VALIDATION: 'error.validation',
  ERR_BAD_REQUEST: 'error.badRequest',
};

/** Codes whose English message says what exactly was wrong: the page shows it too, marked as English. */
const DETAILED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ERR_VALIDATION',
  'ERR_BAD_REQUEST',
  'ERR_LAYOUT',
  'ERR_LAYOUT_NAME',
]);

/**
 * The error page's data: its title and sentence in the request's language. Services write their messages
 * in English, saying exactly what was wrong: an English page shows that message itself; another language
 * shows its code's sentence, and for a code whose detail matters (a file or form we could not read) the
 * English detail after it, marked `lang="en"` (docs/i18n.md, "The catalogs").
 */
export function errorPage(i18n: Translator, status: number, code: ErrorCode, message: string, requestId: string) {
  const title = i18n.t(TITLE_KEYS[status] ?? 'error.title.other');
  if (i18n.lang === DEFAULT_LANG) return { i18n, title, status, message: sentence(message), detail: null };
  const key = PAGE_MESSAGE_KEYS[code] ?? (status >= 500 ? 'error.internal' : 'error.other');
  return {
    i18n,
    title,
    status,
    message: i18n.t(key, { id: requestId }),
    detail: DETAILED.has(code) ? sentence(message) : null,
  };
}

/** A sentence from a message: capital first letter, full stop. */
const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?…]$/.test(s) ? '' : '.'}`;

/**
 * A readable message for a schema validation error, for the first few issues: where, then what, for
 * the API (`body.moves.0.a: a tile index is a number`); only what, for a person reading a page.
 */
function validationMessage(error: FastifyError, where: boolean): string {
  if (!hasZodFastifySchemaValidationErrors(error)) return error.message;
  const context = error.validationContext ?? 'request';
  return error.validation
    .slice(0, 3)
    .map((issue) => {
      const path = issue.instancePath.split('/').filter(Boolean).join('.');
      return where ? `${context}${path ? '.' + path : ''}: ${issue.message}` : issue.message;
    })
    .join('; ');
}

/**
 * Sends an error in the shape the route family expects: the API's body with its code (and `extra` keys,
 * such as a refused batch's log), or the error page.
 */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  extra?: Readonly<Record<string, unknown>>,
  pageKey?: string, // what the error page says instead of its code's sentence (a catalog key)
): FastifyReply {
  const status = ERROR_STATUS[code];
  reply.code(status);
  if (isApi(request)) return reply.send({ error: message, code, ...extra });
  const page = errorPage(request.i18n, status, code, message, request.id);
  return reply.page(
    'error',
    pageKey && request.lang !== DEFAULT_LANG ? { ...page, message: request.i18n.t(pageKey) } : page,
  );
}

/** Sends a service's refusal: its status (from its code) and message, with Retry-After when it has one. */
export function sendRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
  extra?: Readonly<Record<string, unknown>>,
): FastifyReply {
  if (refusal.retryAfterS !== undefined) reply.header('retry-after', String(refusal.retryAfterS));
  return sendError(request, reply, refusal.code, refusal.message, extra);
}

/** Seconds a client is asked to wait (Retry-After) when the database cannot be reached: a restart takes a few. */
export const UNAVAILABLE_RETRY_S = 2;
/** Seconds a client is asked to wait when the database cannot store (a full disk, read-only): an operator's fix. */
export const STORAGE_RETRY_S = 30;

/** 503 `ERR_UNAVAILABLE` with Retry-After, in the shape of the route family. */
function sendUnavailable(request: FastifyRequest, reply: FastifyReply, retryS: number, message: string): FastifyReply {
  reply.code(503).header('retry-after', String(retryS));
  if (isApi(request)) return reply.send({ error: message, code: 'ERR_UNAVAILABLE' });
  return reply.page('error', errorPage(request.i18n, 503, 'ERR_UNAVAILABLE', message, request.id));
}

/**
 * The error handler; set on the root before any route plugin, so every context inherits it. An error that
 * says the database cannot be reached just now (DatabaseProbe.unavailable: a restart, a failover) answers
 * 503 `ERR_UNAVAILABLE` with Retry-After, which the page's sync honours, instead of a 500; so does a storage
 * failure (a full disk, a read-only or damaged database: routes/health.ts WriteFailures), which /healthz reports.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const context = { err: error, method: request.method, url: request.url, params: request.params, reqId: request.id };
    if (status === 500 && request.server.databaseProbe?.unavailable(error)) {
      // The database is away for a moment (a restart, a failover): not our bug, and worth trying again soon.
      request.server.writeFailures?.record(error.code);
      request.log.warn(
        { code: error.code, message: error.message, method: request.method, url: request.url, reqId: request.id },
        'the database cannot be reached: answered 503',
      );
      if (reply.sent) return;
      const message = `the game's database cannot be reached just now; try again in a few seconds (request ${request.id})`;
      return sendUnavailable(request, reply, UNAVAILABLE_RETRY_S, message);
    }
    if (status === 500 && request.server.writeFailures?.record(error.code)) {
      // A full disk, a read-only or damaged database: the operator must act (logged as an error), but it is no
      // bug of the request's nor ours; /healthz answers 503 while it lasts (routes/health.ts).
      request.server.metrics.databaseError(error);
      request.log.error({ ...context, code: error.code }, 'a database write failed: answered 503');
      if (reply.sent) return;
      const message = `the game's database cannot store anything just now; try again later (request ${request.id})`;
      return sendUnavailable(request, reply, STORAGE_RETRY_S, message);
    }
    if (status >= 500) {
      request.server.metrics.databaseError(error); // counted when the database failed it (plugins/metrics.ts)
      request.log.error(context, 'request failed');
    } else request.log.info({ ...context, err: { message: error.message, code: error.code } }, 'request refused');
    const message =
      status >= 500
        ? `something went wrong on our side; it was logged as request ${request.id}`
        : validationMessage(error, isApi(request));
    if (reply.sent) return;
    const code = codeOf(error, status);
    reply.code(status); // a status without a code of its own (a 408 from a plugin) keeps its number
    if (isApi(request)) return reply.send({ error: message, code });
    return reply.page('error', errorPage(request.i18n, status, code, message, request.id));
  });
}

/**
 * Errors fastify raises before a route runs (a path parameter longer than the router allows, a
 * malformed URL): the same shapes as every other error.
 */
export function frameworkError(
  app: FastifyInstance,
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 400;
  request.log.info(
    { err: { message: error.message, code: error.code }, method: request.method, url: request.url },
    'request refused',
  );
  const message =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 'a part of this address is too long' : 'this address is malformed';
  baseHeaders(request, reply); // these answers skip the onSend hooks
  reply.headers(SECURITY_HEADERS); // and helmet's onRequest hook: the same CSP and headers as every page
  if (isApi(request)) void reply.code(status).send({ error: message, code: codeOf(error, status) });
  else
    void reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(
        app.renderPartial(
          'error',
          errorPage(i18n().of(requestLang(request)), status, codeOf(error, status), message, request.id),
        ),
      );
}

/** The not-found handler, rate limited (needs the security plugin loaded). */
export function registerNotFoundHandler(app: FastifyInstance): void {
  app.setNotFoundHandler({ preHandler: app.rateLimit(LIMITS.notFound) }, (request, reply) =>
    sendError(
      request,
      reply,
      'ERR_NOT_FOUND',
      isApi(request)
        ? `there is no ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}`
        : 'there is no page at this address',
    ),
  );
}
