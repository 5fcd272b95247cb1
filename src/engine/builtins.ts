/**
 * The built-in layouts and their families, in picker order (the first sixteen here, the rest in gallery.ts).
 * Ids
 * and slots are in shared links, so they never change (test/engine/builtins.test.ts pins them;
 * docs/engine.md, "Layouts").
 */
import * as G from './gallery.ts';
import * as P from './portrait.ts';
import type { Layout, Slot } from './types.ts';
import { build, centredRows, column, mirrorX, rect, ring, row, shift, stack, stroke, tile } from './shapes.ts';

/** The traditional turtle: 87 + 36 + 16 + 4 + 1 tiles. */
const TURTLE = build('turtle', 'Turtle', 'The classic: 144 tiles in five layers, a turtle with head and tail', [
  centredRows(14, 0, [12, 8, 10, 12, 12, 10, 8, 12]), // the shell's base, 84 tiles
  tile(0, 7), // the head, between rows 4 and 5
  tile(26, 7), // the tail, two tiles
  tile(28, 7),
  rect(8, 2, 6, 6, 1),
  rect(10, 4, 4, 4, 2),
  rect(12, 6, 2, 2, 3),
  tile(13, 7, 4), // straddles the 2 × 2 below
]);

const GARDEN = build('garden', 'Garden', 'Small and flat: 40 tiles, nearly all on one layer, for a first game', [
  centredRows(8, 0, [6, 8, 8, 8, 6]),
  rect(6, 4, 2, 2, 1),
]);

const HEART = build('heart', 'Heart', 'A small heart with raised lobes, tapering to a point', [
  row(2, 0, 3), // the lobes
  row(12, 0, 3),
  centredRows(10, 2, [10, 10, 7, 5, 3, 1]),
  row(3, 1, 2, 1), // raised, straddling the rows below
  row(13, 1, 2, 1),
  centredRows(10, 4, [6, 4, 2], 1),
]);

const FISH = build('fish', 'Fish', 'A plump fish with a raised back and a forked tail', [
  centredRows(10, 2, [5, 8, 10, 8, 5]),
  centredRows(10, 4, [6, 7, 6], 1),
  tile(20, 6), // the tail fans out from here
  column(22, 4, 3),
  column(24, 2, 5),
  tile(26, 0), // and forks
  tile(26, 12),
]);

const WIN = build('win', 'Win', 'The word WIN drawn in strokes one tile wide', [
  column(0, 0, 7), // W
  column(8, 0, 7),
  column(4, 6, 3),
  tile(2, 12),
  tile(6, 12),
  row(12, 0, 3), // I
  column(14, 2, 5),
  row(12, 12, 3),
  column(20, 0, 7), // N
  column(28, 0, 7),
  stroke(22, 2, 5, 1, 2), // in half-tile steps across
  [0, 8, 14, 20, 28].map((x) => column(x, 2, 5, 1)).flat(),
]);

const CROSS = build('cross', 'Cross', 'A plus sign two tiles thick, its arms stepping up to the centre', [
  [0, 1, 2, 3].map((z) => [rect(8, 2 * z, 2, 8 - 2 * z, z), rect(2 * z, 6, 10 - 2 * z, 2, z)]).flat(2),
]);

/** The left half of the butterfly. */
const WING: readonly Slot[] = [
  row(0, 0, 4),
  row(1, 2, 5),
  row(3, 4, 5),
  row(6, 6, 4),
  row(5, 9, 4),
  row(3, 11, 4),
  row(3, 13, 3),
  row(3, 2, 3, 1), // spots on the forewing
  row(6, 4, 3, 1),
  row(5, 11, 2, 1), // and on the hindwing
].flat();
const BUTTERFLY = build('butterfly', 'Butterfly', 'Two broad wings either side of a slim, tall body', [
  WING,
  mirrorX(WING, 16),
  column(15, 2, 6), // the body
  column(15, 3, 4, 1),
  tile(11, 0), // antennae
  tile(19, 0),
]);

