/**
 * Face names and the face set for a layout of any even size (the rule: docs/contracts.md, "Face sets for
 * other
 * sizes"). KIND_ORDER walks the families in turn, so a small layout still shows every family.
 */
import type { Face } from './types.ts';

/** Normal (non-bonus) kinds in the order a partial set takes them. */
export const KIND_ORDER: readonly Face[] = (() => {
  const winds: Face[] = ['we', 'ws', 'ww', 'wn'];
  const dragons: Face[] = ['dr', 'dg', 'dw'];
  const order: Face[] = [];
  for (let rank = 1; rank <= 9; rank++) {
    order.push(`d${rank}` as Face, `b${rank}` as Face, `c${rank}` as Face);
    const wind = winds.shift();
    if (wind) order.push(wind);
    const dragon = dragons.shift();
    if (dragon) order.push(dragon);
  }
  return order;
})();

const FLOWERS: readonly Face[] = ['f1', 'f2', 'f3', 'f4'];
const SEASONS: readonly Face[] = ['s1', 's2', 's3', 's4'];
const FULL_SET_TILES = 144;
const BONUS_MIN_TILES = 36; // a partial set at least this large keeps both bonus groups

/** The faces of a layout of `tiles` tiles (even), as matching pairs. */
export function facePairs(tiles: number): [Face, Face][] {
  let pairs = FACE_PAIRS.get(tiles);
  if (!pairs) FACE_PAIRS.set(tiles, (pairs = makeFacePairs(tiles)));
  return pairs.map(([a, b]) => [a, b]);
}

const FACE_PAIRS = new Map<number, readonly (readonly [Face, Face])[]>();

function makeFacePairs(tiles: number): [Face, Face][] {
  if (tiles % 2 !== 0 || tiles < 0) throw new RangeError(`facePairs needs an even count, got ${tiles}`);
  const pairs: [Face, Face][] = [];
  const addBonus = (): void => {
    pairs.push([FLOWERS[0]!, FLOWERS[1]!], [FLOWERS[2]!, FLOWERS[3]!]);
    pairs.push([SEASONS[0]!, SEASONS[1]!], [SEASONS[2]!, SEASONS[3]!]);
  };
  const addKinds = (count: number): void => {
    // Four tiles per kind, then one pair if two are left.
    let left = count;
    for (let k = 0; left > 0; k = (k + 1) % KIND_ORDER.length) {
      const face = KIND_ORDER[k]!;
      pairs.push([face, face]);
      left -= 2;
      if (left >= 2) {
        pairs.push([face, face]);
        left -= 2;
      }
    }
  };
  for (let full = 0; full < Math.floor(tiles / FULL_SET_TILES); full++) {
    addKinds(FULL_SET_TILES - 8);
    addBonus();
  }
  const rest = tiles % FULL_SET_TILES;
  if (rest >= BONUS_MIN_TILES) {
    addBonus();
    addKinds(rest - 8);
  } else addKinds(rest);
  return pairs;
}

const SUIT_NAMES: Record<string, string> = { d: 'Dots', b: 'Bamboo', c: 'Characters' };
const HONOUR_NAMES: Record<string, string> = {
  we: 'East wind',
  ws: 'South wind',
  ww: 'West wind',
  wn: 'North wind',
  dr: 'Red dragon',
  dg: 'Green dragon',
  dw: 'White dragon',
  f1: 'Flower (plum)',
  f2: 'Flower (orchid)',
  f3: 'Flower (chrysanthemum)',
  f4: 'Flower (bamboo)',
  s1: 'Season (spring)',
  s2: 'Season (summer)',
  s3: 'Season (autumn)',
  s4: 'Season (winter)',
};

/** The accessible name of a face: 'Bamboo 3', 'East wind', 'Flower (plum)'. */
export function faceName(face: Face): string {
  return HONOUR_NAMES[face] ?? `${SUIT_NAMES[face[0]!]} ${face[1]}`;
}
