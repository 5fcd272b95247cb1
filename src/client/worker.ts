/**
 * The solver's Web Worker: hints, "can this still be won?" and offline deals, off the main thread. Requests carry
 * the deal and log; answers echo the id. It remembers the last lost position (docs/client.md, section on hints).
 */
import {
  availablePairs,
  deal,
  explainLoss,
  lostWinOf,
  hintFor,
  layoutById,
  replay,
  SOLVE_BUDGET,
  winnability,
  type Deal,
  type Face,
  type Game,
  type Mode,
  type Move,
  type Pair,
} from '../engine/index.ts';
import { answerMessages } from './answer.ts';

export type WorkerRequest =
  | {
      readonly id: number;
      readonly kind: 'hint' | 'check';
      readonly deal: Deal;
      readonly log: readonly Move[];
    }
  | { readonly id: number; readonly kind: 'deal'; readonly layout: string; readonly seed: string; readonly mode: Mode };

export type WorkerAnswer =
  | {
      readonly id: number;
      readonly kind: 'hint';
      readonly pair: Pair | null;
      readonly winning: boolean;
      readonly result: string;
    }
  | {
      readonly id: number;
      readonly kind: 'check';
      readonly result: string;
      readonly undoSteps: number | null;
      readonly lost?: LostAnswer | null; // with a no (explain.ts)
    }
  | { readonly id: number; readonly kind: 'deal'; readonly deal: Deal; readonly name: string }
  | { readonly id: number; readonly kind: 'error'; readonly message: string };

/** Where and why the win was lost. */
export interface LostAnswer {
  readonly at: number; // board moves before the losing match
  readonly move: Pair;
  readonly faces: readonly [Face, Face];
  readonly reason: string; // a code of REASONS
  readonly tiles: readonly number[];
  readonly named: readonly number[]; // tiles whose faces the reason names
}

/** The losing move of a game lost `undoSteps` undo steps ago, and its reason; null if none. */
function lostOf(game: Game, undoSteps: number | null): LostAnswer | null {
  if (undoSteps === null) return null;
  const lostWin = lostWinOf(game, undoSteps);
  if (!lostWin) return null;
  const e = explainLoss(game.geom, lostWin.before, lostWin.move);
  const [a, b] = lostWin.move;
  const faces = [lostWin.before[a]!, lostWin.before[b]!] as const;
  return { at: lostWin.at, move: lostWin.move, faces, reason: e.reason, tiles: e.tiles, named: e.named };
}

// Solver nodes per position: the study's budget.
const HINT_BUDGET = SOLVE_BUDGET;
const CHECK_BUDGET = SOLVE_BUDGET;

/** The last position proved lost; positions reached from it by matches alone are lost too. */
let lost: { readonly deal: Deal; readonly log: readonly Move[]; readonly undoSteps: number | null } | null = null;

const sameDeal = (a: Deal, b: Deal): boolean =>
  a === b ||
  (a.layout === b.layout &&
    a.seed === b.seed &&
    a.mode === b.mode &&
    a.generator === b.generator &&
    a.tiles.length === b.tiles.length &&
    a.tiles.every((t, i) => t.face === b.tiles[i]!.face));

const sameMove = (a: Move, b: Move): boolean =>
  a.type === b.type && (a.type !== 'match' || (b.type === 'match' && a.a === b.a && a.b === b.b));

/** When `log` extends the lost log by matches, hints and checks only: the matches since; else null. */
function sinceLost(
  deal: Deal,
  log: readonly Move[],
): { readonly matches: number; readonly undoSteps: number | null } | null {
  if (!lost || log.length < lost.log.length || !sameDeal(lost.deal, deal)) return null;
  for (let i = 0; i < lost.log.length; i++) if (!sameMove(lost.log[i]!, log[i]!)) return null;
  let matches = 0;
  for (let i = lost.log.length; i < log.length; i++) {
    const type = log[i]!.type;
    if (type === 'match') matches++;
    else if (type !== 'hint' && type !== 'check') return null;
  }
  return { matches, undoSteps: lost.undoSteps };
}

/** Answers one request (exported for tests). */
export function answer(req: WorkerRequest): WorkerAnswer {
  if (req.kind === 'deal') {
    const layout = layoutById(req.layout);
    if (!layout) return { id: req.id, kind: 'error', message: `there is no built-in layout called ${req.layout}` };
    const made = deal(layout, req.seed, req.mode);
    if (!made.ok) return { id: req.id, kind: 'error', message: made.message };
    return { id: req.id, kind: 'deal', deal: made.value.deal, name: layout.name };
  }
  const game = replay(req.deal, req.log);
  if (!game.ok) return { id: req.id, kind: 'error', message: game.message };
  const since = sinceLost(req.deal, req.log);
  if (req.kind === 'hint') {
    // Lost: any pair, as hintFor does.
    if (since)
      return {
        id: req.id,
        kind: 'hint',
        pair: availablePairs(game.value)[0] ?? null,
        winning: false,
        result: 'unsolvable',
      };
    const hint = hintFor(game.value, HINT_BUDGET);
    if (hint.result === 'unsolvable') lost = { deal: req.deal, log: req.log.slice(), undoSteps: null };
    return { id: req.id, kind: 'hint', pair: hint.pair, winning: hint.winning, result: hint.result };
  }
  if (since && since.undoSteps !== null) {
    const undoSteps = since.undoSteps + since.matches;
    const why = lostOf(game.value, undoSteps);
    return { id: req.id, kind: 'check', result: 'unsolvable', undoSteps, ...(why ? { lost: why } : {}) };
  }
  // The undo search starts past the positions known lost.
  const w = winnability(game.value, CHECK_BUDGET, since ? since.matches + 1 : 0);
  if (w.result === 'unsolvable') lost = { deal: req.deal, log: req.log.slice(), undoSteps: w.undoSteps };
  const why = w.result === 'unsolvable' ? lostOf(game.value, w.undoSteps) : null;
  return { id: req.id, kind: 'check', result: w.result, undoSteps: w.undoSteps, ...(why ? { lost: why } : {}) };
}

answerMessages(answer);
