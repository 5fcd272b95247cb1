/**
 * The solver's Web Worker: answers "which pair should I play?" (hint) and "can this still be won?"
 * (check) off the main thread, where a hard position may take the solver seconds; and, for a play page
 * opened without the network (the service worker's offline page), deals a built-in layout with the
 * same engine the server deals it with (a classic deal runs the solver too).
 *
 * A request carries the deal and the move log; the worker replays them with the engine. Answers echo the
 * request id. The one thing it remembers is the last position it proved lost (see `lost`).
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
      readonly lost?: LostAnswer | null; // with a no: the losing move and why it lost the win (engine explain.ts)
    }
  | { readonly id: number; readonly kind: 'deal'; readonly deal: Deal; readonly name: string }
  | { readonly id: number; readonly kind: 'error'; readonly message: string };

/** Where and why the win was lost: the losing match, the board moves before it, the reason and its tiles. */
export interface LostAnswer {
  readonly at: number; // board moves before the losing match (play on from here)
  readonly move: Pair; // the losing match
  readonly faces: readonly [Face, Face]; // its faces
  readonly reason: string; // a code of REASONS
  readonly tiles: readonly number[]; // the reason's tiles
  readonly named: readonly number[]; // of those, the ones whose faces the reason names
}

/** The losing move of a game whose win was lost `undoSteps` undo steps ago, and its reason; null if none. */
function lostOf(game: Game, undoSteps: number | null): LostAnswer | null {
  if (undoSteps === null) return null;
  const lostWin = lostWinOf(game, undoSteps);
  if (!lostWin) return null;
  const e = explainLoss(game.geom, lostWin.before, lostWin.move);
  const [a, b] = lostWin.move;
  const faces = [lostWin.before[a]!, lostWin.before[b]!] as const;
  return { at: lostWin.at, move: lostWin.move, faces, reason: e.reason, tiles: e.tiles, named: e.named };
}

// Solver nodes per position: the study's budget, which settles every position of 200 random turtle games per
// mode well within it (npm run bench, section e), so the worker answers yes or no, never "unknown".
const HINT_BUDGET = SOLVE_BUDGET;
const CHECK_BUDGET = SOLVE_BUDGET; // per position the check looks at (up to about 8 with the undo search)

/**
 * The last position the solver proved cannot be cleared: its deal, its move log and, when a check asked, how many
 * undo steps lead back to a winnable one. A position reached from it by matches alone cannot be cleared either (a
 * way to clear it would clear the lost one too), so a player who plays on after the game is lost gets every later
 * hint and check without a new proof: each would take the solver up to tens of milliseconds, again and again.
 */
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

/**
 * When `log` is the lost position's log followed by matches, hints and checks only (a hint or a check is counted,
 * and changes neither the board nor the undo stack): how many matches it plays after it, and the undo steps known
 * there. Otherwise null.
 */
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

/** Answers one request (exported for tests; the worker calls it per message). */
export function answer(req: WorkerRequest): WorkerAnswer {
  if (req.kind === 'deal') {
    const layout = layoutById(req.layout);
    if (!layout) return { id: req.id, kind: 'error', message: `there is no built-in layout called ${req.layout}` };
    const made = deal(layout, req.seed, req.mode); // what the server's dealer runs (services/deal-worker.ts)
    if (!made.ok) return { id: req.id, kind: 'error', message: made.message };
    return { id: req.id, kind: 'deal', deal: made.value.deal, name: layout.name };
  }
  const game = replay(req.deal, req.log);
  if (!game.ok) return { id: req.id, kind: 'error', message: game.message };
  const since = sinceLost(req.deal, req.log);
  if (req.kind === 'hint') {
    // Lost: any pair, as hintFor answers when the solver finds none that keeps the game winnable.
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
  // The positions since the lost one, and it, are known lost: the undo search starts past them.
  const w = winnability(game.value, CHECK_BUDGET, since ? since.matches + 1 : 0);
  if (w.result === 'unsolvable') lost = { deal: req.deal, log: req.log.slice(), undoSteps: w.undoSteps };
  const why = w.result === 'unsolvable' ? lostOf(game.value, w.undoSteps) : null;
  return { id: req.id, kind: 'check', result: w.result, undoSteps: w.undoSteps, ...(why ? { lost: why } : {}) };
}

answerMessages(answer);
