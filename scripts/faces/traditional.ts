/**
 * The traditional face set (docs/client.md, "Faces"): the characters suit as 一…九 over 萬, the winds
 * 東 南 西 北, the red 中, the green 發 and the white dragon as a framed blank; dots as coins and bamboo as
 * jointed sticks in the arrangements traditional sets use, the 1 of bamboo a bird; the four flowers (plum,
 * orchid, chrysanthemum, bamboo) and four seasons (spring swallow, summer lotus, autumn moon and goose, winter
 * pine) as pictures with their number in the corner (flowers at the left, seasons at the right).
 *
 * Every character is our own drawing: strokes of even width with round ends (a plain "hei" hand, which stays
 * legible when small), designed on a box of 100 units (萬 100 × 110) and placed by `strokes`. Colours: ink
 * for numbers and winds, red for 萬 and 中, green for 發; never more than two colours besides the ink on a face.
 */
import { FACES } from '../../src/engine/types.ts';
import {
  disc,
  fill,
  line,
  move,
  num,
  paint,
  ring,
  sprite,
  strokes,
  symbol,
  use,
  type Colour,
  type Glyph,
} from './draw.ts';

const g = (d: string, w = 100, h = 100): Glyph => ({ w, h, d });

/** The numbers one to nine as the characters suit writes them. */
export const NUMERALS: readonly Glyph[] = [
  g('M6 50H94'),
  g('M20 30H80M6 72H94'),
  g('M18 16H82M26 48H74M6 84H94'),
  g('M12 14V86H88V14ZM40 14Q40 48 24 60M60 14V50Q60 58 68 58H88'),
  g('M14 12H86M44 12L38 48M24 48H72V88M4 88H96'),
  g('M46 2L56 18M6 32H94M36 50Q30 72 10 90M62 50Q76 70 90 88'),
  g('M6 56L94 38M40 4V76Q40 90 54 90H86Q92 90 92 78'),
  g('M38 10Q38 60 6 90M60 20Q64 66 96 86'),
  g('M44 4Q44 62 6 92M12 34H64V76Q64 90 76 90H84Q92 90 94 78'),
];

/** 萬, the characters suit's mark (100 × 110). */
export const WAN = g(
  'M6 13H94M30 2V24M70 2V24' + // 艹
    'M22 32V56M22 32H78V56M22 44H78M22 56H78M50 32V78' + // 田 and its stem
    'M10 66V108M10 66H90V100Q90 108 80 108' + // 冂
    'M50 78L32 98L74 96M62 84L74 96', // 厶
  100,
  110,
);

export const EAST = g('M8 16H92M50 2V98M24 28V62M24 28H76V62M24 45H76M24 62H76M44 64Q32 82 6 92M56 64Q70 82 94 92');
export const SOUTH = g(
  'M10 13H90M50 2V24M16 32V98M16 32H84V90Q84 98 74 98M36 40L42 50M64 40L58 50M30 60H70M24 76H76M50 60V98',
);
export const WEST = g('M6 12H94M40 12Q40 52 26 62M60 12V54Q60 62 68 62H76M16 32V94M16 32H84V94M16 88H84');
export const NORTH = g('M36 6V94M12 40H36M6 84L36 70M90 28L64 44M64 6V80Q64 92 76 92H88Q94 92 94 80');
export const MIDDLE = g('M14 28V72H86M14 28H86V72M50 2V98');
export const FORTUNE = g(
  'M8 8H32Q24 22 8 32M18 18L30 28' + // 癶, left
    'M60 2Q58 14 48 22M64 10Q74 26 96 32M76 4L84 12' + // 癶, right
    'M10 40H36V54H14V66H38V88Q38 96 28 94' + // 弓
    'M60 38V48Q58 58 50 62M60 38H76V52Q76 58 82 58H92' + // 几
    'M54 70H86Q78 86 52 98M62 78Q72 92 96 98', // 又
);

/** A coin (dots suit): an outer ring, a dashed inner ring and a centre, all in one colour; radius 9. */
const COIN =
  '<g id="t-coin"><circle r="8.2" fill="none" stroke="currentColor" stroke-width="2.4"/>' +
  '<circle r="4.6" fill="none" stroke="currentColor" stroke-width="1.9" stroke-dasharray="2.3 1.3"/>' +
  '<circle r="2" fill="currentColor"/></g>';

/** A bamboo stick (bamboo suit): two segments, waisted between nodes; 24 tall, centred on 0. */
const STICK =
  '<path id="t-stick" d="M-3.6-12H3.6Q2-6 3.6 0Q2 6 3.6 12H-3.6Q-2 6-3.6 0Q-2-6-3.6-12Z" fill="currentColor"/>';

