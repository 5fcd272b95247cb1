/**
 * Where a redirect may send a browser: a path on this site, never another origin (docs/operations.md,
 * "Security"). Every `Location` the server sends goes through `sameOriginPath` (plugins/headers.ts), and the
 * redirects built from request data (the lang, tiles and theme pickers) call it themselves.
 */

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
