/**
 * Nodes, the solver's unit of work: every play counts as one (a whole random playout too). Budgets are in
 * nodes,
 * never time, so a solve answers the same on every machine. The two limits, the solve's and the search run's,
 * are
 * thrown as prebuilt values (no stack trace to record).
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

  /** Starts a run that may visit `limit` nodes (Infinity: no run limit). */
  startRun(limit: number): void {
    this.limit = limit;
    this.visited = 0;
  }

  /** Lifts the run limit without resetting the count. */
  unlimited(): void {
    this.limit = Infinity;
  }
}
