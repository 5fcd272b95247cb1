/** The error contract: `ERR_…` codes, their statuses, and the one error and not-found handler (docs/http.md, "Errors"). */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { baseHeaders } from './plugins/headers.ts';
import { requestLang } from './plugins/i18n.ts';
import { i18n, type Translator } from './services/i18n.ts';
import { DEFAULT_LANG } from '../shared/i18n.ts';
import { LIMITS, SECURITY_HEADERS } from './plugins/security.ts';

/** Every error code and its status (docs/server.md, "Errors and limits"). */
export const ERROR_STATUS = {
  ERR_VALIDATION: 400,
  ERR_BAD_REQUEST: 400,
  ERR_FORBIDDEN: 403,
  ERR_NOT_FOUND: 404,
  ERR_METHOD_NOT_ALLOWED: 405,
  ERR_GONE: 410,
  ERR_REQUEST_TIMEOUT: 408,
  ERR_URI_TOO_LONG: 414,
  ERR_PAYLOAD_TOO_LARGE: 413,
  ERR_UNSUPPORTED_MEDIA_TYPE: 415,
  ERR_HEADERS_TOO_LARGE: 431,
  ERR_RATE_LIMITED: 429,
  ERR_INTERNAL: 500,
  ERR_UNAVAILABLE: 503,
  ERR_GROWTH: 429,
  ERR_CPU: 429,
  ERR_CPU_FULL: 503,
  ERR_UNKNOWN_LAYOUT: 404,
  ERR_SEED: 400,
  ERR_UNCLEARABLE: 409,
  ERR_TIMEOUT: 409,
  ERR_QUEUE: 429,
  ERR_NEW_DEALS: 429,
  ERR_NEW_DEALS_FULL: 503,
  ERR_BUSY: 503,
  ERR_WORKER: 503,
  ERR_NO_DEAL_IN_BAND: 404,
  ERR_LAYOUT: 400,
  ERR_LAYOUT_TOO_SLOW: 400,
  ERR_LAYOUT_CLASH: 409,
  ERR_NEW_LAYOUTS: 429,
  ERR_NEW_LAYOUTS_FULL: 503,
  ERR_LAYOUT_NAME: 400,
  ERR_LAYOUT_NAMES_FULL: 409,
  ERR_NOT_NAMER: 403,
  ERR_GAME_NOT_FOUND: 404,
  ERR_NOT_YOUR_GAME: 403,
  ERR_GAME_FINISHED: 409,
  ERR_CONFLICT: 409,
  ERR_MOVE_GAP: 409,
  ERR_TOO_MANY_MOVES: 409,
  ERR_TOO_MANY_HINTS: 409,
  ERR_TOO_MANY_CHECKS: 409,
  ERR_TOO_MANY_SHUFFLES: 409,
  ERR_NO_SUCH_TILE: 409,
  ERR_SAME_TILE: 409,
  ERR_REMOVED: 409,
  ERR_NOT_FREE: 409,
  ERR_NO_MATCH: 409,
  ERR_NOTHING_TO_UNDO: 409,
  ERR_NOTHING_TO_REDO: 409,
  ERR_CANNOT_SHUFFLE: 409,
  ERR_GAME_OVER: 409,
  ERR_NO_REPLAY: 404,
  ERR_NO_CHALLENGE: 404,
  ERR_NOT_WON: 409,
  ERR_CHALLENGE_DEAL: 409,
  ERR_NO_RACE: 404,
  ERR_RACE_FULL: 409,
  ERR_RACE_OVER: 409,
  ERR_RACE_STREAMS: 429,
  ERR_RACE_NOT_STARTED: 409, // a move before the race's start
  ERR_NOT_RACE_HOST: 403, // a start asked by someone other than the race's maker
  ERR_NO_GAMES: 404,
  ERR_NOTHING_TO_MOVE: 409,
} as const satisfies Record<`ERR_${string}`, number>;

export type ErrorCode = keyof typeof ERROR_STATUS;
export const ERROR_CODES = Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]];

export const isErrorCode = (code: unknown): code is ErrorCode =>
  typeof code === 'string' && Object.hasOwn(ERROR_STATUS, code);

/** A refusal as services return it: a code and a message. */
export interface Refusal {
  readonly ok: false;
  readonly code: ErrorCode;
  readonly message: string;
  readonly retryAfterS?: number;
}

export const ApiErrorSchema = z.object({ error: z.string(), code: z.enum(ERROR_CODES) });

