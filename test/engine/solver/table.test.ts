/**
 * The solver's node counts, pinned like a chess engine's perft counts: a change of search is a
 * visible change of this table, reviewed with the figures that justify it (docs/study.md, "The
 * solver's measurements"). Nodes are plays (a random playout is one), so the counts are the same on every
 * machine. Every solution is replayed under the tests' plain rules.
 */
import { describe, expect, test } from 'vitest';
import { corpusDir, corpusLayouts } from '../../../src/cli/corpus.ts';
import { naiveFaces } from '../../../src/engine/naive.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import {
  deal,
  fullPresence,
  geometryOf,
  makeRng,
  matchingPairs,
  solve,
  SOLVE_BUDGET,
  type Face,
  type Layout,
} from '../../../src/engine/index.ts';
import { naiveReplay } from '../helpers.ts';

const layout = (id: string): Layout => layoutById(id)!;
const corpus = corpusLayouts(corpusDir());
const geometry = (l: Layout) => {
  const g = geometryOf(l);
  if (!g.ok) throw new Error(g.message);
  return g.value;
};

describe('pinned node counts', () => {
  // [layout, seed of the uniform shuffle (as `solve --layout L --random --seed S`), budget, result, nodes]
  test.each([
    ['turtle', 'study-1', SOLVE_BUDGET, 'solvable', 39],
    ['turtle', 'study-2', SOLVE_BUDGET, 'solvable', 69],
    ['turtle', 'study-3', SOLVE_BUDGET, 'solvable', 68],
    ['turtle', 'study-4', SOLVE_BUDGET, 'solvable', 52],
    ['turtle', 'study-5', SOLVE_BUDGET, 'solvable', 34],
    ['turtle', 'study-6', SOLVE_BUDGET, 'solvable', 103],
    ['turtle', 'study-7', SOLVE_BUDGET, 'solvable', 56],
    ['turtle', 'study-8', SOLVE_BUDGET, 'solvable', 57],
    ['turtle', 'study-9', SOLVE_BUDGET, 'solvable', 3],
    ['turtle', 'study-10', SOLVE_BUDGET, 'solvable', 690],
    ['turtle', 'study-11', SOLVE_BUDGET, 'solvable', 7],
    ['turtle', 'study-12', SOLVE_BUDGET, 'solvable', 79],
    ['turtle', 'study-23', SOLVE_BUDGET, 'solvable', 260],
    ['turtle', 'study-74', SOLVE_BUDGET, 'solvable', 20],
    ['turtle', 'study-158', SOLVE_BUDGET, 'solvable', 1888], // the probe meets pairings that nogoods restrict apart
    ['turtle', 'study-191', SOLVE_BUDGET, 'solvable', 12979],
    ['turtle', 'study-27', SOLVE_BUDGET, 'unsolvable', 11],
    ['turtle', 'study-113', SOLVE_BUDGET, 'unsolvable', 1055],
    ['turtle', 'study-160', SOLVE_BUDGET, 'unsolvable', 3734],
    ['turtle', 'study-797', SOLVE_BUDGET, 'unsolvable', 405],
    ['turtle', 'study-867', SOLVE_BUDGET, 'unsolvable', 574],
    ['turtle', 'study-877', SOLVE_BUDGET, 'unsolvable', 426],
    ['turtle', 'study-974', 3000, 'unresolved', 3000],
    ['garden', 't1', SOLVE_BUDGET, 'solvable', 2],
    ['garden', 't2', SOLVE_BUDGET, 'solvable', 1],
    ['ring', 't1', SOLVE_BUDGET, 'solvable', 43],
    ['ring', 't2', SOLVE_BUDGET, 'solvable', 502],
    ['towers', 't1', SOLVE_BUDGET, 'solvable', 1],
    ['diamond', 't1', SOLVE_BUDGET, 'solvable', 583],
    ['diamond', 't2', SOLVE_BUDGET, 'unsolvable', 1], // many stacked copies: the optimistic play goes first
    ['fortress', 't1', SOLVE_BUDGET, 'solvable', 2],
    ['fortress', 't2', SOLVE_BUDGET, 'solvable', 3],
    ['mountain', 't8', SOLVE_BUDGET, 'unsolvable', 1],
    ['mountain', 't25', SOLVE_BUDGET, 'solvable', 766],
    ['mountain', 't40', SOLVE_BUDGET, 'solvable', 1371],
    ['elephant', 't4', SOLVE_BUDGET, 'solvable', 978],
    ['elephant', 't18', SOLVE_BUDGET, 'unsolvable', 365],
    ['river', 't7', SOLVE_BUDGET, 'solvable', 1692],
    ['river', 't15', SOLVE_BUDGET, 'solvable', 2782],
    ['lotus', 't38', SOLVE_BUDGET, 'solvable', 125],
    ['spire', 't3', SOLVE_BUDGET, 'solvable', 20],
    ['keep', 't34', SOLVE_BUDGET, 'solvable', 36],
  ] as const)('%s %s (budget %i): %s in %i nodes', (id, seed, budget, result, nodes) => {
    const l = layout(id);
    const faces = naiveFaces(l, seed);
    const answer = solve(geometry(l), fullPresence(l.slots.length), faces, { seed, budget });
    expect([answer.result, answer.nodes]).toEqual([result, nodes]);
    if (answer.result === 'solvable') expect(naiveReplay(l.slots, faces, answer.solution)).toBeNull();
  });

  // The corpus's layouts of 144 tiles, where the search meets other shapes (when the corpus is there):
  // [source, layout id, seed of the uniform shuffle, result, nodes].
  describe.skipIf(corpus.length === 0)('on corpus layouts', () => {
    test.each([
      ['kmahjongg', 'arrow', 't1', 'unsolvable', 1],
      ['kmahjongg', 'mesh', 't4', 'unsolvable', 566],
      ['kmahjongg', 'mesh', 't8', 'solvable', 59],
      ['kmahjongg', 'checkered', 't4', 'solvable', 1037],
      ['kmahjongg', 'checkered', 't9', 'unsolvable', 554],
      ['kmahjongg', 'chip', 't2', 'solvable', 2478],
      ['kmahjongg', 'tomb', 't23', 'solvable', 4253],
      ['kmahjongg', 'tomb', 't3', 'unsolvable', 2086],
      ['kmahjongg', 'inner_circle', 't1', 'solvable', 3060],
      ['kmahjongg', 'star_ship', 't1', 'unsolvable', 306],
      ['gnome', 'difficult', 't1', 'unsolvable', 1],
    ] as const)('%s %s %s: %s in %i nodes', (source, id, seed, result, nodes) => {
      const entry = corpus.find((e) => e.source === source && e.id === id);
      if (!entry || !('layout' in entry)) throw new Error(`no corpus layout ${source}:${id}`);
      const l = entry.layout;
      const faces = naiveFaces(l, seed);
      const answer = solve(geometry(l), fullPresence(l.slots.length), faces, { seed });
      expect([answer.result, answer.nodes]).toEqual([result, nodes]);
      if (answer.result === 'solvable') expect(naiveReplay(l.slots, faces, answer.solution)).toBeNull();
    });
  });

  /**
   * The position after `moves` random matching pairs (seeded) of a relaxed deal or a uniform shuffle (both the
   * same for every generator version): what a player asks about mid-game.
   */
  function position(id: string, seed: string, mode: 'relaxed' | 'naive', moves: number) {
    const l = layout(id);
    const geom = geometry(l);
    const made = mode === 'relaxed' ? deal(l, seed, mode) : null;
    if (made && !made.ok) throw new Error(made.message);
    const faces: (Face | null)[] = made?.ok ? made.value.deal.tiles.map((t) => t.face) : naiveFaces(l, seed);
    const present = fullPresence(l.slots.length);
    const rng = makeRng(seed, 'pinned-play');
    for (let k = 0; k < moves; k++) {
      const pairs = matchingPairs(geom, present, faces);
      if (pairs.length === 0) break;
      const [a, b] = pairs[rng.int(pairs.length)]!;
      present[a] = present[b] = 0;
      faces[a] = faces[b] = null;
    }
    return { l, geom, present, faces };
  }

  // [layout, seed, relaxed deal or naive shuffle, random moves played first, result, nodes]
  test.each([
    ['turtle', 'p1', 'relaxed', 8, 'solvable', 6],
    ['turtle', 'p1', 'relaxed', 20, 'solvable', 1],
    ['turtle', 'p1', 'relaxed', 40, 'unsolvable', 11],
    ['turtle', 'p3', 'relaxed', 8, 'solvable', 3],
    ['turtle', 'p3', 'relaxed', 20, 'solvable', 2],
    ['turtle', 'p5', 'relaxed', 20, 'solvable', 4],
    ['turtle', 'p5', 'relaxed', 40, 'solvable', 1],
    ['turtle', 'p6', 'relaxed', 8, 'solvable', 2],
    ['turtle', 'p1', 'naive', 8, 'solvable', 622],
    ['turtle', 'p1', 'naive', 20, 'unsolvable', 451],
    ['turtle', 'p2', 'naive', 20, 'solvable', 2],
    ['turtle', 'p3', 'naive', 8, 'solvable', 49],
    ['turtle', 'p4', 'naive', 20, 'unsolvable', 343],
    ['turtle', 'p6', 'naive', 8, 'solvable', 568],
  ] as const)('%s %s (%s) after %i random moves: %s in %i nodes', (id, seed, mode, moves, result, nodes) => {
    const { l, geom, present, faces } = position(id, seed, mode, moves);
    const answer = solve(geom, present, faces, { seed });
    expect([answer.result, answer.nodes]).toEqual([result, nodes]);
    if (answer.result === 'solvable') expect(naiveReplay(l.slots, faces, answer.solution)).toBeNull();
  });
});
