/**
 * The server's time as a budget: what one client may make this process compute on the paths whose cost
 * depends on the input (uploads, the editor, replays and reviews, band searches, classic deals of custom
 * layouts, shuffles). Each path estimates its cost from the request before doing the work and charges it
 * here first; a refusal costs the server nothing but the estimate (docs/operations.md, "CPU budgets").
 *
 * Two kinds of window, both fixed (services/counters.ts):
 * - per client (an IPv4 /24 or IPv6 /64, budgetGroup), on the server's counters, so a fleet shares them
 *   through Redis: a short window bounds a burst, a minute window the sustained share;
 * - for this process, in its own memory (a process's CPU is its own, also in a fleet): all clients together
 *   may spend at most a share of each quarter second on these paths, so many clients at once still leave the
 *   rest of it to everyone else's cheap requests.
 * A cost larger than a window's max is charged as that max: an expensive request waits for an empty window
 * instead of never passing.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Refusal } from '../errors.ts';
import { LocalCounters, secondsOf, type CounterWindow, type Counters } from './counters.ts';
import { budgetGroup } from './limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    cpuBudget: CpuBudget;
  }
}

export interface CpuLimits {
  clientBurstMs: number; // ms of work one client may start in a burst window
  clientBurstWindowMs: number; // the burst window's length, in ms
  clientPerMinuteMs: number; // ms of work one client may start in a minute
  processWindowMs: number; // the length of this process's window, in ms
  processPerWindowMs: number; // ms of work all clients together may start in one window, on this process
}

export const CPU_LIMITS: CpuLimits = {
  clientBurstMs: 500, // a person's heaviest single action (a large upload, a long review) fits
  clientBurstWindowMs: 5_000,
  clientPerMinuteMs: 3_000, // 5% of a core: far more than a person who edits, uploads and watches replays needs
  // 30% of the main thread for everyone's costly paths, the rest for play, in short windows: at a window's
  // turn at most two windows' work runs back to back (150 ms), so a player's request never waits long behind it.
  processWindowMs: 250,
  processPerWindowMs: 75,
};

const MINUTE = 60_000; // ms

/** What a charge is for, in the refusal's message. */
export type CpuPath =
  'upload' | 'editor' | 'replay' | 'review' | 'band' | 'deal' | 'shuffle' | 'hint' | 'check' | 'preview';

export class CpuBudget {
  private readonly local: Counters;

  constructor(
    readonly limits: CpuLimits | false, // false: unlimited (benchmarks)
    private readonly counters: Counters, // the server's (Redis in a fleet)
    now: () => number,
  ) {
    this.local = new LocalCounters(now, 64 * 1024); // one key, this process's window
  }

  /**
   * Charges `ms` of estimated work for `client` (a clientKey, counted by its budgetGroup) before it is done;
   * undefined when it may go ahead, else the refusal (429 `ERR_CPU` for the client's windows, 503
   * `ERR_CPU_FULL` when everyone's share of this process's window is spent). A refusal by the client's windows
   * spends nothing; one by the process's window still counts against the client (it asked). `where`: `worker` for
   * work done in the deal workers, which is charged to the client's windows only (the process's window
   * meters its main thread; the workers are shared by lanes and per-client caps, services/worker-pool.ts).
   */
  async charge(
    client: string,
    ms: number,
    path: CpuPath,
    where: 'main' | 'worker' = 'main',
  ): Promise<Refusal | undefined> {
    if (this.limits === false || ms <= 0) return undefined;
    const { clientBurstMs, clientBurstWindowMs, clientPerMinuteMs, processWindowMs, processPerWindowMs } = this.limits;
    const group = budgetGroup(client);
    const cost = Math.ceil(ms);
    const windows: CounterWindow[] = [
      { key: `cpu:burst:${group}`, max: clientBurstMs, windowMs: clientBurstWindowMs },
      { key: `cpu:minute:${group}`, max: clientPerMinuteMs, windowMs: MINUTE },
    ];
    // Charged as at most the smaller max, so that one heavy request can pass an empty window.
    const mine = await this.counters.take(windows, Math.min(cost, clientBurstMs, clientPerMinuteMs));
    if (!mine.ok) {
      const wait = secondsOf(mine.retryAfterMs);
      return {
        ok: false,
        code: 'ERR_CPU',
        retryAfterS: wait,
        message: `your network has asked the server for more work than one network may (${path}); try again in ${wait} s`,
      };
    }
    if (where === 'worker') return undefined;
    const everyone = await this.local.take(
      [{ key: 'cpu:process', max: processPerWindowMs, windowMs: processWindowMs }],
      Math.min(cost, processPerWindowMs),
    );
    if (everyone.ok) return undefined;
    const wait = secondsOf(everyone.retryAfterMs);
    return {
      ok: false,
      code: 'ERR_CPU_FULL',
      retryAfterS: wait,
      message: `the server is busy with other people's heavy requests (${path}); try again in ${wait} s`,
    };
  }
}

export default fp(
  async (fastify: FastifyInstance, opts: { limits?: Partial<CpuLimits> | false; now: () => number }) => {
    const limits = opts.limits === false ? false : { ...CPU_LIMITS, ...opts.limits };
    fastify.decorate('cpuBudget', new CpuBudget(limits, fastify.counters, opts.now));
  },
  { name: 'cpu-budget', dependencies: ['counters'] },
);
