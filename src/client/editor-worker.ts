/** The layout editor's worker: "can this be cleared?" for a draft (src/shared/draft.ts `checkDraft`), off the main thread. */
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

/** Answers one request (exported for tests). */
export const answerCheck = (req: CheckRequest): CheckAnswer => ({
  id: req.id,
  check: checkDraft(
    req.slots.map(([x, y, z]) => ({ x, y, z })),
    ORDER_BUDGET,
  ),
});

answerMessages(answerCheck);