/** A refused move batch (409) also says where the server stands. */
export const MovesRefusalSchema = ApiErrorSchema.extend({
  index: z.number().int().optional(),
  moves: z.number().int().optional(), // the server's moves, hints included
  log: z.array(z.unknown()).optional(),
});

/** An API route's error answers (400, 404, 429, 500 and `statuses`). */
export function errorResponses<const S extends readonly number[]>(
  ...statuses: S
): Record<S[number] | 400 | 404 | 429 | 500, typeof ApiErrorSchema> {
  const all = new Set<number>([400, 404, 429, 500, ...statuses]);
  return Object.fromEntries([...all].map((s) => [s, ApiErrorSchema])) as Record<
    S[number] | 400 | 404 | 429 | 500,
    typeof ApiErrorSchema
  >;
}

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

/** Its own code when it is ours, else its status's. */
export function codeOf(error: { code?: unknown; validation?: unknown }, status: number): ErrorCode {
  if (status >= 500 && status !== 503) return 'ERR_INTERNAL';
  if (isErrorCode(error.code)) return error.code;
  if (status === 400 && (error.validation !== undefined || error.code === 'FST_ERR_VALIDATION'))
    return 'ERR_VALIDATION';
  return CODE_OF_STATUS[status] ?? (status >= 500 ? 'ERR_INTERNAL' : 'ERR_BAD_REQUEST');
}

export const isApi = (request: FastifyRequest): boolean => request.url.startsWith('/api/');

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

/** What the error page says for a code; the API keeps the English message. */
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

/** Codes whose English detail the page shows too. */
const DETAILED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ERR_VALIDATION',
  'ERR_BAD_REQUEST',
  'ERR_LAYOUT',
  'ERR_LAYOUT_NAME',
]);

/** The error page's title and sentence. */
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

const sentence = (s: string): string => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?…]$/.test(s) ? '' : '.'}`;

/** A validation message: where and what for the API, only what for a page. */
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

/** Sends an error as the API body or the error page. */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
  extra?: Readonly<Record<string, unknown>>,
  pageKey?: string, // a catalog key said instead of its code's sentence
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

/** Sends a service's refusal. */
export function sendRefusal(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
  extra?: Readonly<Record<string, unknown>>,
): FastifyReply {
  if (refusal.retryAfterS !== undefined) reply.header('retry-after', String(refusal.retryAfterS));
  return sendError(request, reply, refusal.code, refusal.message, extra);
}

/** Retry-After when the database cannot be reached. */
export const UNAVAILABLE_RETRY_S = 2;
/** Retry-After when the database cannot store: an operator must act. */
export const STORAGE_RETRY_S = 30;

function sendUnavailable(request: FastifyRequest, reply: FastifyReply, retryS: number, message: string): FastifyReply {
  reply.code(503).header('retry-after', String(retryS));
  if (isApi(request)) return reply.send({ error: message, code: 'ERR_UNAVAILABLE' });
  return reply.page('error', errorPage(request.i18n, 503, 'ERR_UNAVAILABLE', message, request.id));
}

/** The error handler, set on the root before any route plugin. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const context = { err: error, method: request.method, url: request.url, params: request.params, reqId: request.id };
    if (status === 500 && request.server.databaseProbe?.unavailable(error)) {
      // The database is away for a moment: not our bug.
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
      // Full disk, read-only or damaged database: the operator must act.
      request.server.metrics.databaseError(error);
      request.log.error({ ...context, code: error.code }, 'a database write failed: answered 503');
      if (reply.sent) return;
      const message = `the game's database cannot store anything just now; try again later (request ${request.id})`;
      return sendUnavailable(request, reply, STORAGE_RETRY_S, message);
    }
    if (status >= 500) {
      request.server.metrics.databaseError(error);
      request.log.error(context, 'request failed');
    } else request.log.info({ ...context, err: { message: error.message, code: error.code } }, 'request refused');
    const message =
      status >= 500
        ? `something went wrong on our side; it was logged as request ${request.id}`
        : validationMessage(error, isApi(request));
    if (reply.sent) return;
    const code = codeOf(error, status);
    reply.code(status);
    if (isApi(request)) return reply.send({ error: message, code });
    return reply.page('error', errorPage(request.i18n, status, code, message, request.id));
  });
}

/** Errors fastify raises before a route runs, in the usual shapes. */
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
  reply.headers(SECURITY_HEADERS); // and helmet's
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

/** The rate-limited not-found handler. */
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
