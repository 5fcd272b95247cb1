/** Worker tasks per client (budgetGroup): a few at once, so one client cannot fill the workers' queue. */
import type { Refusal } from '../errors.ts';
import { budgetGroup } from './limits.ts';

export const MAX_QUEUED_PER_CLIENT = 2; // of any kind, queued or running

export class ClientTasks {
  private readonly making = new Map<string, number>(); // by budgetGroup

  /** A client's refusal when it has MAX_QUEUED_PER_CLIENT tasks in the making; none: free. */
  full(client: string | undefined): Refusal | undefined {
    if (client === undefined || (this.making.get(budgetGroup(client)) ?? 0) < MAX_QUEUED_PER_CLIENT) return undefined;
    return {
      ok: false,
      code: 'ERR_QUEUE',
      message: `at most ${MAX_QUEUED_PER_CLIENT} classic deals, band searches or reviews are made for you at once; try again when they are ready`,
      retryAfterS: 2,
    };
  }

  /** Counts a task for a client (none: not counted); the returned function ends it. */
  start(client: string | undefined): () => void {
    if (client === undefined) return () => {};
    const group = budgetGroup(client);
    this.making.set(group, (this.making.get(group) ?? 0) + 1);
    return () => {
      const left = (this.making.get(group) ?? 1) - 1;
      if (left <= 0) this.making.delete(group);
      else this.making.set(group, left);
    };
  }

  async run<T>(client: string | undefined, task: () => Promise<T>): Promise<T | Refusal> {
    const refused = this.full(client);
    if (refused) return refused;
    const done = this.start(client);
    try {
      return await task();
    } finally {
      done();
    }
  }
}
