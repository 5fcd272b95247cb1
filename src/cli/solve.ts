/**
 * The command `solve`: our deal of a seed, or a naive one with `--random`, handed to the solver; `--stdin`
 * answers seed after seed, warm (docs/contracts.md, "Command line").
 */
import {
  fullPresence,
  geometryOf,
  SEED_PATTERN,
  solve,
  SOLVE_BUDGET,
  type DealTile,
  type Geometry,
  type Layout,
  type Mode,
} from '../engine/index.ts';
import { parseFlags, quote, UsageError } from './args.ts';
import { dealOrFail, MAX_BUDGET, type Output } from './commands.ts';
import { round } from './measure.ts';
import { naiveFaces } from '../engine/naive.ts';
import { LAYOUT_FLAGS, layoutFromFlags } from './source.ts';

/** The deal a seed names: a naive shuffle with `random`, else our deal in `mode`. */
function tilesOf(layout: Layout, seed: string, random: boolean, mode: Mode): readonly DealTile[] {
  if (!random) return dealOrFail(layout, seed, mode).deal.tiles;
  const faces = naiveFaces(layout, seed);
  return layout.slots.map((s, i) => ({ x: s.x, y: s.y, z: s.z, face: faces[i]! }));
}

/** Solves one deal, timed: wall-clock and CPU milliseconds of the solve alone, not of making its input. */
function timedSolve(geom: Geometry, tiles: readonly DealTile[], seed: string, budget: number) {
  const present = fullPresence(geom.size);
  const faces = tiles.map((t) => t.face);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const answer = solve(geom, present, faces, { budget, seed });
  const ms = performance.now() - started;
  const used = process.cpuUsage(cpu);
  return { answer, ms: round(ms, 4), cpuMs: round((used.user + used.system) / 1000) };
}

/** `solve`: one seed, or one seed a line from `input` with --stdin. */
export function solveCommand(argv: readonly string[], input: () => AsyncIterable<string>): Output {
  const flags = parseFlags('solve', argv, {
    ...LAYOUT_FLAGS,
    seed: 'value',
    stdin: 'switch',
    tiles: 'switch',
    mode: 'value',
    random: 'switch',
    budget: 'value',
  });
  const stdin = flags.has('stdin');
  if (stdin && flags.has('seed')) throw new UsageError('solve: give --seed or --stdin (one seed a line), not both');
  if (!stdin && flags.has('tiles'))
    throw new UsageError('solve: --tiles goes with --stdin (one seed always prints its tiles)');
  const seed = stdin ? '' : flags.seed();
  const mode = flags.mode();
  const random = flags.has('random');
  if (random && flags.has('mode'))
    throw new UsageError('--random solves a naive shuffle, which has no --mode; give one or the other');
  const budget = flags.integer('budget', SOLVE_BUDGET, 1, MAX_BUDGET);
  const { layout, warnings } = layoutFromFlags(flags);
  const geom = geometryOf(layout);
  if (!geom.ok) throw new UsageError(`${layout.id}: ${geom.message}`); // for the type

  if (stdin)
    return {
      stdout: '',
      warnings,
      lines: answers(input(), layout, geom.value, random, mode, budget, flags.has('tiles')),
    };
  const tiles = tilesOf(layout, seed, random, mode);
  const { answer, ms } = timedSolve(geom.value, tiles, seed, budget);
  const out = { result: answer.result, nodes: answer.nodes, ms, tiles };
  const solution = answer.result === 'solvable' ? { solution: answer.solution } : {};
  return { stdout: JSON.stringify({ ...out, ...solution }), warnings };
}

/** One answer line per seed line of `lines`, each as soon as it is solved. */
async function* answers(
  lines: AsyncIterable<string>,
  layout: Layout,
  geom: Geometry,
  random: boolean,
  mode: Mode,
  budget: number,
  withTiles: boolean,
): AsyncGenerator<string> {
  let number = 0;
  for await (const line of lines) {
    number++;
    const seed = line.trim();
    if (seed === '') continue;
    if (!SEED_PATTERN.test(seed))
      throw new UsageError(
        `solve --stdin: line ${number}: bad seed ${quote(seed)}: a seed is 1 to 32 characters of A-Z, a-z, 0-9, _ and -`,
      );
    const tiles = tilesOf(layout, seed, random, mode);
    const { answer, ms, cpuMs } = timedSolve(geom, tiles, seed, budget);
    const out = { seed, result: answer.result, nodes: answer.nodes, ms, cpu_ms: cpuMs };
    yield JSON.stringify(withTiles ? { ...out, tiles } : out);
  }
}