const coin = (x: number, y: number, colour: Colour, scale = 1): string =>
  use('t-coin', x, y, scale, ` style="color:${paint(colour)}"`);
const stick = (x: number, y: number, colour: Colour, scale = 1, turn = 0): string =>
  `<use href="#t-stick" transform="translate(${num(x)} ${num(y)})${turn ? ` rotate(${turn})` : ''}${scale !== 1 ? ` scale(${num(scale)})` : ''}" style="color:${paint(colour)}"/>`;

/** The dots suit: coins in the traditional arrangements and colours (ink, green, red). */
function dots(): string[] {
  const one =
    ring(30, 40, 24, 3.2, 'green') +
    ring(30, 40, 19.5, 2.6, 'red', ' stroke-dasharray="3 2.1"') +
    Array.from({ length: 8 }, (_, i) => {
      const a = (i * Math.PI) / 4;
      return disc(30 + Math.cos(a) * 12, 40 + Math.sin(a) * 12, 3.2, 'green');
    }).join('') +
    disc(30, 40, 6.5, 'red') +
    disc(30, 40, 2.4, 'ink');
  const ink: Colour = 'ink';
  const layouts: [number, number, Colour, number][][] = [
    [
      [30, 21, 'green', 1.55],
      [30, 59, ink, 1.55],
    ],
    [
      [14, 14, ink, 1.2],
      [30, 40, 'red', 1.2],
      [46, 66, 'green', 1.2],
    ],
    [
      [17, 22, ink, 1.3],
      [43, 22, 'green', 1.3],
      [17, 58, 'green', 1.3],
      [43, 58, ink, 1.3],
    ],
    [
      [14, 15, ink, 1.1],
      [46, 15, 'green', 1.1],
      [30, 40, 'red', 1.15],
      [14, 65, 'green', 1.1],
      [46, 65, ink, 1.1],
    ],
    [
      [17, 12, 'green', 1],
      [43, 12, 'green', 1],
      [17, 42, 'red', 1],
      [43, 42, 'red', 1],
      [17, 67, 'red', 1],
      [43, 67, 'red', 1],
    ],
    [
      [11, 9, 'green', 0.85],
      [30, 17, 'green', 0.85],
      [49, 25, 'green', 0.85],
      [18, 48, 'red', 0.9],
      [42, 48, 'red', 0.9],
      [18, 68, 'red', 0.9],
      [42, 68, 'red', 0.9],
    ],
    [0, 1, 2, 3].flatMap((row): [number, number, Colour, number][] => [
      [18, 11 + row * 19.3, ink, 0.95],
      [42, 11 + row * 19.3, ink, 0.95],
    ]),
    [0, 1, 2].flatMap((row): [number, number, Colour, number][] =>
      [12, 30, 48].map((x): [number, number, Colour, number] => [
        x,
        15 + row * 25,
        (['ink', 'red', 'green'] as const)[row]!,
        0.9,
      ]),
    ),
  ];
  return [
    symbol('d1', one),
    ...layouts.map((coins, i) =>
      symbol(`d${i + 2}`, coins.map(([x, y, colour, scale]) => coin(x, y, colour, scale)).join('')),
    ),
  ];
}

/** The 1 of bamboo: a peacock on a bamboo stem, its tail fanned with eyes. */
function bird(): string {
  const tail = ['M31 44Q40 60 38 76', 'M33 44Q46 58 50 74', 'M35 43Q50 52 58 64'];
  return (
    line('M10 78H40', 'ink', 2.4) +
    line(tail.join(''), 'green', 2.6) +
    disc(38, 76, 3.2, 'red') +
    disc(50, 73.5, 3.2, 'red') +
    disc(57.5, 63.5, 3.2, 'red') +
    fill('M16 30Q22 22 32 28Q40 34 38 44Q34 54 22 52Q12 48 16 30Z', 'green') + // body
    fill('M14 32Q10 22 16 14Q22 8 26 12Q28 18 22 22Q18 26 20 32Z', 'green') + // neck and head
    line('M20 10L18 3M22 10L24 3M24 11L30 5', 'ink', 1.4) + // crest
    fill('M15 14L6 17L15 19Z', 'red') + // beak
    disc(20, 15, 1.5, 'ink') +
    line('M20 30Q28 34 30 44', 'ink', 1.6) + // wing
    line('M24 52L22 68M30 52L32 68', 'ink', 2) // legs
  );
}

