import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  applyMove,
  applyMoves,
  availablePairs,
  deal,
  hintFor,
  isTileFree,
  newGame,
  presenceOf,
  replay,
  solve,
  statusOf,
  winnability,
  type Deal,
  type Game,
  type Move,
} from '../../src/engine/index.ts';
import { naiveIsFree, naiveReplay } from './helpers.ts';

const turtleDeal = (seed = 'game'): Deal => {
  const result = deal(layoutById('turtle')!, seed);
  if (!result.ok) throw new Error(result.message);
  return result.value.deal;
};

const start = (d: Deal): Game => {
  const game = newGame(d);
  if (!game.ok) throw new Error(game.message);
  return game.value;
};

const play = (game: Game, moves: Move[]): Game => {
  const next = applyMoves(game, moves);
  if (!next.ok) throw new Error(next.message);
  return next.value;
};

const matchesOf = (d: Deal, count: number): Move[] =>
  d.solution.slice(0, count).map(([a, b]) => ({ type: 'match', a, b }));

/** Two d1 stacked on each other beside two b1: after the b1 pair, only the stacked pair is left (stuck). */
const STACKED: Deal = {
  layout: 'x', seed: 'x', mode: 'relaxed', generator: '1', difficulty: { band: 'expert', score: 100 },
  tiles: [{ x: 0, y: 0, z: 0, face: 'd1' }, { x: 0, y: 0, z: 1, face: 'd1' }, { x: 4, y: 0, z: 0, face: 'b1' }, { x: 8, y: 0, z: 0, face: 'b1' }],
  solution: [],
}; // prettier-ignore

/** Two tiles of the same face where one is blocked. */
function blockedMatch(d: Deal, game: Game): Move {
  for (let a = 0; a < 144; a++)
    for (let b = 0; b < 144; b++)
      if (a !== b && d.tiles[a]!.face === d.tiles[b]!.face && !isTileFree(game, a)) return { type: 'match', a, b };
  throw new Error('no blocked tile');
}

/** Two free tiles whose faces differ. */
function mismatch(game: Game): Move {
  const free = game.faces.map((_, i) => i).filter((i) => isTileFree(game, i));
  for (const a of free)
    for (const b of free) if (game.faces[a]![0] !== game.faces[b]![0]) return { type: 'match', a, b };
  throw new Error('all free faces alike');
}