const TOWERS = build(
  'towers',
  'Towers',
  'Six slender towers, five tiles tall, on two low fields and in the street between',
  [
    rect(0, 0, 5, 6), // the fields
    rect(14, 0, 5, 6),
    stack(2, 2, 4, 1), // towers on the fields
    stack(2, 8, 4, 1),
    stack(20, 2, 4, 1),
    stack(20, 8, 4, 1),
    stack(11, 2, 5), // towers standing in the street
    stack(11, 8, 5),
  ],
);

/** Honeycomb rows: tile pairs with a one-tile hole after each. */
const combRow = (x: number, y: number, cells: number, z = 0): Slot[] =>
  Array.from({ length: cells }, (_, i) => row(x + 6 * i, y, 2, z)).flat();
const COMB_CELLS = [4, 5, 4, 5, 4, 5, 4]; // tile pairs per row
const HONEYCOMB = build('honeycomb', 'Honeycomb', 'Tile pairs around a lattice of holes, like cells in a comb', [
  COMB_CELLS.map((cells, r) => combRow(cells === 4 ? 3 : 0, 2 * r, cells)).flat(),
  [1, 3, 5].map((r) => combRow(6, 2 * r, 3, 1)).flat(),
  [2, 4].map((r) => combRow(9, 2 * r, 2, 1)).flat(),
  combRow(12, 6, 1, 2),
]);

const RING = build('ring', 'Ring', 'A square ring around an empty court, its inner wall laid like bricks', [
  ring(0, 0, 10, 8),
  ring(2, 2, 8, 6),
  row(3, 2, 7, 1), // the second course
  row(3, 12, 7, 1),
  column(2, 5, 3, 1),
  column(16, 5, 3, 1),
  row(4, 2, 6, 2), // the third course
  row(4, 12, 6, 2),
  column(2, 6, 2, 2),
  column(16, 6, 2, 2),
]);

const BRIDGE = build('bridge', 'Bridge', 'A deck spanning the gap between two banks, its middle over thin air', [
  rect(0, 0, 3, 8), // the banks
  rect(20, 0, 3, 8),
  rect(2, 4, 3, 4, 1), // their inner column over the water
  rect(18, 4, 3, 4, 1),
  rect(0, 6, 13, 2, 2), // its middle five columns rest on nothing
]);

const DIAMOND = build('diamond', 'Diamond', 'A diamond of half-offset rows, stacked to a point', [
  centredRows(10, 0, [2, 4, 6, 8, 10, 8, 6, 4, 2]),
  centredRows(10, 2, [1, 3, 5, 7, 5, 3, 1], 1),
  centredRows(10, 4, [2, 4, 6, 4, 2], 2),
  centredRows(10, 6, [1, 3, 1], 3),
  centredRows(10, 8, [2], 4),
]);

const OUTER_TURN: readonly Slot[] = [row(0, 0, 14), column(26, 2, 7), row(0, 16, 13), column(0, 4, 6)].flat();
const MIDDLE_TURN: readonly Slot[] = [row(2, 4, 10), column(22, 6, 4), row(6, 12, 8)].flat();
const INNER_TURN: readonly Slot[] = [column(6, 8, 2), row(8, 8, 4)].flat();
const SPIRAL = build('spiral', 'Spiral', 'A narrow path spiralling inwards and upwards to a tower at its heart', [
  OUTER_TURN,
  MIDDLE_TURN,
  shift(MIDDLE_TURN, 0, 0, 1),
  [0, 1, 2].map((z) => shift(INNER_TURN, 0, 0, z)).flat(),
  stack(14, 8, 2, 3),
]);

const PYRAMID = build('pyramid', 'Pyramid', 'A broad stepped pyramid, its layers set in by half tiles', [
  rect(0, 0, 11, 7),
  rect(5, 2, 6, 5, 1),
  rect(8, 4, 3, 3, 2),
]);

const CORNERS = [
  [0, 0],
  [20, 0],
  [0, 12],
  [20, 12],
] as const; // top-left tile of each tower
const isGate = (s: Slot): boolean => (s.x === 10 || s.x === 12) && (s.y === 0 || s.y === 14);
const FORTRESS = build('fortress', 'Fortress', 'Walls two layers high, four corner towers, two gates and a keep', [
  [0, 1].map((z) => ring(0, 0, 12, 8, z).filter((s) => !isGate(s))).flat(),
  CORNERS.map(([x, y]) => [0, 1, 2, 3].map((z) => rect(x, y, 2, 2, z))).flat(2),
  rect(9, 5, 3, 3), // the keep
  rect(10, 6, 2, 2, 1),
  tile(11, 7, 2),
]);

