/**
 * Small helpers for the face sprites drawn in code (scripts/faces/traditional.ts, large.ts): colours that
 * follow the theme, paths moved and scaled from the box they were designed in, and the sprite's frame.
 *
 * Conventions every sprite keeps (test/client/faces.test.ts checks them): one `<symbol id="<face>"
 * viewBox="0 0 60 80">` per face of FACES, shared pieces in `<defs>` with ids that are not face ids, no
 * text, fonts or outside references, and every colour a theme property with the light theme's value as the
 * fallback (`style="stroke:var(--f-red,#c8352b)"`), so a face sheet in any theme's colours is the same
 * sprite (scripts/face-sheets.ts).
 */

/** The faces' colours: the `--f-*` properties of public/css/site.css, with their light values as fallbacks. */
export const LIGHT = {
  ink: '#1d2a35',
  blue: '#2a5ea8',
  red: '#c8352b',
  green: '#2f8048',
  purple: '#7b43a6',
  teal: '#16888a',
  pink: '#d44d86',
  orange: '#c4600f',
} as const;
export type Colour = keyof typeof LIGHT;

/** A colour as the sprite writes it: the theme's property with the light value as fallback. */
export const paint = (colour: Colour): string => `var(--f-${colour},${LIGHT[colour]})`;

/** Rounds to at most two decimals, without trailing zeros (paths stay short). */
export const num = (value: number): string => String(Math.round(value * 100) / 100);

/** The number of coordinates each absolute path command takes, by axis ('x' or 'y'). */
const ARGS: Record<string, readonly ('x' | 'y')[]> = {
  M: ['x', 'y'],
  L: ['x', 'y'],
  T: ['x', 'y'],
  H: ['x'],
  V: ['y'],
  Q: ['x', 'y', 'x', 'y'],
  S: ['x', 'y', 'x', 'y'],
  C: ['x', 'y', 'x', 'y', 'x', 'y'],
  Z: [],
};

/**
 * A path of absolute commands (M L H V Q S C T Z; no arcs) scaled by `s` about the origin and then moved by
 * (dx, dy). Commands may repeat their arguments as SVG allows (`L1 2 3 4`).
 */
export function move(d: string, s: number, dx: number, dy: number): string {
  const tokens = d.match(/[A-Za-z]|-?\d*\.?\d+(?:e-?\d+)?/g) ?? [];
  let out = '';
  let command = '';
  let axis = 0;
  for (const token of tokens) {
    if (/^[A-Za-z]$/.test(token)) {
      if (!(token in ARGS)) throw new Error(`path command ${token} is not supported in ${d}`);
      command = token;
      axis = 0;
      out += token;
      continue;
    }
    const axes = ARGS[command];
    if (!axes || axes.length === 0) throw new Error(`a number without a command in ${d}`);
    const which = axes[axis % axes.length]!;
    const value = Number(token) * s + (which === 'x' ? dx : dy);
    const text = num(value);
    out += axis > 0 && !text.startsWith('-') ? ` ${text}` : text;
    axis++;
  }
  return out;
}

/** A glyph: strokes designed in a box `w` × `h` (the numbers of `d`), drawn with round ends. */
export interface Glyph {
  readonly w: number;
  readonly h: number;
  readonly d: string;
}

/**
 * A glyph's strokes as one path, scaled so its box is `width` wide and placed with its box's top left at
 * (x, y); `weight` is the stroke width in face units.
 */
export function strokes(glyph: Glyph, x: number, y: number, width: number, weight: number, colour: Colour): string {
  const s = width / glyph.w;
  return (
    `<path d="${move(glyph.d, s, x, y)}" fill="none" stroke-width="${num(weight)}" stroke-linecap="round" ` +
    `stroke-linejoin="round" style="stroke:${paint(colour)}"/>`
  );
}

/** A filled path in a colour. */
export const fill = (d: string, colour: Colour, extra = ''): string =>
  `<path d="${d}"${extra} style="fill:${paint(colour)}"/>`;

/** A stroked path in a colour (round ends). */
export const line = (d: string, colour: Colour, width: number, extra = ''): string =>
  `<path d="${d}" fill="none" stroke-width="${num(width)}" stroke-linecap="round" stroke-linejoin="round"${extra} style="stroke:${paint(colour)}"/>`;

/** A filled circle. */
export const disc = (cx: number, cy: number, r: number, colour: Colour): string =>
  `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" style="fill:${paint(colour)}"/>`;

/** A circle's outline. */
export const ring = (cx: number, cy: number, r: number, width: number, colour: Colour, extra = ''): string =>
  `<circle cx="${num(cx)}" cy="${num(cy)}" r="${num(r)}" fill="none" stroke-width="${num(width)}"${extra} style="stroke:${paint(colour)}"/>`;

/** A `<use>` of a shared piece, moved (and scaled) into place. */
export const use = (id: string, x = 0, y = 0, scale = 1, extra = ''): string =>
  `<use href="#${id}"${x || y || scale !== 1 ? ` transform="translate(${num(x)} ${num(y)})${scale !== 1 ? ` scale(${num(scale)})` : ''}"` : ''}${extra}/>`;

/** One face's symbol in the 60 × 80 face box. */
export const symbol = (id: string, body: string): string => `<symbol id="${id}" viewBox="0 0 60 80">${body}</symbol>`;

/** The sprite document: a comment saying what it is, the shared pieces, the faces. */
export function sprite(comment: string, defs: readonly string[], symbols: readonly string[]): string {
  if (comment.includes('--')) throw new Error('an XML comment cannot hold "--"');
  return (
    `<svg xmlns="http://www.w3.org/2000/svg">\n<!-- ${comment} -->\n<defs>\n${defs.join('\n')}\n</defs>\n` +
    `${symbols.join('\n')}\n</svg>\n`
  );
}
