/** Redirects go to paths on this site only (docs/operations.md, "Security"). */
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `raw` when it is a path of this site, else `/`. Not `//` nor `/\`, even percent-encoded: browsers read both
 * as another host. No control character, space, nor `\` in the path (read as `/`).
 */
export function sameOriginPath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/')) return '/';
  if (/^\/(?:[/\\]|%2f|%5c)/i.test(raw)) return '/';
  let inPath = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || (inPath && c === 0x5c)) return '/'; // no control character in a header
    if (c === 0x3f || c === 0x23) inPath = false; // '?' or '#'
  }
  return raw;
}

/** A hook taking `?name=…` off a page's address (303), handing its values to `keep`. */
export function takeQueryChoice(
  name: string,
  keep: (values: string[], request: FastifyRequest, reply: FastifyReply) => void,
): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply | undefined> {
  const asked = new RegExp(`(?:^|&)${name}(?:=|&|$)`);
  return async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return undefined;
    const q = request.url.indexOf('?');
    if (q < 0) return undefined;
    const path = request.url.slice(0, q);
    const search = request.url.slice(q + 1);
    if (!asked.test(search) || path.startsWith('/api/') || path.startsWith('/static/')) return undefined;
    const params = new URLSearchParams(search);
    keep(params.getAll(name), request, reply);
    params.delete(name);
    const rest = params.toString();
    return reply.redirect(sameOriginPath(`${path}${rest ? `?${rest}` : ''}`), 303); // '//host' would leave the site
  };
}
