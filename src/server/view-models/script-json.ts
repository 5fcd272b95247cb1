/** JSON for `<script type="application/json">`, escaped so nothing can close the element. */

export const scriptJson = (json: string): string =>
  json
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');

export const scriptData = (value: unknown): string => scriptJson(JSON.stringify(value));
