/**
 * Dealing: always-winnable boards from a layout and a seed (SPEC §1).
 *
 * - relaxed: find a seeded removal order of the empty layout (order.ts), then
 *   paste shuffled face pairs onto it. Replaying the order clears the board.
 * - classic: shuffle the faces uniformly onto the slots and keep the shuffle only
 *   when the solver proves it solvable; otherwise draw the next shuffle from the
 *   same stream. The solver's solution is the deal's solution. On a few layouts
 *   almost every shuffle is unwinnable (long rows, tall stacks: issue 12 measured
 *   arrow, enterprise, star ship, key, rocket and two pyramids failing 200 shuffles
 *   in a row): after UNIFORM_ATTEMPTS misses, mostly proofs of unwinnability, the
 *   dealer repairs instead of redrawing: a tile the proof names as unable to leave
 *   trades places with a random tile (a hill climb on how many tiles the solver's
 *   optimistic play strands). Such a deal is a near-uniform shuffle, not a uniform
 *   one; on the turtle the repair never starts (0.03^20), so its deals are unchanged.
 * - shuffle: the relaxed method again, over the tiles still on the board and with
 *   the faces they carry, from a stream named by the seed and the shuffle number.
 *
 * Every random choice comes from `makeRng(seed, stream)`. GENERATOR_VERSION must
 * change whenever any output for an existing (layout, seed, mode) changes; the
 * golden-deal test fails until it does.
 */
import { facePairs } from './faces.ts';
import { geometryOf, LayoutError, type Geometry } from './layout.ts';
import { findRemovalOrder } from './order.ts';
import { fullPresence, matchGroup, type Presence } from './rules.ts';
import { makeRng, shuffleInPlace, type Rng } from './rng.ts';
import { solve } from './solver.ts';
import { err, ok, type Deal, type Face, type Layout, type Mode, type Pair, type Result } from './types.ts';

export const GENERATOR_VERSION = '11';
export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const MAX_CLASSIC_ATTEMPTS = 10_000; // shuffles tried (or repaired) before a classic deal gives up; the node budget bounds the time
export const CLASSIC_BUDGET = 5_000; // solver nodes per classic attempt (~25 ms); an unresolved shuffle (~5% of solvable turtle shuffles) is skipped like an unsolvable one
export const CLASSIC_TOTAL_BUDGET = 600_000; // solver nodes for all attempts of one classic deal: a bound on its time
export const UNIFORM_ATTEMPTS = 20; // uniform shuffles tried before repairing instead (1 in 10^30 on the turtle)

export const DealError = {
  ...LayoutError,
  Seed: 'ERR_SEED',
  Classic: 'ERR_CLASSIC',
} as const;
export type DealError = (typeof DealError)[keyof typeof DealError];

export interface DealStats {
  readonly attempts: number; // classic: shuffles tried; relaxed: 1
  readonly nodes: number; // search nodes spent, summed over attempts
}

/** Places face pairs onto a removal order: pair k of the order gets faces[k]. */
function pasteFaces(size: number, order: readonly Pair[], faces: readonly (readonly [Face, Face])[]): (Face | null)[] {
  const out: (Face | null)[] = new Array<Face | null>(size).fill(null);
  order.forEach(([a, b], k) => {
    out[a] = faces[k]![0];
    out[b] = faces[k]![1];
  });
  return out;
}

/** Shuffles pairs and also which tile of each pair gets which face. */
function shufflePairs(rng: Rng, pairs: [Face, Face][]): [Face, Face][] {
  shuffleInPlace(rng, pairs);
  for (const pair of pairs) if (rng.int(2) !== 0) [pair[0], pair[1]] = [pair[1], pair[0]];
  return pairs;
}

const makeDealValue = (
  layout: Layout,
  seed: string,
  mode: Mode,
  faces: readonly (Face | null)[],
  solution: readonly Pair[],
): Deal => ({
  layout: layout.id,
  seed,
  mode,
  generator: GENERATOR_VERSION,
  tiles: layout.slots.map((s, i) => ({ x: s.x, y: s.y, z: s.z, face: faces[i]! })),
  solution,
});

/**
 * Deals `layout` for `seed` in `mode`. Deterministic: the same layout, seed, mode
 * and GENERATOR_VERSION always give the same deal. Fails only for a bad seed or
 * a layout that cannot be cleared (with the reason).
 */
