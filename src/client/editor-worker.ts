/**
 * The layout editor's worker: answers "can this be cleared?" for a draft (src/shared/draft.ts `checkDraft`)
 * with the engine's removal-order search at its full budget, off the main thread, where a large draft may
 * take the search a second. Each request carries the tiles; answers echo the request's id.
 */
import { ORDER_BUDGET } from '../engine/order.ts';
import { checkDraft, type DraftCheck } from '../shared/draft.ts';
import { answerMessages } from './answer.ts';

export interface CheckRequest {
  readonly id: number;
  readonly slots: readonly (readonly [number, number, number])[]; // [x, y, z] per tile
}

export interface CheckAnswer {
  readonly id: number;
  readonly check: DraftCheck;
}

/** Answers one request (exported for tests; the worker calls it per message). */
export const answerCheck = (req: CheckRequest): CheckAnswer => ({
  id: req.id,
  check: checkDraft(
    req.slots.map(([x, y, z]) => ({ x, y, z })),
    ORDER_BUDGET,
  ),
});

answerMessages(answerCheck);
