/**
 * The second set of built-in layouts, our own designs drawn with shapes.ts and grouped by builtins.ts. What
 * makes
 * a shape good to play (short rows, layers stepped in by a whole tile, partners off every stack):
 * docs/engine.md, "Layouts".
 */
import type { Slot } from './types.ts';
import {
  art,
  build,
  centredRows,
  column,
  ellipse,
  band,
  fill,
  fillSymmetric,
  rect,
  row,
  stack,
  stroke,
  symmetricX,
  tile,
  turn,
  without,
  polygon,
  type Point,
  type Region,
} from './shapes.ts';

/** Fields of `sizes` tiles in a row at y, a half tile apart, centred on x = cx. */
const fields = (cx: number, y: number, sizes: readonly number[], z = 0): Slot[] => {
  const width = sizes.reduce((sum, n) => sum + 2 * n + 1, -1);
  let x = cx - Math.floor(width / 2);
  return sizes.flatMap((n) => {
    const out = row(x, y, n, z);
    x += 2 * n + 1;
    return out;
  });
};

// Small and quick

export const KITE = build('kite', 'Kite', 'A kite on the wind: a raised frame of spars, its tail swinging out behind', [
  centredRows(8, 0, [1, 3, 5, 7, 5, 3, 1]),
  row(2, 6, 6, 1), // the spars
  tile(7, 2, 1),
  tile(7, 10, 1),
  tile(7, 6, 2),
  [tile(8, 14), tile(10, 15), tile(12, 16), tile(14, 16), tile(16, 15), tile(18, 15)], // the tail
]);

export const MUSHROOM = build(
  'mushroom',
  'Mushroom',
  'A little mushroom: a broad cap with raised spots on a short stem',
  [
    centredRows(8, 0, [4, 6, 7, 8]), // the cap
    centredRows(8, 8, [2, 2, 3]), // the stem
    [tile(5, 1, 1), tile(10, 3, 1), tile(3, 5, 1), tile(12, 5, 1)], // spots
  ],
);

export const TEACUP = build('teacup', 'Teacup', 'A cup of tea on its saucer, steam rising', [
  art(2, 4, ['#######', '#######', '>######', '.#####']),
  tile(16, 5),
  tile(18, 7),
  tile(16, 9),
  row(3, 5, 6, 1),
  centredRows(9, 12, [9, 7]),
  [tile(5, 0), tile(6, 2), tile(11, 0), tile(12, 2)], // steam
]);

/** One blade of the pinwheel: a triangle above the diagonal, up and right of the hub at (10, 10). */
const BLADE = art(10, 2, ['####', '###', '##', '#']);
export const PINWHEEL = build('pinwheel', 'Pinwheel', 'Four blades turning about a raised hub', [
  [0, 1, 2, 3].flatMap((k) => {
    let blade: Slot[] = BLADE;
    for (let i = 0; i < k; i++) blade = turn(blade, 10, 10);
    return blade;
  }),
  [0, 1, 2, 3].flatMap((k) => {
    let tip = [tile(16, 2, 1)];
    for (let i = 0; i < k; i++) tip = turn(tip, 10, 10);
    return tip;
  }),
  stack(9, 9, 2, 1), // the hub
]);

// Letters and symbols

export const ZEN = build('zen', 'Zen', 'The word ZEN in strokes one tile wide, its bars raised', [
  row(0, 0, 4), // Z
  stroke(5, 2, 5, -1, 2),
  row(0, 12, 4),
  column(12, 0, 7), // E
  row(14, 0, 3),
  row(14, 6, 2),
  row(14, 12, 3),
  column(24, 0, 7), // N
  column(32, 0, 7),
  stroke(26, 2, 5, 1, 2),
  row(1, 0, 3, 1), // the bars, raised
  row(1, 12, 3, 1),
  row(13, 0, 3, 1),
  row(13, 6, 2, 1),
  row(13, 12, 3, 1),
  column(24, 1, 6, 1),
  column(32, 1, 6, 1),
  tile(28, 6, 1),
]);

