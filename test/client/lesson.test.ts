import { describe, expect, test } from 'vitest';
import { isTileFree } from '../../src/engine/index.ts';
import { blockedBy, control, isOver, makeLesson, stepOf, tapTile } from '../../src/client/lesson.ts';

describe('the first game lesson', () => {
  test('the board shows both ways of being blocked and one free pair', () => {
    const l = makeLesson();
    const free = [0, 1, 2, 3, 4, 5, 6, 7].filter((i) => isTileFree(l.game, i));
    expect(free).toEqual([0, 3, 6, 7]);
    expect(blockedBy(l.game, 1)).toBe('covered');
    expect(blockedBy(l.game, 2)).toBe('sides');
  });

  test('each step waits for its own action', () => {
    const l = makeLesson();
    expect(tapTile(l, 1)).toEqual({ kind: 'covered', slot: 1 });
    expect(tapTile(l, 5)).toEqual({ kind: 'sides', slot: 5 });
    expect(stepOf(l)).toBe('free');
    expect(tapTile(l, 0)).toEqual({ kind: 'selected', slot: 0 });
    expect(stepOf(l)).toBe('match');
    expect(tapTile(l, 6)).toEqual({ kind: 'nomatch', a: 0, b: 6 });
    expect(tapTile(l, 7)).toEqual({ kind: 'matched', a: 6, b: 7 });
    expect(stepOf(l)).toBe('flowers');
    expect(tapTile(l, 2).kind).toBe('selected');
    expect(tapTile(l, 5)).toEqual({ kind: 'matched', a: 2, b: 5 }); // plum with chrysanthemum
    expect(stepOf(l)).toBe('hint');
    expect(control(l, 'hint')).toBe(true);
    const [a, b] = l.hint!;
    tapTile(l, a);
    expect(tapTile(l, b).kind).toBe('matched');
    expect(stepOf(l)).toBe('undo');
    expect(l.game.left).toBe(2);
    expect(control(l, 'undo')).toBe(true);
    expect(l.game.left).toBe(4);
    expect(stepOf(l)).toBe('undo');
    expect(control(l, 'shuffle')).toBe(true);
    expect(stepOf(l)).toBe('check');
    expect(isOver(l)).toBe(false);
    expect(control(l, 'check')).toBe(true);
    expect(l.answer).toEqual({ kind: 'yes' });
    expect(isOver(l)).toBe(true);
  });
});
