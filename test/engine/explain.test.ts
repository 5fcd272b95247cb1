/**
 * Why the win was lost (src/engine/explain.ts), checked against exhaustive search on boards small enough to
 * enumerate: every reason given holds in every order of play (the board cannot be cleared, and no tile of the
 * reason ever leaves), and each reason's own claim holds on the board.
 */
import { describe, expect, test } from 'vitest';
import {
  REASONS,
  applyMoves,
  explainLoss,
  explainPosition,
  isDeadlock,
  lostWinOf,
  makeGeometry,
  makeRng,
  matchGroup,
  newGame,
  winnability,
  type Deal,
  type Explanation,
  type Face,
  type Geometry,
  type Move,
  type Reason,
  type Rng,
  type Slot,
} from '../../src/engine/index.ts';
import { naiveIsFree, naiveMatch } from './helpers.ts';

type Board = readonly (Face | null)[];

const maskOf = (faces: Board): number => faces.reduce((m, f, i) => (f == null ? m : m | (1 << i)), 0);

/** The pairs the naive rules allow on the tiles of `mask`. */
function pairsOf(slots: readonly Slot[], faces: Board, mask: number): [number, number][] {
  const present = slots.map((_, i) => (mask & (1 << i)) !== 0);
  const free = slots.map((_, i) => naiveIsFree(slots, present, i));
  const pairs: [number, number][] = [];
  for (let a = 0; a < slots.length; a++)
    for (let b = a + 1; b < slots.length; b++)
      if (free[a] && free[b] && naiveMatch(faces[a]!, faces[b]!)) pairs.push([a, b]);
  return pairs;
}

/** Exhaustive search: can the tiles of `mask` be cleared? */
function clearable(slots: readonly Slot[], faces: Board, mask: number, memo = new Map<number, boolean>()): boolean {
  if (mask === 0) return true;
  const seen = memo.get(mask);
  if (seen !== undefined) return seen;
  let yes = false;
  for (const [a, b] of pairsOf(slots, faces, mask))
    if (clearable(slots, faces, mask & ~(1 << a) & ~(1 << b), memo)) {
      yes = true;
      break;
    }
  memo.set(mask, yes);
  return yes;
}

/** Every board reachable from `mask` in any order of play, as masks. */
function reachable(slots: readonly Slot[], faces: Board, mask: number): Set<number> {
  const seen = new Set<number>([mask]);
  const stack = [mask];
  while (stack.length > 0) {
    const m = stack.pop()!;
    for (const [a, b] of pairsOf(slots, faces, m)) {
      const next = m & ~(1 << a) & ~(1 << b);
      if (seen.has(next)) continue;
      seen.add(next);
      stack.push(next);
    }
  }
  return seen;
}

/** Is slot `top` above `low` through a chain of tiles of `tiles`, each lying on the next? */
function isStackedOn(geom: Geometry, tiles: readonly number[], top: number, low: number): boolean {
  const seen = new Set([low]);
  const stack = [low];
  while (stack.length > 0) {
    const i = stack.pop()!;
    for (const j of geom.above[i]!) {
      if (j === top) return true;
      if (!tiles.includes(j) || seen.has(j)) continue;
      seen.add(j);
      stack.push(j);
    }
  }
  return false;
}

/** Checks a reason against exhaustive search and its own claim; returns its code. */
function checkReason(slots: readonly Slot[], geom: Geometry, faces: Board, e: Explanation): Reason {
  if (e.reason === 'none') {
    expect(e.tiles).toEqual([]);
    return e.reason;
  }
  const mask = maskOf(faces);
  expect(clearable(slots, faces, mask)).toBe(false); // lost, in every order of play
  expect(isDeadlock(geom, faces, e.tiles)).toBe(true);
  const need = e.tiles.reduce((m, i) => m | (1 << i), 0);
  for (const m of reachable(slots, faces, mask)) expect(m & need).toBe(need); // no tile of the reason ever leaves
  const groups = new Set(e.named.map((i) => matchGroup(faces[i]!)));
  if (e.reason === 'cycle') expect(groups.size).toBeGreaterThan(1);
  else expect(groups.size).toBe(1);
  const onBoard = (i: number): number[] =>
    faces.flatMap((f, j) => (f != null && matchGroup(f) === matchGroup(faces[i]!) ? [j] : []));
  if (e.reason === 'stacked' || e.reason === 'walled') expect(e.named).toEqual(onBoard(e.named[0]!)); // the last of a face
  if (e.reason === 'stacked') {
    // one of them lies on every other, through tiles of the reason
    const top = e.named.find((i) => e.named.every((j) => j === i || isStackedOn(geom, e.tiles, i, j)));
    expect(top).toBeDefined();
  }
  if (e.reason === 'same-row') {
    const [a, b] = e.named as [number, number];
    expect(onBoard(a)).toEqual([a, b]); // the last two of a face
    expect(geom.left[b]!.includes(a) || geom.right[b]!.includes(a)).toBe(true); // side by side in one row
  }
  return e.reason;
}

