/**
 * The large-print face set (docs/client.md, "Faces"), for small screens and low vision: every suit tile is
 * a big numeral inside its suit's marks, which differ by place and shape as well as colour (dots a coin in each
 * corner, bamboo a jointed stalk down each side, characters a bar across the top and the bottom; numeral and
 * marks in the suit's colour: blue, green, red). Winds are a big Latin letter (E S W N) over an arrow pointing
 * that way; the dragons a big letter-free symbol each (red: the box and bar of 中; green: a sprout; white: a
 * double frame); flowers a blossom and seasons a sun, each over its number 1 to 4.
 *
 * Numerals and letters are our own strokes on a 60 × 88 box, bold and open so that 3, 5, 6, 8 and 9 stay
 * apart when a tile is 22 px wide: a round 3 beside a flat-topped 5, a closed 4, and a 6 and a 9 drawn as a
 * ring on a straight stroke, unlike the two rings of the 8.
 */
import { FACES } from '../../src/engine/types.ts';
import { disc, fill, line, num, paint, sprite, strokes, symbol, use, type Colour, type Glyph } from './draw.ts';

const g = (d: string): Glyph => ({ w: 60, h: 88, d });

/** The digits 1 to 9. */
export const DIGITS: readonly Glyph[] = [
  g('M14 20L32 6V82M14 82H50'),
  g('M10 24Q12 6 30 6Q50 6 50 25Q50 40 32 56L10 82H52'),
  g('M10 16Q13 6 30 6Q48 6 48 23Q48 39 30 41Q50 43 50 61Q50 82 29 82Q13 82 8 71'),
  g('M40 82V6L6 60H54'),
  g('M48 6H14L12 40Q20 34 30 34Q50 34 50 58Q50 82 28 82Q14 82 8 72'),
  g('M41 6L15 49M30 43Q49 43 49 62Q49 81 30 81Q11 81 11 62Q11 43 30 43Z'),
  g('M8 6H52L22 82'),
  g('M30 42Q12 42 12 24Q12 6 30 6Q48 6 48 24Q48 42 30 42Q8 42 8 62Q8 82 30 82Q52 82 52 62Q52 42 30 42Z'),
  g('M30 7Q49 7 49 26Q49 45 30 45Q11 45 11 26Q11 7 30 7ZM45 39L19 82'),
];

/** The winds' letters E, S, W, N. */
export const LETTERS: readonly Glyph[] = [
  g('M46 6H10V82H46M10 44H40'),
  g('M46 14Q40 6 28 6Q10 6 10 24Q10 38 30 44Q50 50 50 64Q50 82 30 82Q14 82 8 72'),
  g('M4 6L16 82L30 30L44 82L56 6'),
  g('M10 82V6L50 82V6'),
];

const SUIT: Record<'d' | 'b' | 'c', Colour> = { d: 'blue', b: 'green', c: 'red' };

/**
 * The suits' marks, around the numeral: dots a coin in each corner, bamboo a jointed stalk down each side,
 * characters a bar across the top and the bottom. They differ by place and shape, not by colour alone, and
 * each reaches several edges of the face: a raised tile is drawn up and to the left of its place, so a
 * neighbour raised over a part of this one hides a quarter, a half or a strip of it, and some of the marks
 * stay in view whichever part that is.
 */
const SYMBOLS = [
  `<g id="l-d">${[
    [8, 8],
    [52, 8],
    [8, 72],
    [52, 72],
  ]
    .map(([x, y]) => disc(x!, y!, 5.6, 'blue'))
    .join('')}</g>`,
  `<g id="l-b">${line('M7 9V71M53 9V71', 'green', 5.4)}${line('M3.5 30H10.5M3.5 50H10.5M49.5 30H56.5M49.5 50H56.5', 'ink', 2)}</g>`,
  `<g id="l-c">${line('M18 7H42M18 73H42', 'red', 6.4)}</g>`,
];

