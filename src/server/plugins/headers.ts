/** Headers every answer carries (docs/http.md, "Headers every answer carries"). */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sameOriginPath } from '../view-models/location.ts';

export const REQUEST_ID_HEADER = 'x-request-id';
export const CACHE_DEFAULT = 'private, no-cache';
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/; // no spaces, quotes or controls

/** A trusted proxy's plain id, else a per-app prefix and a counter. */
export function requestIdMaker(trusted: boolean) {
  const prefix = randomBytes(6).toString('base64url');
  let count = 0;
  return (request: { headers: Record<string, string | string[] | undefined> }): string => {
    const given = trusted ? request.headers[REQUEST_ID_HEADER] : undefined;
    return typeof given === 'string' && REQUEST_ID.test(given) ? given : `${prefix}${(count++).toString(36)}`;
  };
}

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
