/**
 * Headers every answer carries, and the request id they name.
 *
 * - `X-Request-Id`: the id of the request in the logs, so a player's report of a failure finds its
 *   lines (the 500 page quotes it too).
 * - `Cache-Control`: static files and public API reads set their own; everything else is about a
 *   player (their cookie, their game) or an error: never kept by a shared cache, revalidated by
 *   the browser (`private, no-cache`).
 * - `Connection: close` while the server drains and closes (readiness.ts): a balancer keeps no idle
 *   connection to a process leaving the fleet, and answers to requests still in flight close their
 *   connection, or a client's keep-alive connection would hold the close open until it timed out
 *   (server.ts waits 10 s).
 *
 * - `Location`: a path of this site, else `/` (view-models/location.ts): no redirect leaves our origin.
 *
 * One onSend hook does all four (each hook costs a little on every request). Answers to errors
 * fastify raises before routing (frameworkErrors) skip the hooks: errors.ts calls `baseHeaders`.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sameOriginPath } from '../view-models/location.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CACHE_DEFAULT = 'private, no-cache';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/; // what we accept from a proxy: no spaces, quotes or control characters

/**
 * The request id maker (fastify's `genReqId`): the proxy's X-Request-Id when we trust the proxy
 * and the id is plain, so one id follows a request through both logs; else 8 random url-safe
 * characters drawn once per app (so ids stay unique across restarts and processes, unlike
 * fastify's bare counter) and a counter: a random draw per request cost a tenth of a small
 * request's time. A client that is not our proxy cannot choose its id: it could otherwise make its
 * requests look like someone else's in the logs.
 */
export function requestIdMaker(trusted: boolean) {
  const prefix = randomBytes(6).toString('base64url');
  let count = 0;
  return (request: { headers: Record<string, string | string[] | undefined> }): string => {
    const given = trusted ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : `${prefix}${(count++).toString(36)}`;
  };
}

/** Sets the headers every answer carries (see the module comment); `closing`: the server is closing. */
export function baseHeaders(request: FastifyRequest, reply: FastifyReply, closing = false): void {
  reply.header(REQUEST_ID_HEADER, request.id);
  if (closing) reply.header('connection', 'close');
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', CACHE_DEFAULT);
  const location = reply.getHeader('location');
  if (location !== undefined) reply.header('location', sameOriginPath(location)); // no redirect leaves our origin
}

async function headersPlugin(fastify: FastifyInstance): Promise<void> {
  let closing = false;
  fastify.addHook('preClose', (done) => {
    closing = true;
    done();
  });
  fastify.addHook('onSend', (request, reply, _payload, done) => {
    baseHeaders(request, reply, closing || fastify.readiness.draining !== null);
    done();
  });
}

export default fp(headersPlugin, { name: 'headers' });