/** The bamboo suit: sticks (green, ink; red for the middle of 5, 7 and 9) in the traditional arrangements. */
function bamboo(): string[] {
  const ink: Colour = 'ink';
  type S = [number, number, Colour, number, number?];
  const layouts: S[][] = [
    [
      [30, 21, 'green', 1.45],
      [30, 59, ink, 1.45],
    ],
    [
      [30, 21, ink, 1.4],
      [17, 59, 'green', 1.4],
      [43, 59, 'green', 1.4],
    ],
    [
      [17, 21, ink, 1.4],
      [43, 21, 'green', 1.4],
      [17, 59, 'green', 1.4],
      [43, 59, ink, 1.4],
    ],
    [
      [12, 20, 'green', 1.3],
      [48, 20, ink, 1.3],
      [30, 40, 'red', 1.3],
      [12, 60, ink, 1.3],
      [48, 60, 'green', 1.3],
    ],
    [
      [12, 21, 'green', 1.35],
      [30, 21, 'green', 1.35],
      [48, 21, 'green', 1.35],
      [12, 59, ink, 1.35],
      [30, 59, ink, 1.35],
      [48, 59, ink, 1.35],
    ],
    [
      [30, 14, 'red', 0.95],
      ...[12, 30, 48].flatMap((x): S[] => [
        [x, 42, 'green', 0.95],
        [x, 67, 'green', 0.95],
      ]),
    ],
    [
      [9, 21, 'green', 1.15],
      [51, 21, 'green', 1.15],
      [23, 21, ink, 1.15, 24],
      [37, 21, ink, 1.15, -24],
      [9, 59, 'green', 1.15],
      [51, 59, 'green', 1.15],
      [23, 59, ink, 1.15, -24],
      [37, 59, ink, 1.15, 24],
    ],
    [0, 1, 2].flatMap((row) =>
      [12, 30, 48].map((x, col): S => [x, 14.5 + row * 25.5, col === 1 ? 'red' : 'green', 0.95]),
    ),
  ];
  return [
    symbol('b1', bird()),
    ...layouts.map((sticks, i) =>
      symbol(`b${i + 2}`, sticks.map(([x, y, colour, scale, turn]) => stick(x, y, colour, scale, turn)).join('')),
    ),
  ];
}

/** The characters suit: the number over 萬 (shared pieces in defs). */
function characters(): { defs: string[]; symbols: string[] } {
  const defs = [
    `<g id="t-wan">${strokes(WAN, 12, 39.5, 36, 2.6, 'red')}</g>`,
    ...NUMERALS.map((glyph, i) => `<g id="t-n${i + 1}">${strokes(glyph, 12, 2.5, 36, 3.9, 'ink')}</g>`),
  ];
  const symbols = NUMERALS.map((_, i) => symbol(`c${i + 1}`, use(`t-n${i + 1}`) + use('t-wan')));
  return { defs, symbols };
}

/** The winds and dragons: one large character each; the white dragon a framed blank. */
function honours(): string[] {
  const big = (glyph: Glyph, colour: Colour, weight = 4.4): string => strokes(glyph, 6, 16, 48, weight, colour);
  return [
    symbol('we', big(EAST, 'ink')),
    symbol('ws', big(SOUTH, 'ink')),
    symbol('ww', big(WEST, 'ink')),
    symbol('wn', big(NORTH, 'ink')),
    symbol('dr', big(MIDDLE, 'red', 5.4)),
    symbol('dg', big(FORTUNE, 'green', 3.6)),
    symbol(
      'dw',
      `<rect x="8" y="8" width="44" height="64" rx="2" fill="none" stroke-width="4.2" style="stroke:${paint('blue')}"/>` +
        `<rect x="15.5" y="15.5" width="29" height="49" fill="none" stroke-width="2" style="stroke:${paint('blue')}"/>`,
    ),
  ];
}

/** The corner number of a flower (left) or season (right): 一 二 三 四, small, in ink. */
const cornerNumber = (n: number, right: boolean): string =>
  strokes(NUMERALS[n - 1]!, right ? 44 : 2, 2, 14, 2.6, 'ink');

/** Five round petals around (x, y). */
const blossom = (x: number, y: number, r: number, colour: Colour): string =>
  Array.from({ length: 5 }, (_, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
    return disc(x + Math.cos(a) * r * 0.95, y + Math.sin(a) * r * 0.95, r * 0.72, colour);
  }).join('') + disc(x, y, r * 0.38, 'ink');

