/**
 * Data for the page's script, in `<script type="application/json">`: `<`, `>` and `&` are escaped so nothing in
 * it can close the element (or open a comment), and U+2028/9 for old parsers. The one escaping every page uses.
 */

/** JSON text made safe to stand in a script element. */
export const scriptJson = (json: string): string =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

/** A value as JSON safe to stand in a script element. */
export const scriptData = (value: unknown): string => scriptJson(JSON.stringify(value));