/** A twinkling star: four tiles round an empty middle. */
const twinkle = (x: number, y: number): Slot[] => [
  tile(x + 2, y),
  tile(x, y + 2),
  tile(x + 4, y + 2),
  tile(x + 2, y + 4),
];
export const CRESCENT = build(
  'crescent',
  'Crescent',
  'A crescent moon, thick in the middle, with three stars beside it',
  [
    fill(0, 0, 12, 10, without(ellipse(12, 10, 12, 9.9), ellipse(19, 7.5, 10.5, 9)), 0, true),
    fill(0, 0, 12, 10, without(ellipse(11, 10, 9, 7.5), ellipse(17, 8, 9, 8.5)), 1, true),
    twinkle(22, 1),
    twinkle(29, 7),
    twinkle(22, 13),
  ],
);

export const COMPASS = build(
  'compass',
  'Compass',
  'A compass rose: four long points, four short ones, raised to the middle',
  [
    art(0, 0, [
      '.......#.......',
      '.#.....#.....#.',
      '..##..###..##..',
      '...#########...',
      '###############',
      '...#########...',
      '..##..###..##..',
      '.#.....#.....#.',
      '.......#.......',
    ]),
    art(0, 4, ['.......#.......', '.....#####.....', '..###########..', '.....#####.....', '.......#.......'], 1),
    art(0, 6, ['......###......', '.....#####.....', '......###......'], 2),
    tile(14, 8, 3),
  ],
);

const LOOPS: readonly Point[] = [
  [18, 9], [22, 5], [27, 3], [32, 4.5], [34.5, 9], [32, 13.5], [27, 15], [22, 13], [18, 9],
  [14, 5], [9, 3], [4, 4.5], [1.5, 9], [4, 13.5], [9, 15], [14, 13], [18, 9],
]; // prettier-ignore
export const INFINITY = build('infinity', 'Infinity', 'Two loops that meet in the middle and never end', [
  fill(0, 0, 18, 10, band(LOOPS, 1.8), 0, true),
  fill(0, 0, 18, 10, band(LOOPS.slice(2, 7), 0.9), 1, true),
  fill(0, 0, 18, 10, band(LOOPS.slice(10, 15), 0.9), 1, true),
]);

export const ANCHOR = build('anchor', 'Anchor', 'A ship’s anchor: ring, stock, shank and two curved arms', [
  fill(
    0,
    0,
    13,
    11,
    band(
      [
        [13, 0.8],
        [15.5, 2],
        [15.5, 4],
        [13, 5.2],
        [10.5, 4],
        [10.5, 2],
        [13, 0.8],
      ],
      0.9,
    ),
  ),
  fill(
    0,
    0,
    13,
    11,
    band(
      [
        [5, 7],
        [21, 7],
      ],
      0.9,
    ),
  ),
  fill(
    0,
    0,
    13,
    11,
    band(
      [
        [13, 5],
        [13, 19],
      ],
      0.9,
    ),
  ),
  fill(
    0,
    0,
    13,
    11,
    band(
      [
        [3, 12],
        [5, 16],
        [9, 19],
        [13, 20],
        [17, 19],
        [21, 16],
        [23, 12],
      ],
      0.9,
    ),
  ),
  fill(
    0,
    0,
    13,
    11,
    polygon([
      [0, 14],
      [3, 9],
      [6.5, 14],
    ]),
  ),
  fill(
    0,
    0,
    13,
    11,
    polygon([
      [26, 14],
      [23, 9],
      [19.5, 14],
    ]),
  ),
  column(12, 8, 5, 1),
  row(6, 6, 3, 1),
  row(16, 6, 3, 1),
]);

// Animals

export const CAT = build('cat', 'Cat', 'A cat sitting up, ears pricked, its tail curled round its paws', [
  art(0, 0, [
    '.#.....#...',
    '.##...##...',
    '.#######...',
    '#########..',
    '.#######...',
    '..#####....',
    '.#######...',
    '#########.#',
    '#########.#',
    '.#######.#.',
  ]),
  [tile(3, 2, 1), tile(13, 2, 1)], // the ears
  [tile(4, 5, 1), tile(12, 5, 1)], // the eyes
  row(6, 7, 3, 1), // the muzzle
  centredRows(9, 15, [4, 5], 1), // the raised body
  centredRows(9, 16, [3], 2),
]);