/** The big numeral of a suit tile, in the suit's colour, inside its marks. */
const numeral = (n: number, colour: Colour): string => strokes(DIGITS[n - 1]!, 13, 15, 34, 7.5, colour);

function suits(): { defs: string[]; symbols: string[] } {
  const defs = [...SYMBOLS];
  const symbols: string[] = [];
  for (const suit of ['d', 'b', 'c'] as const) {
    for (let n = 1; n <= 9; n++) symbols.push(symbol(`${suit}${n}`, numeral(n, SUIT[suit]) + use(`l-${suit}`)));
  }
  return { defs, symbols };
}

/** An arrow pointing right, centred on (30, 69.5), turned to point where a wind comes from on a map. */
const arrow = (turn: number): string =>
  line('M19 69.5H41M33 61.5L41 69.5L33 77.5', 'blue', 5, turn ? ` transform="rotate(${turn} 30 69.5)"` : '');

function honours(): string[] {
  const letter = (i: number): string => strokes(LETTERS[i]!, 12, 1, 36, 8, 'ink');
  const winds = [0, 90, 180, 270].map((turn, i) => symbol(['we', 'ws', 'ww', 'wn'][i]!, letter(i) + arrow(turn)));
  const red = line('M10 22V54H50M10 22H50V54M30 4V76', 'red', 7);
  const green =
    line('M30 76V34', 'green', 6) +
    fill('M30 36Q18 24 30 4Q42 24 30 36Z', 'green') +
    fill('M28 52Q12 56 4 40Q20 34 28 52Z', 'green') +
    fill('M32 52Q48 56 56 40Q40 34 32 52Z', 'green');
  const white =
    `<rect x="8" y="8" width="44" height="64" rx="3" fill="none" stroke-width="6" style="stroke:${paint('blue')}"/>` +
    `<rect x="18" y="18" width="24" height="44" fill="none" stroke-width="3" style="stroke:${paint('blue')}"/>`;
  return [...winds, symbol('dr', red), symbol('dg', green), symbol('dw', white)];
}

/** The small number under a flower's or season's picture. */
const bonusNumber = (n: number): string => strokes(DIGITS[n - 1]!, 20, 49, 20, 5.8, 'ink');

function bonus(): string[] {
  const petals = Array.from({ length: 5 }, (_, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
    return disc(30 + Math.cos(a) * 11, 25 + Math.sin(a) * 11, 8.2, 'pink');
  }).join('');
  const blossom = `<g id="l-f">${petals}${disc(30, 25, 4.2, 'ink')}</g>`;
  const rays = Array.from({ length: 8 }, (_, i) => {
    const a = (i * Math.PI) / 4;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    return `M${num(30 + c * 14)} ${num(25 + s * 14)}L${num(30 + c * 21)} ${num(25 + s * 21)}`;
  }).join('');
  const sun = `<g id="l-s">${disc(30, 25, 9.5, 'orange')}${line(rays, 'orange', 4.2)}</g>`;
  const faces = [1, 2, 3, 4].flatMap((n) => [
    symbol(`f${n}`, use('l-f') + bonusNumber(n)),
    symbol(`s${n}`, use('l-s') + bonusNumber(n)),
  ]);
  // FACES lists the flowers before the seasons
  return [...faces.filter((s) => s.includes('id="f')), ...faces.filter((s) => s.includes('id="s')), blossom, sun];
}

/** The large-print set's sprite: the same form as public/faces.svg (scripts/face-sheets.ts draws its sheets). */
export function largeSprite(): string {
  const suit = suits();
  const extra = bonus();
  const pieces = extra.slice(8);
  const symbols = [...suit.symbols, ...honours(), ...extra.slice(0, 8)];
  const ids = symbols.map((s) => /id="([^"]+)"/.exec(s)![1]);
  if (ids.join() !== FACES.join()) throw new Error(`large-print faces out of order: ${ids.join()}`);
  return sprite(
    'Mahjong tile faces, the large-print set, drawn for this project by scripts/faces/large.ts.',
    [...suit.defs, ...pieces],
    symbols,
  );
}
