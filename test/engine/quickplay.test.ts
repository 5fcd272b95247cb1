import { describe, expect, test } from 'vitest';
import { LAYOUTS, layoutById } from '../../src/engine/builtins.ts';
import {
  dealBoard,
  difficultyGames,
  geometryOf,
  groupsOf,
  makeRng,
  measureDifficulty,
  playRandom,
  type Face,
  type Geometry,
  type Layout,
  type Mode,
} from '../../src/engine/index.ts';
import { countRandomClears, remainder } from '../../src/engine/quickplay.ts';
import { rngState, sfc32Next as sfc32 } from '../../src/engine/rng.ts';

const geometry = (layout: Layout): Geometry => {
  const g = geometryOf(layout);
  if (!g.ok) throw new Error(g.message);
  return g.value;
};

const facesOf = (layout: Layout, seed: string, mode: Mode): Face[] => {
  const made = dealBoard(layout, seed, mode);
  if (!made.ok) throw new Error(made.message);
  return made.value.deal.tiles.map((t) => t.face);
};

/** The difficulty as it was measured before quickplay.ts: playRandom's games from makeRng. */
function plainDifficulty(geom: Geometry, faces: readonly Face[]): { cleared: number; score: number } {
  const games = difficultyGames(geom.size);
  const groups = groupsOf(faces);
  const rng = makeRng('difficulty', faces.join(''));
  let cleared = 0;
  for (let k = 0; k < games; k++) if (playRandom(geom, groups, rng) === 0) cleared++;
  return { cleared, score: Math.round((10_000 * (games - cleared)) / games) / 100 };
}

describe('quick random play', () => {
  test('rngState is the state makeRng starts from', () => {
    for (const parts of [['a'], ['difficulty', 'x'.repeat(144)], ['s', 'relaxed', '3']]) {
      const state = rngState(...parts);
      const rng = makeRng(...parts);
      for (let k = 0; k < 20; k++) expect(sfc32(state)).toBe(rng.next());
    }
  });

  test('remainder is v % n for every 32-bit v, below 2^15 in integers and above it', () => {
    const state = rngState('remainder');
    const values = [0, 1, 0x7fff, 0x8000, 0xffff, 0x10000, 0x7fffffff, 0x80000000, 0xfffffffe, 0xffffffff];
    for (let k = 0; k < 2_000; k++) values.push(sfc32(state));
    const sizes = [1, 2, 3, 7, 143, 216, 0x7ffe, 0x7fff, 0x8000, 0x8001, 44_850, 0xffff, 0x10000, 0x7fffffff, 2 ** 32];
    for (const n of sizes) for (const v of values) expect(remainder(v, n), `${v} % ${n}`).toBe(v % n);
  });

  test.each(['turtle', 'fortress', 'butterfly', 'mushroom'])(
    '%s: game by game the same outcomes as playRandom, and the generator left in the same place',
    (id) => {
      const layout = layoutById(id)!;
      const geom = geometry(layout);
      for (const mode of ['relaxed', 'classic'] as const) {
        const faces = facesOf(layout, `quick-${id}`, mode);
        const groups = groupsOf(faces);
        const plain = makeRng('quick', mode);
        const state = rngState('quick', mode);
        for (let game = 0; game < 60; game++)
          expect(countRandomClears(geom, groups, state, 1)).toBe(playRandom(geom, groups, plain) === 0 ? 1 : 0);
        expect(sfc32(state)).toBe(plain.next());
      }
    },
  );

  // The same score as before on every built-in layout (so no stored deal's difficulty changes): many seeds.
  test('measureDifficulty gives the score of 200 plain games (so their band) on every built-in layout', () => {
    let deals = 0;
    for (const layout of LAYOUTS) {
      const geom = geometry(layout);
      for (let k = 1; k <= 6; k++) {
        const faces = facesOf(layout, `same-score-${k}`, 'relaxed');
        const { score } = plainDifficulty(geom, faces);
        expect(measureDifficulty(geom, faces, 'relaxed').score, `${layout.id} same-score-${k}`).toBe(score);
        deals++;
      }
    }
    expect(deals).toBe(LAYOUTS.length * 6);
  }, 120_000);

  test('on 300 turtle deals too, relaxed and classic faces', () => {
    const layout = layoutById('turtle')!;
    const geom = geometry(layout);
    for (let k = 1; k <= 300; k++) {
      const faces = facesOf(layout, `turtle-score-${k}`, k % 10 === 0 ? 'classic' : 'relaxed');
      const plain = plainDifficulty(geom, faces);
      const quick = measureDifficulty(geom, faces, 'relaxed');
      expect(quick.score, `turtle-score-${k}`).toBe(plain.score);
    }
  }, 120_000);
});
