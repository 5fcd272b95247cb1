/**
 * Where a redirect may send a browser: a path on this site, never another origin (docs/operations.md,
 * "Security"). Every `Location` the server sends goes through `sameOriginPath` (plugins/headers.ts), and the
 * redirects built from request data (the lang, tiles and theme pickers) call it themselves.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * `raw` when it is a path of this site, else `/`: it starts with one `/` and not `//` nor `/\` (browsers read
 * both as another host), nor their percent-encoded forms (a proxy may decode them), and holds no control
 * character or space, nor a backslash in its path (a browser reads `\` there as `/`).
 */
export function sameOriginPath(raw: unknown): string {
  if (typeof raw !== 'string' || !raw.startsWith('/')) return '/';
  if (/^\/(?:[/\\]|%2f|%5c)/i.test(raw)) return '/';
  let inPath = true;
  for (let i = 0; i < raw.length; i++) {
    const c = raw.charCodeAt(i);
    if (c <= 0x20 || c === 0x7f || (inPath && c === 0x5c)) return '/'; // no control character in a header
    if (c === 0x3f || c === 0x23) inPath = false; // '?' or '#': the path ends
  }
  return raw;
}

/**
 * An onRequest hook that takes a choice (`?name=…`, the lang and tiles pickers' links) off a page's address (a
 * GET or HEAD outside /api/ and /static/): `keep` is given the query's values of it, and the browser goes to the
 * same address without it (303), so an address shown, kept or shared never carries the choice.
 */
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
