/**
 * The server's time as a budget: costly paths charge their estimate before the work, per client and for this
 * process (docs/operations.md, "CPU budgets"; docs/server.md, "Who pays").
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
  clientBurstMs: number;
  clientBurstWindowMs: number;
  clientPerMinuteMs: number;
  processWindowMs: number;
  processPerWindowMs: number; // all clients together
}

export const CPU_LIMITS: CpuLimits = {
  clientBurstMs: 500, // a person's heaviest single action fits
  clientBurstWindowMs: 5_000,
  clientPerMinuteMs: 3_000, // 5% of a core
  // 30% of the main thread; short windows, so at most 150 ms of such work runs back to back.
  processWindowMs: 250,
  processPerWindowMs: 75,
};

const MINUTE = 60_000; // ms

export type CpuPath =
  'upload' | 'editor' | 'replay' | 'review' | 'band' | 'deal' | 'shuffle' | 'hint' | 'check' | 'preview';

export class CpuBudget {
  private readonly local: Counters;

  constructor(
    readonly limits: CpuLimits | false, // false: unlimited (benchmarks)
    private readonly counters: Counters,
    now: () => number,
  ) {
    this.local = new LocalCounters(now, 64 * 1024); // one key, this process's window
  }

  /** The refusal, or undefined; `worker` work skips the process's window, which meters the main thread. */
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
    // Charged as at most the smaller max, so one heavy request can pass an empty window.
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
