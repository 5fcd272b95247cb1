/**
 * Nodes, the solver's unit of work: every play of the board counts as one, optimistic,
 * greedy or a whole random playout (each walks the board once, at a cost of a few
 * microseconds on the turtle). Budgets are in nodes, never in time, so a solve gives the
 * same answer on every machine and under any load.
 *
 * Two limits: the solve's budget (spent: the answer is 'unresolved') and the current
 * search run's share (spent: the search restarts, see search.ts). Both are thrown as
 * prebuilt values: a new Error records a stack trace, microseconds that a restart or a
 * give-up need not spend.
 */

class BudgetSpent extends Error {}
class RunOver extends Error {}

/** Thrown when the solve's node budget is spent. */
export const BUDGET_SPENT = new BudgetSpent('solve: node budget spent');
/** Thrown when the current search run has visited its share of nodes. */
export const RUN_OVER = new RunOver('solve: restart');

export class Budget {
  nodes = 0; // nodes spent in this solve
  private limit = Infinity; // nodes the current run may visit
  private visited = 0; // nodes the current run has visited

  constructor(readonly max: number) {}

  /** One play: counts against the budget and the current run. */
  spend(): void {
    if (++this.nodes > this.max) throw BUDGET_SPENT;
    if (++this.visited > this.limit) throw RUN_OVER;
  }

  /** Starts a run that may visit `limit` nodes (Infinity: no run limit, as outside the restarting search). */
  startRun(limit: number): void {
    this.limit = limit;
    this.visited = 0;
  }

  /** Lifts the run limit without resetting the count (the plays between runs never restart). */
  unlimited(): void {
    this.limit = Infinity;
  }
}
