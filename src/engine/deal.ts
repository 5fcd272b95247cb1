/**
 * Dealing: always-winnable boards from a layout and a seed (docs/contracts.md, "Deals"; docs/engine.md,
 * "Dealing"). GENERATOR_VERSION changes whenever any existing deal would.
 */
import { measureDifficulty } from './difficulty.ts';
import { facePairs } from './faces.ts';
import { geometryOf, LayoutError, type Geometry } from './layout.ts';
import { findRemovalOrder } from './order.ts';
import { mendAlongOrder, mendByPlay, type Mended } from './mend.ts';
import { fullPresence, type Presence } from './rules.ts';
import { makeRng, shuffleInPlace, type Rng } from './rng.ts';
import { pasteFaces, shufflePairs } from './shuffle.ts';
import { solve } from './solver/index.ts';
import { err, ok, type Deal, type Face, type Layout, type Mode, type Pair, type Result } from './types.ts';

export const GENERATOR_VERSION = '15';
export const SEED_PATTERN = /^[A-Za-z0-9_-]{1,32}$/;
export const CLASSIC_BUDGET = 1_500; // solver nodes per uniform shuffle
export const CLASSIC_PLAYOUTS = 50;
export const UNIFORM_NODES = 2_500; // solver nodes for a classic deal's uniform shuffles (up to 144 tiles); then one is mended
export const REVERT_NODES = 1_000; // solver nodes for taking trades back (up to 144 tiles)
// The solver as generator 15 dealt with it.
const GENERATOR_15_SEARCH = { playoutsFirst: 0, savePhases: false, skipIdleReleases: false } as const;
export const MAX_UNIFORM_ATTEMPTS = 200;
const REVERT_BUDGET = 1_000; // solver nodes per trade taken back
const MIN_REVERT_NODES = 100;
const MEND_TRIES = 3; // mended shuffles before mending along a removal order
const FULL_SET = 144;

export const DealError = {
  ...LayoutError,
  Seed: 'ERR_SEED',
} as const;
export type DealError = (typeof DealError)[keyof typeof DealError];

export interface DealStats {
  readonly attempts: number;
  readonly nodes: number;
  readonly trades: number; // classic: trades a mended shuffle kept; else 0
}

export type DealBoard = Omit<Deal, 'difficulty'>;

const makeBoardValue = (
  layout: Layout,
  seed: string,
  mode: Mode,
  faces: readonly (Face | null)[],
  solution: readonly Pair[],
): DealBoard => ({
  layout: layout.id,
  seed,
  mode,
  generator: GENERATOR_VERSION,
  tiles: layout.slots.map((s, i) => ({ x: s.x, y: s.y, z: s.z, face: faces[i]! })),
  solution,
});

/**
 * Deals `layout` for `seed` in `mode`, with its difficulty; fails only for a bad seed or an unclearable
 * layout.
 */
export function deal(
  layout: Layout,
  seed: string,
  mode: Mode = 'relaxed',
): Result<{ deal: Deal; stats: DealStats }, DealError> {
  const made = dealBoard(layout, seed, mode);
  if (!made.ok) return made;
  const { layout: id, generator, tiles, solution } = made.value.deal;
  const geom = geometryOf(layout);
  if (!geom.ok) return geom;
  const difficulty = measureDifficulty(
    geom.value,
    tiles.map((t) => t.face),
    mode,
  );
  // The deal JSON's key order (stores/deal-rows.ts rebuilds it byte for byte).
  return ok({ deal: { layout: id, seed, mode, generator, difficulty, tiles, solution }, stats: made.value.stats });
}

/** The generator alone, without the difficulty. */
export function dealBoard(
  layout: Layout,
  seed: string,
  mode: Mode = 'relaxed',
): Result<{ deal: DealBoard; stats: DealStats }, DealError> {
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
      deal: makeBoardValue(layout, seed, mode, faces, found.value.order),
      stats: { attempts: 1, nodes: found.value.stats.nodes, trades: 0 },
    });
  }
  return classicDeal(layout, geom, seed, rng, found.value.order);
}

function classicDeal(
  layout: Layout,
  geom: Geometry,
  seed: string,
  rng: Rng,
  order: readonly Pair[],
): Result<{ deal: DealBoard; stats: DealStats }, DealError> {
  const flat = facePairs(geom.size).flat();
  const present = fullPresence(geom.size);
  const done = (faces: readonly Face[], solution: readonly Pair[], stats: DealStats) =>
    ok({ deal: makeBoardValue(layout, seed, 'classic', faces, solution), stats });
  // Nodes cost more on larger boards: bounds that stay bounds in time.
  const scale = FULL_SET / Math.max(FULL_SET, geom.size);
  const cap = Math.round(UNIFORM_NODES * scale);
  let nodes = 0;
  let attempts = 0;
  while (nodes < cap && attempts < MAX_UNIFORM_ATTEMPTS) {
    attempts++;
    const faces = shuffleInPlace(rng, flat.slice());
    const result = solve(geom, present, faces, {
      budget: Math.min(CLASSIC_BUDGET, cap - nodes),
      seed: `${seed}:${attempts}`,
      ...GENERATOR_15_SEARCH,
      playouts: CLASSIC_PLAYOUTS,
    });
    nodes += result.nodes;
    if (result.result === 'solvable') return done(faces, result.solution, { attempts, nodes, trades: 0 });
  }
  let mended: Mended | null = null;
  for (let tries = 0; tries < MEND_TRIES && !mended; tries++) {
    attempts++;
    mended = mendByPlay(geom, shuffleInPlace(rng, flat.slice()), rng);
  }
  if (!mended) {
    attempts++;
    mended = mendAlongOrder(shuffleInPlace(rng, flat.slice()), order, rng);
  }
  const polished = revertTrades(geom, present, mended, Math.round(REVERT_NODES * scale), seed);
  return done(polished.faces, polished.solution, { attempts, nodes: nodes + polished.nodes, trades: polished.trades });
}

/** Takes back a mended deal's trades, last first, wherever the solver still proves it. */
function revertTrades(
  geom: Geometry,
  present: Presence,
  mended: Mended,
  budget: number,
  seed: string,
): { faces: Face[]; solution: readonly Pair[]; trades: number; nodes: number } {
  let { faces, solution } = mended;
  let trades = mended.traded.length;
  let nodes = 0;
  for (let t = mended.traded.length - 1; t >= 0 && budget - nodes >= MIN_REVERT_NODES; t--) {
    const [b, c] = mended.traded[t]!;
    const candidate = faces.slice();
    [candidate[b], candidate[c]] = [candidate[c]!, candidate[b]!];
    const result = solve(geom, present, candidate, {
      budget: Math.min(REVERT_BUDGET, budget - nodes),
      seed: `${seed}:revert:${t}`,
      ...GENERATOR_15_SEARCH,
      playouts: 0,
    });
    nodes += result.nodes;
    if (result.result !== 'solvable') continue;
    faces = candidate;
    solution = result.solution;
    trades--;
  }
  return { faces, solution, trades, nodes };
}
