/**
 * A replay's frames as the server's replay page and the browser's replay script both show them (docs/server.md,
 * "Replays"): what move k did, in words, and which pairs to mark on the board after it. No DOM, no Node: the
 * page renders frame K, the script every frame it steps to, from the same engine states.
 */
import { faceName, type Face, type Game, type Move, type Pair } from '../engine/index.ts';

/** Position k of a replay: the board after the log's first k moves, and what move k did. */
export interface ReplayFrame {
  readonly k: number; // 0 … moves
  readonly moves: number; // the log's length
  readonly removed: Pair | null; // the pair move k took off the board (a match, or a redo of one): drawn as outlines
  readonly restored: Pair | null; // the pair move k put back (an undo of a match): marked on the board
  readonly next: Pair | null; // the pair move k + 1 takes off, if it takes one: marked on the board
  readonly text: string; // what move k did, in words ("Move 12: Bamboo 3 and Bamboo 3 matched.")
}

/** A step of the engine's undo stacks (Game.past, Game.future), as far as a frame needs it. */
type StepLike =
  | { readonly type: 'match'; readonly a: number; readonly b: number; readonly faceA: Face; readonly faceB: Face }
  | { readonly type: 'shuffle' };

const last = (steps: readonly StepLike[]): StepLike | undefined => steps[steps.length - 1];
const pairOf = (step: StepLike | undefined): Pair | null => (step?.type === 'match' ? [step.a, step.b] : null);
const namesOf = (step: Extract<StepLike, { type: 'match' }>): string =>
  `${faceName(step.faceA)} and ${faceName(step.faceB)}`;

/**
 * The frame of position k, from the game after move k (`after`, as the engine's replay of the log's first k
 * moves gives it) and the log.
 */
export function frameOf(after: Game, log: readonly Move[], k: number): ReplayFrame {
  const past = after.past as readonly StepLike[];
  const future = after.future as readonly StepLike[];
  const move = k > 0 ? log[k - 1] : undefined;
  const following = log[k];
  const next =
    following?.type === 'match'
      ? ([following.a, following.b] as Pair)
      : following?.type === 'redo'
        ? pairOf(last(future))
        : null;
  let removed: Pair | null = null;
  let restored: Pair | null = null;
  let what: string;
  const step = move?.type === 'undo' ? last(future) : last(past);
  switch (move?.type) {
    case undefined:
      what = 'The deal, before the first move.';
      break;
    case 'match':
    case 'redo':
      if (step?.type === 'match') {
        removed = [step.a, step.b];
        what = `${namesOf(step)} matched${move.type === 'redo' ? ' again (a redo)' : ''}.`;
      } else what = `The shuffle played again (a redo): ${after.left} tiles dealt anew.`;
      break;
    case 'undo':
      if (step?.type === 'match') {
        restored = [step.a, step.b];
        what = `Undo: ${namesOf(step)} back on the board.`;
      } else what = 'Undo: the shuffle taken back.';
      break;
    case 'shuffle':
      what = `Shuffled: the ${after.left} tiles left dealt anew.`;
      break;
    case 'hint':
      what = 'Asked for a hint.';
      break;
    case 'check':
      what = 'Asked whether the board could still be cleared.';
      break;
  }
  const text = k === 0 ? what : `Move ${k}: ${what}${after.left === 0 ? ' Board cleared!' : ''}`;
  return { k, moves: log.length, removed, restored, next, text };
}

/** A span of positions that could not be cleared (the engine's review). */
export interface Span {
  readonly from: number;
  readonly to: number;
}

/** Is position k in one of the lost spans? */
export const isLostAt = (lost: readonly Span[], k: number): boolean => lost.some((s) => s.from <= k && k <= s.to);

/** The replay page's address of position k. */
export const replayUrl = (token: string, k: number): string => `/replay/${encodeURIComponent(token)}?move=${k}`;
