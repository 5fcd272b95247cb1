/**
 * Nodes, the solver's unit of work: one per play. Budgets count nodes, never time, so answers are the same on
 * every machine. Limits are thrown as prebuilt values (no stack trace).
 */

class BudgetSpent extends Error {}
class RunOver extends Error {}

export const BUDGET_SPENT = new BudgetSpent('solve: node budget spent');
/** Thrown when the current search run has visited its share of nodes (a restart). */
export const RUN_OVER = new RunOver('solve: restart');

export class Budget {
  nodes = 0;
  private limit = Infinity;
  private visited = 0;

  constructor(readonly max: number) {}

  spend(): void {
    if (++this.nodes > this.max) throw BUDGET_SPENT;
    if (++this.visited > this.limit) throw RUN_OVER;
  }

  /** Starts a run that may visit `limit` nodes. */
  startRun(limit: number): void {
    this.limit = limit;
    this.visited = 0;
  }

  unlimited(): void {
    this.limit = Infinity;
  }
}
