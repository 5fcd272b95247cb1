/**
 * The error and not-found handlers (one of each, as in fastify/demo).
 *
 * Errors are logged with method, url, params and the request id. A 4xx answers
 * with its message; a 5xx never shows its message or stack, only the request id
 * to quote. /api/* answers `{"error": "..."}`; everything else gets the HTML
 * error page in the site's style.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { baseHeaders } from './plugins/headers.ts';
import { LIMITS, SECURITY_HEADERS } from './plugins/security.ts';
import type { DealLookup } from './services/dealer.ts';

export const isApi = (request: FastifyRequest): boolean => request.url.startsWith('/api/');

const TITLES: Record<number, string> = {
  400: 'That request does not look right',
  403: 'That is not yours',
  404: 'Nothing here',
  409: 'That cannot be done now',
  413: 'That is too much at once',
  415: 'That format is not accepted',
  429: 'Slow down a little',
};

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

/** Sends an error to the client in the shape the route family expects (the API's with its code, if any). */
export function sendError(
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  message: string,
  code?: string,
): FastifyReply {
  reply.code(status);
  if (isApi(request)) return reply.send(code === undefined ? { error: message } : { error: message, code });
  return reply.page('error', { title: TITLES[status] ?? 'Something went wrong', status, message });
}

/** Sends a failed deal lookup: its status and message, with Retry-After when it was a budget refusal. */
export function sendDealFailure(
  request: FastifyRequest,
  reply: FastifyReply,
  failure: Extract<DealLookup, { ok: false }>,
): FastifyReply {
  if (failure.retryAfterS !== undefined) reply.header('retry-after', String(failure.retryAfterS));
  return sendError(request, reply, failure.status, failure.message);
}

/** The error handler; set on the root before any route plugin, so every context inherits it. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    const context = { err: error, method: request.method, url: request.url, params: request.params, reqId: request.id };
    if (status >= 500) {
      request.log.error(context, 'request failed');
      // A full disk or an I/O error: /healthz reports it (503) while it lasts (routes/health.ts).
      if (request.server.writeFailures?.record(error.code))
        request.log.error({ code: error.code }, 'a database write failed');
    } else request.log.info({ ...context, err: { message: error.message, code: error.code } }, 'request refused');
    const message =
      status >= 500
        ? `something went wrong on our side; it was logged as request ${request.id}`
        : validationMessage(error, isApi(request));
    if (reply.sent) return;
    const code = status < 500 && error.code?.startsWith('ERR_') ? error.code : undefined; // ours, not fastify's FST_…
    return sendError(request, reply, status, message, code);
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
  if (isApi(request)) void reply.code(status).send({ error: message });
  else
    void reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(app.renderPartial('error', { title: TITLES[400], status, message }));
}

/** The not-found handler, rate limited (needs the security plugin loaded). */
export function registerNotFoundHandler(app: FastifyInstance): void {
  app.setNotFoundHandler({ preHandler: app.rateLimit(LIMITS.notFound) }, (request, reply) =>
    sendError(
      request,
      reply,
      404,
      isApi(request)
        ? `there is no ${request.method} ${request.url.split('?')[0]!.slice(0, 200)}`
        : 'there is no page at this address',
    ),
  );
}
