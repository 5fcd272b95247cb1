/**
 * The first game's lesson without the DOM: an eight-tile board played through the engine, and six steps that
 * each wait for one action (docs/client.md, "The first game's lesson"). tutorial.ts draws it.
 */
import {
  applyMove,
  canMatch,
  hintFor,
  isTileFree,
  newGame,
  winnability,
  type Game,
  type Pair,
} from '../engine/index.ts';
import { LESSON_DEAL } from '../shared/lesson.ts';

export const STEPS = ['free', 'match', 'flowers', 'hint', 'undo', 'check'] as const;
export type Step = (typeof STEPS)[number];

/** The check's answer, as the play page says it (client.check.*). */
export type Answer =
  { readonly kind: 'yes' | 'noShuffle' | 'unknown' } | { readonly kind: 'noUndo'; readonly n: number };

export interface Lesson {
  step: number; // index into STEPS
  game: Game;
  selected: number | null;
  hint: Pair | null;
  undone: boolean; // on the undo step
  shuffled: boolean; // on the undo step
  answer: Answer | null; // once asked: the lesson is over
}

export type TapResult =
  | { readonly kind: 'covered' | 'sides' | 'selected' | 'deselected' | 'gone'; readonly slot: number }
  | { readonly kind: 'matched'; readonly a: number; readonly b: number }
  | { readonly kind: 'nomatch'; readonly a: number; readonly b: number };

export function makeLesson(): Lesson {
  const game = newGame(LESSON_DEAL);
  if (!game.ok) throw new Error(`the lesson's board: ${game.message}`); // a programmer's error
  return { step: 0, game: game.value, selected: null, hint: null, undone: false, shuffled: false, answer: null };
}

export const stepOf = (l: Lesson): Step => STEPS[Math.min(l.step, STEPS.length - 1)]!;

/** Why slot `i` is blocked: a tile on it, or tiles at both sides. */
export function blockedBy(game: Game, i: number): 'covered' | 'sides' {
  return game.geom.above[i]!.some((j) => game.faces[j] !== null) ? 'covered' : 'sides';
}

const advance = (l: Lesson, from: Step): void => {
  if (stepOf(l) === from) l.step++;
};

/** A tap on slot `i`. Mutates. */
export function tapTile(l: Lesson, i: number): TapResult {
  const { game } = l;
  const face = game.faces[i];
  if (face === null || face === undefined) return { kind: 'gone', slot: i };
  if (!isTileFree(game, i)) return { kind: blockedBy(game, i), slot: i };
  const was = l.selected;
  if (was === null || was === i) {
    l.selected = was === i ? null : i;
    if (was === null) advance(l, 'free');
    return { kind: was === i ? 'deselected' : 'selected', slot: i };
  }
  if (!canMatch(game.faces[was]!, face)) {
    l.selected = i;
    return { kind: 'nomatch', a: was, b: i };
  }
  const played = applyMove(game, { type: 'match', a: was, b: i });
  if (!played.ok) return { kind: 'nomatch', a: was, b: i }; // not reached
  l.game = played.value;
  l.selected = null;
  l.hint = null;
  const step = stepOf(l);
  if (step === 'match' || step === 'hint') advance(l, step);
  else if (step === 'flowers' && face[0] === 'f') advance(l, 'flowers');
  return { kind: 'matched', a: was, b: i };
}

/** Hint, Undo, Shuffle or the check; false when the board cannot do it now. Mutates. */
export function control(l: Lesson, action: 'hint' | 'undo' | 'shuffle' | 'check'): boolean {
  l.selected = null;
  if (action === 'hint') {
    l.hint = hintFor(l.game).pair;
    return l.hint !== null;
  }
  if (action === 'check') {
    const w = winnability(l.game);
    l.answer =
      w.result === 'solvable'
        ? { kind: 'yes' }
        : w.result === 'unsolvable'
          ? w.undoSteps
            ? { kind: 'noUndo', n: w.undoSteps }
            : { kind: 'noShuffle' }
          : { kind: 'unknown' };
    advance(l, 'check');
    return true;
  }
  const played = applyMove(l.game, { type: action });
  if (!played.ok) return false;
  l.game = played.value;
  l.hint = null;
  if (action === 'undo') l.undone = true;
  else l.shuffled = true;
  if (l.undone && l.shuffled) advance(l, 'undo');
  return true;
}

export const isOver = (l: Lesson): boolean => l.step >= STEPS.length;
