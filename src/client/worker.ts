/**
 * The solver's Web Worker: answers "which pair should I play?" (hint) and "can this still be won?"
 * (check) off the main thread, where a hard position may take the solver seconds; and, for a play page
 * opened without the network (the service worker's offline page), deals a built-in layout with the
 * same engine the server deals it with (a classic deal runs the solver too).
 *
 * A request carries the deal and the move log; the worker replays them with the engine, so it needs no
 * state of its own. Answers echo the request id.
 */
import {
  deal,
  hintFor,
  layoutById,
  replay,
  SOLVE_BUDGET,
  winnability,
  type Deal,
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
  | { readonly id: number; readonly kind: 'check'; readonly result: string; readonly undoSteps: number | null }
  | { readonly id: number; readonly kind: 'deal'; readonly deal: Deal; readonly name: string }
  | { readonly id: number; readonly kind: 'error'; readonly message: string };

// Solver nodes per position: the study's budget, which settles every position of 200 random turtle games per
// mode well within it (npm run bench, section e), so the worker answers yes or no, never "unknown".
const HINT_BUDGET = SOLVE_BUDGET;
const CHECK_BUDGET = SOLVE_BUDGET; // per position the check looks at (up to about 8 with the undo search)

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
  if (req.kind === 'hint') {
    const hint = hintFor(game.value, HINT_BUDGET);
    return { id: req.id, kind: 'hint', pair: hint.pair, winning: hint.winning, result: hint.result };
  }
  const w = winnability(game.value, CHECK_BUDGET);
  return { id: req.id, kind: 'check', result: w.result, undoSteps: w.undoSteps };
}

answerMessages(answer);
