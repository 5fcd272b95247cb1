/**
 * The built-in layouts and their families, in the order the layout picker shows them.
 *
 * Implementation notes: every layout is drawn with the small shape helpers of shapes.ts (rows,
 * rectangles, rings, columns, stacks, strokes, small pictures) in half-tile units, so a shape reads
 * as a short recipe rather than a table of coordinates. The first sixteen are here, the others in
 * gallery.ts. Whether each layout is valid and can be cleared is checked by
 * test/engine/builtins.test.ts, not here: these modules only hold data. A layout's id and slots are
 * part of every shared link to it, so they never change (the test pins them).
 *
 * All layouts are our own designs except the turtle, whose shape is the traditional one (layers of
 * 87, 36, 16, 4 and 1 tiles). Every board fits in 36 × 20 half tiles, so it fits a screen in either
 * orientation.
 */
import * as G from './gallery.ts';
import * as P from './portrait.ts';
import type { Layout, Slot } from './types.ts';
import { build, centredRows, column, mirrorX, rect, ring, row, shift, stack, stroke, tile } from './shapes.ts';

// ---------------------------------------------------------------------------
// The first sixteen layouts.

/** The traditional turtle: 87 + 36 + 16 + 4 + 1 tiles. */
const TURTLE = build('turtle', 'Turtle', 'The classic: 144 tiles in five layers, a turtle with head and tail', [
  centredRows(14, 0, [12, 8, 10, 12, 12, 10, 8, 12]), // the shell's base, 84 tiles
  tile(0, 7), // the head, between rows 4 and 5
  tile(26, 7), // the tail, two tiles
  tile(28, 7),
  rect(8, 2, 6, 6, 1),
  rect(10, 4, 4, 4, 2),
  rect(12, 6, 2, 2, 3),
  tile(13, 7, 4), // the cap straddles the 2 × 2 below it
]);

/** A beginner's board: one wide layer and a few tiles on top. */
const GARDEN = build('garden', 'Garden', 'Small and flat: 40 tiles, nearly all on one layer, for a first game', [
  centredRows(8, 0, [6, 8, 8, 8, 6]),
  rect(6, 4, 2, 2, 1),
]);

/** A heart: two lobes over rows narrowing half a tile a side, then a tile a side. */
const HEART = build('heart', 'Heart', 'A small heart with raised lobes, tapering to a point', [
  row(2, 0, 3), // the lobes
  row(12, 0, 3),
  centredRows(10, 2, [10, 10, 7, 5, 3, 1]),
  row(3, 1, 2, 1), // raised lobes, straddling the rows below
  row(13, 1, 2, 1),
  centredRows(10, 4, [6, 4, 2], 1),
]);

/** A fish swimming left: a body of centred rows with a raised back, and a forked tail. */
const FISH = build('fish', 'Fish', 'A plump fish with a raised back and a forked tail', [
  centredRows(10, 2, [5, 8, 10, 8, 5]),
  centredRows(10, 4, [6, 7, 6], 1),
  tile(20, 6), // the tail fans out from here
  column(22, 4, 3),
  column(24, 2, 5),
  tile(26, 0), // and forks
  tile(26, 12),
]);

/** The word WIN in strokes one tile wide, the uprights two tiles high. */
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
  stroke(22, 2, 5, 1, 2), // the diagonal, in half-tile steps across
  [0, 8, 14, 20, 28].map((x) => column(x, 2, 5, 1)).flat(), // the uprights' second storey
]);

/** A plus sign whose arms step up towards the centre. */
const CROSS = build('cross', 'Cross', 'A plus sign two tiles thick, its arms stepping up to the centre', [
  [0, 1, 2, 3].map((z) => [rect(8, 2 * z, 2, 8 - 2 * z, z), rect(2 * z, 6, 10 - 2 * z, 2, z)]).flat(2),
]);

/** The left half of the butterfly: a broad forewing above a smaller hindwing. */
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

/**
 * Tall single-tile towers on two low fields and in the street between them. No
 * tower tile can pair within its own tower (each covers the next), so towers pair
 * with one another and with the fields. The street matters too: one field of
 * rows twelve tiles long, opened only at the ends, makes most classic deals
 * unsolvable; two fields of rows five long do not.
 */
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

/**
 * Honeycomb rows: `cells` pairs of tiles with a one-tile hole after each pair.
 * Rows alternately start half a cell (3 half tiles) in, so the holes form a
 * hexagonal lattice.
 */
const combRow = (x: number, y: number, cells: number, z = 0): Slot[] =>
  Array.from({ length: cells }, (_, i) => row(x + 6 * i, y, 2, z)).flat();
const COMB_CELLS = [4, 5, 4, 5, 4, 5, 4]; // tile pairs per row; rows of 4 start half a cell in
const HONEYCOMB = build('honeycomb', 'Honeycomb', 'Tile pairs around a lattice of holes, like cells in a comb', [
  COMB_CELLS.map((cells, r) => combRow(cells === 4 ? 3 : 0, 2 * r, cells)).flat(),
  [1, 3, 5].map((r) => combRow(6, 2 * r, 3, 1)).flat(), // the middle cells raised a layer
  [2, 4].map((r) => combRow(9, 2 * r, 2, 1)).flat(),
  combRow(12, 6, 1, 2),
]);

/**
 * A square ring two tiles thick, its inner course built up in brick bond: each
 * upper course sits half a tile along from the one below. The outer course stays
 * low and open, so the ring can be worked from outside as well as from the top.
 */
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