describe('moves', () => {
  test('the deal solution wins the game', () => {
    const d = turtleDeal();
    const game = play(start(d), matchesOf(d, 72));
    expect(statusOf(game)).toBe('won');
    expect(game.left).toBe(0);
    expect(game.faces.every((f) => f === null)).toBe(true);
  });

  test('free flags agree with the naive rule along a whole game', () => {
    const d = turtleDeal('free');
    let game = start(d);
    for (const move of matchesOf(d, 72)) {
      const present = game.faces.map((f) => f !== null);
      for (let i = 0; i < 144; i++) expect(isTileFree(game, i)).toBe(naiveIsFree(d.tiles, present, i));
      game = play(game, [move]);
    }
  });

  const illegal: [string, (d: Deal, g: Game) => Move, string][] = [
    ['an index past the board', () => ({ type: 'match', a: 0, b: 144 }), 'ERR_NO_SUCH_TILE'],
    ['a negative index', () => ({ type: 'match', a: -1, b: 3 }), 'ERR_NO_SUCH_TILE'],
    ['a fractional index', () => ({ type: 'match', a: 1.5, b: 3 }), 'ERR_NO_SUCH_TILE'],
    ['the same tile twice', () => ({ type: 'match', a: 3, b: 3 }), 'ERR_SAME_TILE'],
    ['a blocked tile', (d, g) => blockedMatch(d, g), 'ERR_NOT_FREE'],
    ['two faces that do not match', (_, g) => mismatch(g), 'ERR_NO_MATCH'],
    ['undo at the start', () => ({ type: 'undo' }), 'ERR_NOTHING_TO_UNDO'],
    ['redo with nothing undone', () => ({ type: 'redo' }), 'ERR_NOTHING_TO_REDO'],
  ];
  test.each(illegal)('%s is refused and changes nothing', (_, makeMove, code) => {
    const d = turtleDeal();
    const game = start(d);
    const result = applyMove(game, makeMove(d, game));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toBe(code);
    expect(game.faces).toEqual(d.tiles.map((t) => t.face));
  });

  test('a removed tile cannot be matched again', () => {
    const d = turtleDeal();
    const [a, b] = d.solution[0]!;
    const game = play(start(d), [{ type: 'match', a, b }]);
    const again = applyMove(game, { type: 'match', a, b });
    expect(!again.ok && again.error).toBe('ERR_REMOVED');
  });

  test('undo and redo walk back and forth; a new match clears redo', () => {
    const d = turtleDeal();
    const two = play(start(d), matchesOf(d, 2));
    const back = play(two, [{ type: 'undo' }, { type: 'undo' }]);
    expect(back.faces).toEqual(d.tiles.map((t) => t.face));
    const forth = play(back, [{ type: 'redo' }, { type: 'redo' }]);
    expect(forth.faces).toEqual(two.faces);
    const branched = play(back, matchesOf(d, 1));
    expect(applyMove(branched, { type: 'redo' }).ok).toBe(false);
    expect(forth.undos).toBe(2);
    expect(forth.redos).toBe(2);
  });

  test('replay rebuilds the same game from its log, and names the first illegal move', () => {
    const d = turtleDeal();
    const game = play(start(d), [...matchesOf(d, 3), { type: 'hint' }, { type: 'undo' }, { type: 'shuffle' }]);
    const again = replay(d, game.log);
    expect(again.ok && again.value.faces).toEqual(game.faces);
    expect(again.ok && again.value.hints).toBe(1);
    const forged = replay(d, [...game.log, { type: 'match', a: 0, b: 0 }]);
    expect(!forged.ok && forged.error.index).toBe(game.log.length);
  });
});

describe('shuffle', () => {
  test('keeps the faces on the board, stays finishable, and is the same every time', () => {
    const d = turtleDeal('shuffle');
    for (const played of [0, 10, 40, 70]) {
      const before = play(start(d), matchesOf(d, played));
      const after = play(before, [{ type: 'shuffle' }]);
      const again = play(before, [{ type: 'shuffle' }]);
      expect(after.faces).toEqual(again.faces);
      expect(after.faces.map((f) => f === null)).toEqual(before.faces.map((f) => f === null));
      expect([...after.faces].filter(Boolean).sort()).toEqual([...before.faces].filter(Boolean).sort());
      const solved = solve(after.geom, presenceOf(after), after.faces);
      expect(solved.result).toBe('solvable');
      expect(after.shuffles).toBe(1);
    }
  });

  test('the second shuffle differs from the first', () => {
    const d = turtleDeal('shuffle2');
    const once = play(start(d), [{ type: 'shuffle' }]);
    const twice = play(once, [{ type: 'shuffle' }]);
    expect(twice.faces).not.toEqual(once.faces);
  });

  test('undo and redo of shuffles share their boards: later matches never change a board or an earlier game', () => {
    const d = turtleDeal('shared-boards');
    const first = play(start(d), [{ type: 'shuffle' }]);
    const boardCopy = first.boards.map((b) => b.slice());
    const facesCopy = first.faces.slice();
    const moves: Move[] = [{ type: 'undo' }, { type: 'redo' }, { type: 'undo' }, { type: 'redo' }];
    let game = play(first, moves);
    for (let k = 0; k < 5; k++) {
      const [a, b] = availablePairs(game)[0]!;
      game = play(game, [
        { type: 'match', a, b },
        { type: 'undo' },
        { type: 'redo' },
        { type: 'shuffle' },
        { type: 'undo' },
      ]);
    }
    expect(first.faces).toEqual(facesCopy); // the earlier value is untouched
    expect(first.boards).toEqual(boardCopy);
    expect(game.boards[0]).toEqual(boardCopy[0]);
    const taken = replay(d, game.log, game.boards);
    const searched = replay(d, game.log);
    expect(taken.ok && taken.value.faces).toEqual(game.faces);
    expect(searched.ok && searched.value.faces).toEqual(game.faces);
  });

  test('when the tiles left sit on each other, shuffle says so and undo helps', () => {
    const d = STACKED;
    const game = play(start(d), [{ type: 'match', a: 2, b: 3 }]);
    expect(statusOf(game)).toBe('stuck');
    const shuffled = applyMove(game, { type: 'shuffle' });
    expect(!shuffled.ok && shuffled.error).toBe('ERR_CANNOT_SHUFFLE');
    expect(!shuffled.ok && shuffled.message).toContain('undo');
    expect(applyMove(game, { type: 'undo' }).ok).toBe(true);
  });
});