export const OWL = build('owl', 'Owl', 'A round owl with big ringed eyes, ear tufts, folded wings and two feet', [
  art(0, 0, [
    '.#.......#.',
    '.##.....##.',
    '.#########.',
    '###########',
    '###########',
    '###########',
    '###########',
    '.#########.',
    '..#######..',
    '...#...#...',
  ]),
  art(
    2,
    4,
    ['###.###', '#.#.#.#', '###.###'].map((l) => l.replace('.###', '...###').replace('#.#.#.#', '#.#...#.#')),
    1,
  ),
  tile(10, 8, 1), // the beak
  tile(10, 10, 1),
  art(0, 11, ['#', '##', '#'], 1), // the wings
  art(18, 11, ['.#', '##', '.#'], 1),
  centredRows(11, 13, [4, 3], 1), // the breast
]);

export const SNAIL = build(
  'snail',
  'Snail',
  'A snail with a whorled shell climbing to its middle, eyes out on stalks',
  [
    fill(8, 0, 10, 8, ellipse(18, 7.5, 8.5, 7.5), 0, true), // the shell, each whorl set to one side
    fill(8, 0, 10, 8, ellipse(19, 7, 6, 5.2), 1, true),
    fill(8, 0, 10, 8, ellipse(20, 6.5, 3.6, 3.2), 2, true),
    tile(20, 6, 3),
    row(2, 16, 13), // the foot
    art(0, 12, ['###', '##'], 0), // the head
    [tile(0, 8), tile(5, 8), tile(1, 10)], // the eye stalks
    tile(28, 16), // the tail
  ],
);

export const ELEPHANT = build(
  'elephant',
  'Elephant',
  'An elephant walking, its trunk swinging down and its big ear raised',
  [
    art(9, 0, [
      '...#######..',
      '.##########.',
      '############',
      '############',
      '############',
      '############',
      '.##########.',
      '.##..##.##..',
      '.##..##.##..',
    ]), // the body and legs
    art(0, 2, ['.###', '####', '####', '###.', '##..', '#...', '#...', '##..']), // the head and trunk, a half tile off the body
    tile(33, 4), // the tail
    art(6, 3, ['###', '###', '.##'], 1), // the ear, over the neck
    art(14, 1, ['########', '#########', '########'], 1), // the back
    art(16, 2, ['######', '#####'], 2),
  ],
);

export const RABBIT = build('rabbit', 'Rabbit', 'A rabbit sitting up, long ears laid back, a raised puff of a tail', [
  art(0, 0, [
    '..#.#......',
    '..#.#......',
    '..####.....',
    '.#####.....',
    '######.....',
    '.#######...',
    '..########.',
    '..#########',
    '..#########',
    '.##########',
  ]),
  tile(21, 13, 1), // the tail
  tile(21, 13, 2),
  centredRows(13, 13, [4, 5, 4], 1), // the haunch
  [tile(3, 5, 1), tile(5, 7, 1), tile(3, 9, 1)], // the head, an eye left open
]);

// Towers

/** One tier of the pagoda: `rows` of walls under a row of eaves, on every layer up to `top`. */
const tier = (y: number, walls: readonly number[], eaves: number, top: number): Slot[] =>
  Array.from({ length: top + 1 }, (_, z) => [
    ...centredRows(12, y, [eaves], z),
    ...centredRows(12, y + 2, walls, z),
  ]).flat();
export const PAGODA = build('pagoda', 'Pagoda', 'Four tiers under wide eaves, each a storey higher, up to a spire', [
  centredRows(12, 18, [12]), // the platform
  tier(14, [6], 10, 0),
  tier(10, [5], 8, 1),
  tier(6, [4], 7, 2),
  tier(2, [3], 5, 3),
  stack(11, 0, 5), // the spire
]);

/** A building of the skyline on the street at y = 18, with a lit upper storey if `lit`. */
const building = (x: number, cols: number, rows: number, lit: boolean): Slot[] => [
  ...rect(x, 18 - 2 * rows, cols, rows),
  ...(lit ? rect(x, 18 - 2 * rows, cols, rows, 1).filter((s) => (s.x - x + s.y) % 4 === 0) : []),
];
export const SKYLINE = build(
  'skyline',
  'Skyline',
  'A city skyline: towers of every height, lit windows on the tallest',
  [
    row(0, 18, 17), // the street
    building(0, 3, 5, false),
    building(7, 2, 8, true),
    building(12, 4, 4, false),
    building(21, 3, 8, true),
    building(28, 3, 6, true),
    stack(7, 0, 2), // masts
    stack(23, 0, 3),
  ],
);

