/** A replay's frames for the server's page and the script (docs/server.md, "Replays"). */
import type { Face, Game, Move, Pair } from '../engine/index.ts';
import { faceMessage, type Format } from './i18n.ts';

/** Position k: the board after k moves, and what move k did. */
export interface ReplayFrame {
  readonly k: number;
  readonly moves: number;
  readonly removed: Pair | null; // by move k: drawn as outlines
  readonly restored: Pair | null; // by move k (an undo)
  readonly next: Pair | null; // taken off by move k + 1
  readonly what: What;
  readonly cleared: boolean;
}

export type What =
  | { readonly kind: 'deal' | 'redoShuffle' | 'undoShuffle' | 'shuffle' | 'hint' | 'check' }
  | { readonly kind: 'match' | 'redo' | 'undo'; readonly a: Face; readonly b: Face };

/** An undo-stack step (Game.past, Game.future), as a frame needs it. */
type StepLike =
  | { readonly type: 'match'; readonly a: number; readonly b: number; readonly faceA: Face; readonly faceB: Face }
  | { readonly type: 'shuffle' };

const last = (steps: readonly StepLike[]): StepLike | undefined => steps[steps.length - 1];
const pairOf = (step: StepLike | undefined): Pair | null => (step?.type === 'match' ? [step.a, step.b] : null);

/** The frame of position k, from the game after move k and the log. */
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
  let what: What;
  const step = move?.type === 'undo' ? last(future) : last(past);
  switch (move?.type) {
    case undefined:
      what = { kind: 'deal' };
      break;
    case 'match':
    case 'redo':
      if (step?.type === 'match') {
        removed = [step.a, step.b];
        what = { kind: move.type, a: step.faceA, b: step.faceB };
      } else what = { kind: 'redoShuffle' };
      break;
    case 'undo':
      if (step?.type === 'match') {
        restored = [step.a, step.b];
        what = { kind: 'undo', a: step.faceA, b: step.faceB };
      } else what = { kind: 'undoShuffle' };
      break;
    case 'shuffle':
      what = { kind: 'shuffle' };
      break;
    case 'hint':
      what = { kind: 'hint' };
      break;
    case 'check':
      what = { kind: 'check' };
      break;
  }
  return { k, moves: log.length, removed, restored, next, what, cleared: k > 0 && after.left === 0 };
}

const WHAT_KEYS = {
  deal: 'client.replay.deal',
  match: 'client.replay.match',
  redo: 'client.replay.redo',
  undo: 'client.replay.undo',
  redoShuffle: 'client.replay.redoShuffle',
  undoShuffle: 'client.replay.undoShuffle',
  shuffle: 'client.replay.shuffle',
  hint: 'client.replay.hint',
  check: 'client.replay.check',
} as const satisfies Record<What['kind'], string>;

/** Frame k in words ("Move 12: Bamboo 3 and Bamboo 3 matched."). */
export function frameText(t: Format, frame: ReplayFrame): string {
  const { what } = frame;
  const said =
    'a' in what
      ? t(WHAT_KEYS[what.kind], { a: t(...faceMessage(what.a)), b: t(...faceMessage(what.b)) })
      : t(WHAT_KEYS[what.kind]);
  if (frame.k === 0) return said;
  const move = t('client.replay.move', { k: frame.k, what: said });
  return frame.cleared ? `${move} ${t('client.win.title')}` : move;
}

export interface Span {
  readonly from: number;
  readonly to: number;
}

export const isLostAt = (lost: readonly Span[], k: number): boolean => lost.some((s) => s.from <= k && k <= s.to);

export const replayUrl = (token: string, k: number): string => `/replay/${encodeURIComponent(token)}?move=${k}`;