/** Two banks, abutments reaching out over the water, and a deck across the gap. */
const BRIDGE = build('bridge', 'Bridge', 'A deck spanning the gap between two banks, its middle over thin air', [
  rect(0, 0, 3, 8), // the banks
  rect(20, 0, 3, 8),
  rect(2, 4, 3, 4, 1), // abutments, their inner column over the water
  rect(18, 4, 3, 4, 1),
  rect(0, 6, 13, 2, 2), // the deck: its middle five columns rest on nothing
]);

/** A diamond of centred rows; odd layers sit half a tile across from even ones. */
const DIAMOND = build('diamond', 'Diamond', 'A diamond of half-offset rows, stacked to a point', [
  centredRows(10, 0, [2, 4, 6, 8, 10, 8, 6, 4, 2]),
  centredRows(10, 2, [1, 3, 5, 7, 5, 3, 1], 1),
  centredRows(10, 4, [2, 4, 6, 4, 2], 2),
  centredRows(10, 6, [1, 3, 1], 3),
  centredRows(10, 8, [2], 4),
]);

/** A path one tile wide that spirals inwards, climbing a layer with each turn. */
const OUTER_TURN: readonly Slot[] = [row(0, 0, 14), column(26, 2, 7), row(0, 16, 13), column(0, 4, 6)].flat();
const MIDDLE_TURN: readonly Slot[] = [row(2, 4, 10), column(22, 6, 4), row(6, 12, 8)].flat();
const INNER_TURN: readonly Slot[] = [column(6, 8, 2), row(8, 8, 4)].flat();
const SPIRAL = build('spiral', 'Spiral', 'A narrow path spiralling inwards and upwards to a tower at its heart', [
  OUTER_TURN,
  MIDDLE_TURN,
  shift(MIDDLE_TURN, 0, 0, 1),
  [0, 1, 2].map((z) => shift(INNER_TURN, 0, 0, z)).flat(),
  stack(14, 8, 2, 3), // the tower on the path's last tile
]);

/**
 * A broad stepped pyramid: each layer one tile in at top and bottom, and two and
 * a half, then one and a half tiles in at either end (half-tile offsets across).
 * Wide margins on every layer keep classic deals solvable: with steps of half a
 * tile all round, every lower tile stays covered until the layer above is gone,
 * and nearly every shuffled deal is lost from the start.
 */
const PYRAMID = build('pyramid', 'Pyramid', 'A broad stepped pyramid, its layers set in by half tiles', [
  rect(0, 0, 11, 7),
  rect(5, 2, 6, 5, 1),
  rect(8, 4, 3, 3, 2),
]);

/**
 * A walled square with a tower at each corner, a gate in the north and south
 * walls, and a keep in the middle. The gates matter: without them each wall is
 * one long row locked at both ends by towers, and classic deals are rarely
 * solvable.
 */
const CORNERS = [
  [0, 0],
  [20, 0],
  [0, 12],
  [20, 12],
] as const; // top-left tile of each corner tower
const isGate = (s: Slot): boolean => (s.x === 10 || s.x === 12) && (s.y === 0 || s.y === 14);
const FORTRESS = build('fortress', 'Fortress', 'Walls two layers high, four corner towers, two gates and a keep', [
  [0, 1].map((z) => ring(0, 0, 12, 8, z).filter((s) => !isGate(s))).flat(),
  CORNERS.map(([x, y]) => [0, 1, 2, 3].map((z) => rect(x, y, 2, 2, z))).flat(2),
  rect(9, 5, 3, 3), // the keep
  rect(10, 6, 2, 2, 1),
  tile(11, 7, 2),
]);

/**
 * One flight of stairs, two tiles deep: the same block of tiles on every layer,
 * each one a tile and a half further right than the one below, so every step
 * shows a tile and a half of its tread and juts out over thin air at the far end.
 */
const FLIGHT: readonly Slot[] = [0, 1, 2, 3, 4].map((z) => rect(3 * z, 0, 4, 2, z)).flat();
const STAIRS = build('stairs', 'Stairs', 'Three flights of stairs, back and forth, in steps of a tile and a half', [
  FLIGHT,
  mirrorX(shift(FLIGHT, 0, 5), 10), // the middle flight climbs the other way
  shift(FLIGHT, 0, 10),
]);

/** A family of built-in layouts, as the home page groups them. */
export interface LayoutFamily {
  readonly id: string; // url-safe, e.g. 'animals' (the home page's anchor)
  readonly name: string; // heading, e.g. 'Animals'
  readonly description: string; // one line under the heading
  readonly layouts: readonly Layout[]; // smallest first (the classic family: the turtle first)
}

/** The families in picker order; every built-in layout is in exactly one. */
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

/** Every built-in layout, in picker order: family by family. */
export const LAYOUTS: readonly Layout[] = FAMILIES.flatMap((f) => f.layouts);

const FAMILY_OF: ReadonlyMap<string, LayoutFamily> = new Map(
  FAMILIES.flatMap((f) => f.layouts.map((l) => [l.id, f] as const)),
);

/** The family of a built-in layout, if there is one by that id. */
export const familyOf = (id: string): LayoutFamily | undefined => FAMILY_OF.get(id);

/** The built-in layouts as the CLI's `layouts` and `GET /api/layouts` list them (docs/contracts.md). */
export const layoutSummaries = (): { id: string; name: string; tiles: number; family: string }[] =>
  FAMILIES.flatMap((f) => f.layouts.map((l) => ({ id: l.id, name: l.name, tiles: l.slots.length, family: f.id })));

const BY_ID: ReadonlyMap<string, Layout> = new Map(LAYOUTS.map((l) => [l.id, l]));

/** The built-in layout with this id, if there is one. */
export const layoutById = (id: string): Layout | undefined => BY_ID.get(id);