export const LIGHTHOUSE = build(
  'lighthouse',
  'Lighthouse',
  'A striped lighthouse on a rocky shore, its beams reaching out',
  [
    centredRows(16, 16, [10, 13]), // the shore
    centredRows(16, 4, [2, 2, 2, 3, 3, 3]), // the tower
    centredRows(16, 6, [2], 1), // its stripes
    centredRows(16, 10, [3], 1),
    centredRows(16, 14, [3], 1),
    stack(15, 2, 3), // the lamp
    symmetricX([tile(18, 2), tile(20, 2), tile(22, 1), tile(22, 3), tile(24, 1), tile(24, 3)], 16), // the beams
    [tile(2, 12), tile(4, 12), tile(3, 10)], // a boat
  ],
);

export const COLONNADE = build(
  'colonnade',
  'Colonnade',
  'A temple front: two steps, six raised columns and a pediment',
  [
    fields(16, 18, [5, 5, 5]), // the steps, laid in blocks a half tile apart
    fields(16, 16, [5, 4, 5]),
    [2, 7, 12, 17, 22, 27].map((x) => column(x, 8, 4)).flat(), // the columns
    [2, 7, 12, 17, 22, 27].map((x) => column(x, 9, 3, 1)).flat(),
    fields(16, 6, [5, 5, 5]), // the entablature
    fields(16, 6, [4, 4, 4], 1),
    centredRows(16, 0, [4, 8, 12]), // the pediment
    centredRows(16, 2, [3, 7], 1),
  ],
);

// Flat and wide

const RIVER_COURSE: readonly Point[] = [
  [-2, 5],
  [6, 4],
  [12, 7],
  [15, 12],
  [20, 15],
  [26, 14],
  [31, 9],
  [38, 8],
];
export const RIVER = build('river', 'River', 'Fields on both banks of a winding river, two bridges across it', [
  fill(
    0,
    0,
    18,
    10,
    without(() => true, band(RIVER_COURSE, 2.8)),
  ),
  column(8, 1, 5, 1), // the bridges
  column(26, 9, 5, 1),
  rect(26, 1, 2, 2, 1), // woods
  rect(2, 13, 3, 2, 1),
  rect(14, 2, 2, 1, 1),
]);

export const ISLANDS = build('islands', 'Islands', 'Five low islands scattered over the sea, each with a hill', [
  fill(0, 0, 6, 5, ellipse(6, 5, 6, 4.5), 0, true),
  fill(14, 0, 6, 4, ellipse(20, 4, 6, 3.5), 0, true),
  fill(26, 2, 5, 5, ellipse(31, 7, 5, 4.5), 0, true),
  fill(4, 12, 7, 4, ellipse(11, 16, 7, 3.5), 0, true),
  fill(20, 12, 6, 4, ellipse(26, 16, 6, 3.5), 0, true),
  rect(4, 4, 2, 1, 1),
  rect(18, 2, 2, 1, 1),
  rect(30, 6, 1, 1, 1),
  rect(10, 15, 2, 1, 1),
  rect(24, 15, 2, 1, 1),
]);

export const TERRACES = build(
  'terraces',
  'Terraces',
  'Five long terraces of fields up a hillside, each resting half a tile on the one below',
  [
    [0, 1, 2, 3, 4].flatMap((k) => {
      const sizes = [
        [6, 5, 5],
        [5, 6, 4],
        [5, 5, 4],
        [4, 5, 4],
        [4, 4, 4],
      ][k]!;
      return [...fields(17, 14 - 3 * k, sizes, k), ...fields(17, 16 - 3 * k, sizes, k)];
    }),
  ],
);

export const MOSAIC = build(
  'mosaic',
  'Mosaic',
  'A wide floor of four panels, raised squares on them in a checker pattern',
  [
    [0, 1, 2, 3].map((b) => rect(9 * b, 0, 4, 8)).flat(), // the panels, a half tile apart
    [0, 1, 2, 3].flatMap((b) =>
      [0, 1, 2, 3].flatMap((j) =>
        (b + j) % 2 === 0
          ? [...rect(9 * b + 2, 4 * j, 2, 2, 1), tile(9 * b + 3, 4 * j + 1, 2)]
          : [tile(9 * b + 3, 4 * j + 1, 1)],
      ),
    ),
  ],
);