/** One flight: the same block on every layer, a tile and a half further right each. */
const FLIGHT: readonly Slot[] = [0, 1, 2, 3, 4].map((z) => rect(3 * z, 0, 4, 2, z)).flat();
const STAIRS = build('stairs', 'Stairs', 'Three flights of stairs, back and forth, in steps of a tile and a half', [
  FLIGHT,
  mirrorX(shift(FLIGHT, 0, 5), 10),
  shift(FLIGHT, 0, 10),
]);

export interface LayoutFamily {
  readonly id: string; // url-safe, the home page's anchor
  readonly name: string;
  readonly description: string;
  readonly layouts: readonly Layout[]; // smallest first (classic: the turtle first)
}

/** The families in picker order; each built-in layout in exactly one. */
export const FAMILIES: readonly LayoutFamily[] = [
  {
    id: 'classic',
    name: 'Classic',
    description: 'Mounds and rings in the traditional manner, stacked to a peak',
    layouts: [TURTLE, RING, DIAMOND, PYRAMID, G.LOTUS, G.MOUNTAIN, G.IMPERIAL],
  },
  {
    id: 'animals',
    name: 'Animals',
    description: 'Creatures drawn in tiles, their heads, backs and tails raised',
    layouts: [FISH, G.RABBIT, BUTTERFLY, G.CAT, G.SNAIL, G.OWL, G.ELEPHANT],
  },
  {
    id: 'letters',
    name: 'Letters and symbols',
    description: 'Words and signs in strokes a tile wide: long rows, few layers',
    layouts: [G.ANCHOR, HEART, WIN, G.ZEN, G.INFINITY, G.CRESCENT, CROSS, G.COMPASS, SPIRAL],
  },
  {
    id: 'towers',
    name: 'Towers',
    description: 'Tall stacks, walls and buildings: take them down from the top',
    layouts: [G.LIGHTHOUSE, TOWERS, BRIDGE, FORTRESS, STAIRS, G.PAGODA, G.COLONNADE, G.SKYLINE],
  },
  {
    id: 'flat',
    name: 'Flat and wide',
    description: 'Broad boards of one or two layers, where most tiles are open early',
    layouts: [HONEYCOMB, G.ISLANDS, G.TERRACES, G.RIVER, G.MOSAIC, G.PLAINS],
  },
  {
    id: 'small',
    name: 'Small and quick',
    description: 'Sixty tiles or fewer: a game in a few minutes',
    layouts: [G.MUSHROOM, GARDEN, G.KITE, G.PINWHEEL, G.TEACUP],
  },
  {
    id: 'portrait',
    name: 'Portrait',
    description: 'Tall and narrow for a phone held upright: big tiles, no zooming',
    layouts: [
      P.TULIP,
      P.LANTERN,
      P.VASE,
      P.KEYHOLE,
      P.HOURGLASS,
      P.PINE,
      P.BOTTLE,
      P.FOUNTAIN,
      P.GATE,
      P.BEEHIVE,
      P.KEEP,
      P.SPIRE,
    ],
  },
];

export const LAYOUTS: readonly Layout[] = FAMILIES.flatMap((f) => f.layouts);

const FAMILY_OF: ReadonlyMap<string, LayoutFamily> = new Map(
  FAMILIES.flatMap((f) => f.layouts.map((l) => [l.id, f] as const)),
);

export const familyOf = (id: string): LayoutFamily | undefined => FAMILY_OF.get(id);

/** As `layouts` and `GET /api/layouts` list them (docs/contracts.md). */
export const layoutSummaries = (): { id: string; name: string; tiles: number; family: string }[] =>
  FAMILIES.flatMap((f) => f.layouts.map((l) => ({ id: l.id, name: l.name, tiles: l.slots.length, family: f.id })));

const BY_ID: ReadonlyMap<string, Layout> = new Map(LAYOUTS.map((l) => [l.id, l]));

export const layoutById = (id: string): Layout | undefined => BY_ID.get(id);
