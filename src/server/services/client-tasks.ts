/**
 * Worker tasks in the making per client: each client (an IPv4 /24 or IPv6 /64, limits.ts budgetGroup) has at
 * most MAX_QUEUED_PER_CLIENT of any kind at once (classic deals, custom layouts' deals, band searches, reviews,
 * upload checks), so one client cannot fill the workers' queue for everyone.
 */
import type { Refusal } from '../errors.ts';
import { budgetGroup } from './limits.ts';

export const MAX_QUEUED_PER_CLIENT = 2; // worker tasks of any kind one client may have in the making at once

export class ClientTasks {
  private readonly making = new Map<string, number>(); // budgetGroup → worker tasks in the making for it

  /** The refusal of a client (a clientKey) that has MAX_QUEUED_PER_CLIENT tasks in the making; none: free. */
  full(client: string | undefined): Refusal | undefined {
    if (client === undefined || (this.making.get(budgetGroup(client)) ?? 0) < MAX_QUEUED_PER_CLIENT) return undefined;
    return {
      ok: false,
      code: 'ERR_QUEUE',
      message: `at most ${MAX_QUEUED_PER_CLIENT} classic deals, band searches or reviews are made for you at once; try again when they are ready`,
      retryAfterS: 2,
    };
  }

  /** Counts a task in the making for a client (none: not counted); the returned function ends it. */
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

  /** Runs `task` counted for `client`, or refuses it when the client has its share in the making. */
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