/** A field of the plains: `cols` × 9 tiles, starting at x. */
export const PLAINS = build(
  'plains',
  'Plains',
  'A great plain of 216 tiles: four fields between lanes, low hills on them',
  [
    [0, 9, 18, 27].map((x) => rect(x, 0, 4, 9)).flat(),
    rect(3, 2, 3, 4, 1),
    rect(12, 9, 4, 3, 1),
    rect(21, 4, 3, 4, 1),
    rect(29, 10, 3, 3, 1),
    rect(4, 3, 2, 2, 2),
    rect(13, 10, 3, 2, 2),
    rect(22, 5, 2, 2, 2),
    rect(30, 11, 2, 2, 2),
    rect(1, 13, 3, 3, 1),
  ],
);

// Classic

/** A peak: on layer k, rows `layers[k]` tiles long centred on x = cx, from y + k. */
const peak = (cx: number, y: number, layers: readonly (readonly number[])[]): Slot[] =>
  layers.flatMap((widths, k) => centredRows(cx, y + k, widths, k));
export const MOUNTAIN = build(
  'mountain',
  'Mountain',
  'A range of three peaks, the highest in the middle, valleys between',
  [
    peak(5, 4, [
      [2, 3, 4, 5, 5, 4],
      [2, 3, 4, 3],
      [1, 2],
    ]),
    peak(18, 0, [[3, 4, 5, 6, 6, 6, 6, 5, 4], [3, 4, 5, 5, 5, 4, 3], [2, 3, 4, 3, 2], [1, 2, 1], [1]]),
    peak(30, 2, [[2, 3, 4, 5, 5, 5, 4], [2, 3, 4, 3, 2], [1, 2, 1], [1]]),
  ],
);

/**
 * A petal: an ellipse `len` by `wid` half tiles, its long axis along the unit (dx, dy), its middle `dist`
 * from (cx, cy).
 */
const petal =
  (cx: number, cy: number, [dx, dy]: Point, dist: number, len: number, wid: number): Region =>
  (px, py) => {
    const rx = px - cx;
    const ry = (py - cy) / 0.75;
    const along = (rx * dx + ry * dy - dist) / len;
    const across = (ry * dx - rx * dy) / wid;
    return along * along + across * across <= 1;
  };
const C45 = 0.7071; // cos 45°
const COMPASS_POINTS: readonly Point[] = [[1, 0], [C45, C45], [0, 1], [-C45, C45], [-1, 0], [-C45, -C45], [0, -1], [C45, -C45]]; // prettier-ignore
const C22 = 0.9239; // cos 22.5°
const S22 = 0.3827; // sin 22.5°
const BETWEEN_POINTS: readonly Point[] = [[C22, S22], [S22, C22], [-S22, C22], [-C22, S22], [-C22, -S22], [-S22, -C22], [S22, -C22], [C22, -S22]]; // prettier-ignore
const petals = (dirs: readonly Point[], dist: number, len: number, wid: number): Region => {
  const each = dirs.map((d) => petal(17, 10, d, dist, len, wid));
  return (px, py) => each.some((p) => p(px, py));
};
export const LOTUS = build('lotus', 'Lotus', 'A lotus flower: two rings of petals, raised to a golden heart', [
  fillSymmetric(17, 0, 10, petals(COMPASS_POINTS, 9, 5.5, 3)),
  fillSymmetric(17, 0, 10, petals(BETWEEN_POINTS, 5.5, 4, 2.6), 1),
  fillSymmetric(17, 0, 10, ellipse(17, 10, 3.2, 2.6), 2),
]);

/** The palace: each layer a whole tile in from the one below on every side. */
export const IMPERIAL = build(
  'imperial',
  'Imperial',
  'A palace of 216 tiles: a great hall in five layers between two pavilions',
  [
    rect(9, 0, 9, 8), // the hall
    rect(11, 2, 7, 6, 1),
    rect(13, 4, 5, 4, 2),
    rect(15, 6, 3, 2, 3),
    row(16, 7, 2, 4),
    [0, 28].flatMap((x) => [...rect(x, 4, 4, 6), ...rect(x + 2, 6, 2, 4, 1)]), // the pavilions
    row(8, 16, 10), // the terrace in front
  ],
);