export function deal(
  layout: Layout,
  seed: string,
  mode: Mode = 'relaxed',
): Result<{ deal: Deal; stats: DealStats }, DealError> {
  if (!SEED_PATTERN.test(seed)) return err(DealError.Seed, 'a seed is 1–32 characters of A–Z, a–z, 0–9, _ and -');
  const geomResult = geometryOf(layout);
  if (!geomResult.ok) return geomResult;
  const geom = geomResult.value;
  const rng = makeRng(seed, mode);
  const found = findRemovalOrder(geom, fullPresence(geom.size), rng);
  if (!found.ok) return found;
  if (mode === 'relaxed') {
    const faces = pasteFaces(geom.size, found.value.order, shufflePairs(rng, facePairs(geom.size)));
    return ok({
      deal: makeDealValue(layout, seed, mode, faces, found.value.order),
      stats: { attempts: 1, nodes: found.value.stats.nodes },
    });
  }
  return classicDeal(layout, geom, seed, rng);
}

function classicDeal(
  layout: Layout,
  geom: Geometry,
  seed: string,
  rng: Rng,
): Result<{ deal: Deal; stats: DealStats }, DealError> {
  const flat = facePairs(geom.size).flat();
  const present = fullPresence(geom.size);
  let nodes = 0;
  let misses = 0; // shuffles not proved solvable
  let proofs = 0; // of those, shuffles proved unsolvable with the tiles that cannot leave
  let best: { faces: Face[]; core: readonly number[]; stranded: number } | undefined; // the repair's current shuffle
  for (let attempt = 1; attempt <= MAX_CLASSIC_ATTEMPTS && nodes < CLASSIC_TOTAL_BUDGET; attempt++) {
    let faces: Face[];
    const repairing = best !== undefined && misses >= UNIFORM_ATTEMPTS && proofs * 4 >= misses * 3;
    if (best && repairing) {
      // Uniform shuffles keep failing on this layout, and (three times in four or more) because they cannot be
      // won, not because the solver ran out of nodes: repair the best one so far instead of drawing anew. A
      // tile that the solver's proof found unable to leave trades places with a tile of another group, at
      // random; the result is kept when its optimistic play strands no more tiles (a hill climb).
      faces = best.faces.slice();
      const from = best.core[rng.int(best.core.length)]!;
      const to = rng.int(faces.length);
      if (matchGroup(faces[to]!) !== matchGroup(faces[from]!)) [faces[from], faces[to]] = [faces[to]!, faces[from]!];
    } else faces = shuffleInPlace(rng, flat.slice());
    // A repaired shuffle is rarely won by random play (on these layouts the search finds every solution): no
    // playouts, which would cost about a quarter of the attempt.
    const result = solve(geom, present, faces, {
      budget: CLASSIC_BUDGET,
      seed: `${seed}:${attempt}`,
      ...(repairing ? { playouts: 0 } : {}),
    });
    nodes += result.nodes;
    if (result.result === 'solvable')
      return ok({
        deal: makeDealValue(layout, seed, 'classic', faces, result.solution),
        stats: { attempts: attempt, nodes },
      });
    misses++;
    if (result.result !== 'unsolvable' || !result.core) continue;
    proofs++;
    if (!best || result.stranded! <= best.stranded) best = { faces, core: result.core, stranded: result.stranded! };
  }
  const why =
    proofs * 2 >= misses
      ? 'on this layout almost every shuffle is unwinnable'
      : 'the solver ran out of steps on most shuffles of this layout';
  return err(DealError.Classic, `no classic deal of ${layout.name} could be proven solvable (${why}): play it relaxed`);
}

export interface ShuffleResult {
  readonly faces: (Face | null)[]; // new face per slot; null where removed
  readonly solution: Pair[]; // an order that clears the shuffled position
}

/**
 * Re-deals the faces still on the board over the slots still on the board, so that
 * the position can be cleared. `shuffleNumber` counts shuffles in this game,
 * starting at 1. Fails with ERR_UNCLEARABLE when no removal order of the
 * remaining slots exists, whatever the faces (only undo helps then).
 */
export function shuffleFaces(
  geom: Geometry,
  present: Presence,
  faces: readonly (Face | null)[],
  seed: string,
  shuffleNumber: number,
): Result<ShuffleResult, LayoutError> {
  const rng = makeRng(seed, 'shuffle', String(shuffleNumber));
  const found = findRemovalOrder(geom, present, rng);
  if (!found.ok) return found;
  // Pair the remaining faces within their match groups, in slot order (deterministic).
  const waiting = new Map<string, Face>();
  const pairs: [Face, Face][] = [];
  for (let i = 0; i < geom.size; i++) {
    const face = faces[i];
    if (!present[i] || face == null) continue;
    const group = matchGroup(face);
    const mate = waiting.get(group);
    if (mate) {
      pairs.push([mate, face]);
      waiting.delete(group);
    } else waiting.set(group, face);
  }
  if (waiting.size > 0 || pairs.length !== found.value.order.length)
    throw new Error('shuffleFaces: the faces on the board do not pair up'); // legal play always leaves pairs
  return ok({ faces: pasteFaces(geom.size, found.value.order, shufflePairs(rng, pairs)), solution: found.value.order });
}