/** A small random board: up to 16 tiles on three layers, each face two or four times. */
function randomBoard(r: Rng): { slots: Slot[]; faces: Face[] } {
  const rng = (): number => r.next() / 2 ** 32;
  const slots: Slot[] = [];
  const fits = (s: Slot): boolean =>
    slots.every((t) => t.z !== s.z || Math.abs(t.x - s.x) >= 2 || Math.abs(t.y - s.y) >= 2);
  const target = 6 + 2 * Math.floor(rng() * 6); // 6 … 16
  for (let tries = 0; slots.length < target && tries < 200; tries++) {
    const z = Math.floor(rng() * rng() * 3);
    const s = { x: 2 * Math.floor(rng() * 5) + (z > 0 && rng() < 0.3 ? 1 : 0), y: 2 * Math.floor(rng() * 2), z };
    if (fits(s)) slots.push(s);
  }
  if (slots.length % 2) slots.pop();
  const pool: Face[] = ['dr', 'b5', 'c3', 'we', 'd7', 'f1', 'f2'];
  const faces: Face[] = [];
  while (faces.length < slots.length) {
    const face = pool[Math.floor(rng() * pool.length)]!;
    const n = slots.length - faces.length >= 4 && rng() < 0.4 ? 4 : 2;
    for (let i = 0; i < n; i++) faces.push(face);
  }
  for (let i = faces.length - 1; i > 0; i--) {
    const j = Math.floor(rng() * (i + 1));
    [faces[i], faces[j]] = [faces[j]!, faces[i]!];
  }
  return { slots, faces };
}

describe('a reason holds in every order of play (exhaustive search)', () => {
  test('random small boards: every reason given is proved, and clearable boards get none', () => {
    const rng = makeRng('explain', 'boards');
    const seen = new Map<Reason, number>();
    let lost = 0;
    for (let n = 0; n < 3000; n++) {
      const { slots, faces } = randomBoard(rng);
      const geom = makeGeometry(slots);
      const e = explainPosition(geom, faces);
      const reason = checkReason(slots, geom, faces, e);
      if (clearable(slots, faces, maskOf(faces))) expect(reason).toBe('none');
      else lost++;
      seen.set(reason, (seen.get(reason) ?? 0) + 1);
    }
    expect(lost).toBeGreaterThan(300);
    for (const r of ['stacked', 'same-row', 'cycle'] as const) expect(seen.get(r) ?? 0).toBeGreaterThan(0);
    for (const r of seen.keys()) expect(REASONS).toContain(r);
  });

  test('losing moves on random small boards: the reason is for the board after the move', () => {
    const rng = makeRng('explain', 'losses');
    let losses = 0;
    let named = 0;
    for (let n = 0; n < 1500; n++) {
      const { slots, faces } = randomBoard(rng);
      const geom = makeGeometry(slots);
      const mask = maskOf(faces);
      if (!clearable(slots, faces, mask)) continue;
      for (const [a, b] of pairsOf(slots, faces, mask)) {
        const after = faces.slice() as (Face | null)[];
        after[a] = after[b] = null;
        if (clearable(slots, after, maskOf(after))) {
          expect(explainLoss(geom, faces, [a, b]).reason).toBe('none'); // a move that keeps the win: no reason
          continue;
        }
        losses++;
        const e = explainLoss(geom, faces, [a, b]);
        expect(e.move).toEqual([a, b]);
        if (checkReason(slots, geom, after, e) !== 'none') named++;
      }
    }
    expect(losses).toBeGreaterThan(100);
    expect(named).toBeGreaterThan(losses / 4);
  });
});