/** The four flowers: plum, orchid, chrysanthemum, bamboo. */
function flowers(): string[] {
  const plum =
    line('M12 78Q18 62 30 54Q40 46 40 30M30 54Q44 52 52 40M24 64Q16 56 14 44', 'ink', 2.8) +
    blossom(40, 26, 6.5, 'red') +
    blossom(51, 42, 5.5, 'red') +
    blossom(15, 40, 5.5, 'red') +
    disc(30, 40, 2.6, 'pink');
  const orchid =
    line('M30 78Q22 56 6 44M30 78Q32 58 50 46M30 78Q40 66 56 64M30 78Q24 66 12 64', 'green', 2.6) +
    fill('M30 18Q36 26 30 36Q24 26 30 18Z', 'purple') +
    fill('M30 36Q40 28 48 30Q42 38 30 36Z', 'purple') +
    fill('M30 36Q20 28 12 30Q18 38 30 36Z', 'purple') +
    fill('M30 36Q36 44 34 50Q28 44 30 36Z', 'purple') +
    line('M30 36V54', 'green', 2);
  const petals = Array.from({ length: 16 }, (_, i) => {
    const a = (i * Math.PI) / 8;
    const [c, s] = [Math.cos(a), Math.sin(a)];
    return `M${num(32 + c * 6)} ${num(32 + s * 6)}L${num(32 + c * 17)} ${num(32 + s * 17)}`;
  }).join('');
  const chrysanthemum =
    line('M32 50V78M32 64Q22 58 14 62M32 70Q42 64 50 68', 'green', 2.6) +
    line(petals, 'orange', 3.4) +
    disc(32, 32, 6, 'orange') +
    disc(32, 32, 2.4, 'ink');
  const leaf = (x: number, y: number, turn: number): string =>
    fill(move('M0 0Q8-4 20-2Q8 2 0 0Z', 1, 0, 0), 'green', ` transform="translate(${x} ${y}) rotate(${turn})"`);
  const bambooFlower =
    line('M26 78V20', 'green', 5) +
    line('M23 62H29M23 42H29M23 24H29', 'ink', 1.6) +
    line('M28 42Q38 36 44 28M28 62Q36 58 40 50', 'ink', 1.4) +
    leaf(44, 28, -30) +
    leaf(42, 30, 20) +
    leaf(40, 50, -10) +
    leaf(26, 34, 200) +
    leaf(26, 52, 160);
  return [plum, orchid, chrysanthemum, bambooFlower].map((art, i) =>
    symbol(`f${i + 1}`, cornerNumber(i + 1, false) + art),
  );
}

/** The four seasons: a swallow over willow (spring), a lotus (summer), the moon and a goose (autumn), a pine in snow (winter). */
function seasons(): string[] {
  const spring =
    line('M6 22Q20 20 26 34M14 22Q12 40 14 54M20 26Q22 44 26 58', 'green', 1.8) +
    fill(
      'M34 44Q44 36 58 40Q48 42 44 46Q52 52 56 62Q44 54 40 50Q36 58 26 62Q32 54 34 48Q28 46 22 48Q28 42 34 44Z',
      'ink',
    ) +
    disc(31, 44, 2, 'red');
  const summer =
    fill('M4 70Q30 58 56 70Q30 80 4 70Z', 'green') +
    line('M30 64V46', 'green', 2.4) +
    fill('M30 18Q38 30 30 46Q22 30 30 18Z', 'pink') +
    fill('M30 46Q44 26 54 28Q50 42 30 46Z', 'pink') +
    fill('M30 46Q16 26 6 28Q10 42 30 46Z', 'pink');
  const autumn =
    disc(34, 34, 17, 'orange') +
    fill('M12 58Q20 50 30 54L40 50Q34 56 30 58Q22 62 12 58Z', 'ink') +
    line('M24 54L16 46M24 55L18 62', 'ink', 1.8) +
    line('M6 76Q20 68 30 74Q42 80 56 72', 'teal', 2.2);
  const tiers = ['M30 14L42 30H18Z', 'M30 26L48 46H12Z', 'M30 40L54 64H6Z'];
  const winter =
    line('M30 64V78', 'ink', 4) +
    tiers.map((d) => fill(d, 'green')).join('') +
    line('M22 29Q30 26 38 29M17 45Q30 41 43 45M11 63Q30 58 49 63', 'teal', 2.4) +
    disc(10, 22, 1.8, 'teal') +
    disc(50, 16, 1.8, 'teal') +
    disc(52, 36, 1.8, 'teal');
  return [spring, summer, autumn, winter].map((art, i) => symbol(`s${i + 1}`, cornerNumber(i + 1, true) + art));
}

/** The traditional set's sprite: the same form as public/faces.svg (scripts/face-sheets.ts draws its sheets). */
export function traditionalSprite(): string {
  const chars = characters();
  const symbols = [...dots(), ...bamboo(), ...chars.symbols, ...honours(), ...flowers(), ...seasons()];
  const ids = symbols.map((s) => /id="([^"]+)"/.exec(s)![1]);
  if (ids.join() !== FACES.join()) throw new Error(`traditional faces out of order: ${ids.join()}`);
  return sprite(
    'Mahjong tile faces, the traditional set, drawn for this project by scripts/faces/traditional.ts.',
    [COIN, STICK, ...chars.defs],
    symbols,
  );
}