describe('hint and winnability', () => {
  test('a hint is a legal pair that keeps the game winnable', () => {
    const d = turtleDeal('hint');
    let game = start(d);
    for (let k = 0; k < 72; k++) {
      const hint = hintFor(game);
      expect(hint.pair).not.toBeNull();
      expect(hint.winning).toBe(true);
      const [a, b] = hint.pair!;
      game = play(game, [{ type: 'match', a, b }]);
    }
    expect(statusOf(game)).toBe('won');
  });

  test('after a losing move, winnability says no and how many undos lead back', () => {
    // Find a move from the start that loses: play available pairs until the solver says unsolvable.
    const d = turtleDeal('lose');
    let game = start(d);
    for (let guard = 0; guard < 72; guard++) {
      const pairs = availablePairs(game);
      const losing = pairs.find(([a, b]) => {
        const next = applyMove(game, { type: 'match', a, b });
        return next.ok && solve(next.value.geom, presenceOf(next.value), next.value.faces).result === 'unsolvable';
      });
      if (losing) {
        const lost = play(game, [{ type: 'match', a: losing[0], b: losing[1] }]);
        const deeper = play(
          lost,
          availablePairs(lost)
            .slice(0, 1)
            .map(([a, b]) => ({ type: 'match', a, b })),
        );
        const answer = winnability(deeper);
        expect(answer.result).toBe('unsolvable');
        expect(answer.undoSteps).toBe(deeper.past.length - game.past.length);
        return;
      }
      const hint = hintFor(game);
      game = play(game, [{ type: 'match', a: hint.pair![0], b: hint.pair![1] }]);
    }
    throw new Error('no losing move found along the game');
  });

  test('the status is stuck when no pair is free, and hint then has nothing', () => {
    const d = STACKED;
    const game = play(start(d), [{ type: 'match', a: 2, b: 3 }]);
    expect(statusOf(game)).toBe('stuck');
    expect(hintFor(game).pair).toBeNull();
    expect(
      naiveReplay(
        d.tiles,
        d.tiles.map((t) => t.face),
        [[2, 3]],
      ),
    ).toBe('2 tiles left');
  });
});

describe('engine purity', () => {
  const dir = join(import.meta.dirname, '../../src/engine');
  const files = readdirSync(dir).filter((f) => f.endsWith('.ts'));
  test.each(files)('%s uses no I/O, DOM, clock or Math.random', (file) => {
    const code = readFileSync(join(dir, file), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
    for (const banned of [
      /Math\.random/,
      /\bDate\b/,
      /\bperformance\b/,
      /\bsetTimeout\b/,
      /\bdocument\b/,
      /\bwindow\b/,
      /from 'node:/,
      /\brequire\(/,
      /\bconsole\./,
      /\bprocess\./,
      /\bfetch\(/,
    ])
      expect(code, `${file} matches ${banned}`).not.toMatch(banned);
  });
});