describe('each reason where it holds, and where it must not be claimed', () => {
  const board = (tiles: [number, number, number, Face][]) => ({
    slots: tiles.map(([x, y, z]) => ({ x, y, z })),
    faces: tiles.map((t) => t[3]),
  });
  test.each([
    // the last two Red dragons, one on the other
    [
      'stacked',
      board([
        [0, 0, 0, 'dr'],
        [0, 0, 1, 'dr'],
        [4, 0, 0, 'b5'],
        [8, 0, 0, 'b5'],
      ]),
      [0, 1],
    ],
    // four dragons, two stacked and two free: the top pairs with a free one, the bottom with the other
    [
      'none',
      board([
        [0, 0, 0, 'dr'],
        [0, 0, 1, 'dr'],
        [4, 0, 0, 'dr'],
        [8, 0, 0, 'dr'],
      ]),
      [],
    ],
    // a pair on a pair of another face, crosswise: each waits for the other's pair
    [
      'cycle',
      board([
        [0, 0, 0, 'dr'],
        [0, 0, 1, 'b5'],
        [4, 0, 0, 'b5'],
        [4, 0, 1, 'dr'],
      ]),
      [0, 1, 2, 3],
    ],
    // two pairs in one row, each pair side by side: the inner dragon waits for the inner Bamboo 5 and so on
    [
      'same-row',
      board([
        [0, 0, 0, 'dr'],
        [2, 0, 0, 'dr'],
        [4, 0, 0, 'b5'],
        [6, 0, 0, 'b5'],
      ]),
      [0, 1, 2, 3],
    ],
    // the same row, one pair inside the other: the ends match, then the inner two
    [
      'none',
      board([
        [0, 0, 0, 'dr'],
        [2, 0, 0, 'b5'],
        [4, 0, 0, 'b5'],
        [6, 0, 0, 'dr'],
      ]),
      [],
    ],
  ] as const)('%s', (reason, { slots, faces }, tiles) => {
    const geom = makeGeometry(slots);
    const e = explainPosition(geom, faces);
    expect(checkReason(slots, geom, faces, e)).toBe(reason);
    expect(e.tiles).toEqual(tiles);
  });
});

describe('lostWinOf: the losing match of a game, counted in board moves', () => {
  test('a game with hints, undos and redos: the board before the losing match, and where it is in the log', () => {
    const slots: Slot[] = [
      { x: 0, y: 0, z: 0 },
      { x: 0, y: 0, z: 1 },
      { x: 4, y: 0, z: 0 },
      { x: 8, y: 0, z: 0 },
      { x: 12, y: 0, z: 0 },
      { x: 16, y: 0, z: 0 },
    ];
    const faces: Face[] = ['dr', 'dr', 'dr', 'dr', 'b5', 'b5'];
    const deal: Deal = {
      layout: 'test',
      seed: 'x',
      mode: 'relaxed',
      generator: 'test',
      difficulty: { band: 'easy', score: 0 },
      tiles: slots.map((s, i) => ({ ...s, face: faces[i]! })),
      solution: [
        [1, 2],
        [0, 3],
        [4, 5],
      ],
    };
    const log: Move[] = [
      { type: 'match', a: 4, b: 5 }, // 0
      { type: 'hint' },
      { type: 'match', a: 2, b: 3 }, // 1: loses the win (the two left lie one on the other)
      { type: 'undo' }, // 2
      { type: 'check', heard: 'no' },
      { type: 'redo' }, // 3: plays it again
    ];
    const start = newGame(deal);
    if (!start.ok) throw new Error(start.message);
    const game = applyMoves(start.value, log);
    if (!game.ok) throw new Error(game.message);
    const w = winnability(game.value);
    expect(w).toEqual({ result: 'unsolvable', undoSteps: 1 });
    const lostWin = lostWinOf(game.value, w.undoSteps!);
    expect(lostWin).toEqual({ at: 3, before: ['dr', 'dr', 'dr', 'dr', null, null], move: [2, 3] });
    const e = explainLoss(game.value.geom, lostWin!.before, lostWin!.move);
    expect(e).toMatchObject({ reason: 'stacked', tiles: [0, 1], named: [0, 1] });
  });
});
