/**
 * Where deals, band searches and reviews are made: relaxed deals of built-in layouts in process (a few ms), the
 * rest in the worker pool when there is one.
 */
import type { deal as dealFunction } from '../../engine/index.ts';
import { isErrorCode, type ErrorCode } from '../errors.ts';
import {
  runBandTask,
  runDealTask,
  runReviewTask,
  type BandTask,
  type BandTaskResult,
  type DealTask,
  type DealTaskResult,
  type ReviewTask,
  type ReviewTaskResult,
  type WorkerResult,
  type WorkerTask,
} from './deal-worker.ts';
import { DealPool, PoolError, type PoolStats } from './worker-pool.ts';

export interface MakerOptions {
  deal?: typeof dealFunction; // tests: in process instead of the workers
  classic?: (task: DealTask) => Promise<DealTaskResult>; // tests: instead of the pool
  workers?: number; // 0 deals in process
  workerEntry?: { filename: string; execArgv: string[] }; // tests
  timeoutMs?: number;
  maxQueue?: number; // per lane
}

/** Failures that are the asker's, not our bug. */
const REFUSED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ERR_UNKNOWN_LAYOUT',
  'ERR_SEED',
  'ERR_UNCLEARABLE', // the search gave up on a custom layout's seed
  'ERR_TIMEOUT',
  'ERR_BUSY',
  'ERR_WORKER',
]);

/** The refusal code of a failed deal or search; undefined for our bug (a broken built-in layout). */
export const refusalCode = (error: string, custom: boolean): ErrorCode | undefined =>
  isErrorCode(error) && REFUSED.has(error) ? error : custom ? 'ERR_UNCLEARABLE' : undefined;

export class DealMakers {
  private readonly pool: DealPool | undefined;

  constructor(private readonly options: MakerOptions) {
    const workers = options.deal ? 0 : (options.workers ?? 2);
    this.pool =
      workers > 0
        ? new DealPool({
            size: workers,
            timeoutMs: options.timeoutMs ?? 15_000,
            maxQueue: options.maxQueue ?? 32,
            ...(options.workerEntry ? { entry: options.workerEntry } : {}),
          })
        : undefined;
  }

  async deal(task: DealTask): Promise<DealTaskResult> {
    if (task.mode === 'relaxed' && !task.slots) return runDealTask(task, this.options.deal);
    if (this.options.classic) return this.options.classic(task);
    if (!this.pool) return runDealTask(task, this.options.deal);
    return this.inPool(task, (message, code) =>
      code === 'ERR_TIMEOUT' ? `${message}; play it relaxed or try another seed` : message,
    );
  }

  async search(task: BandTask): Promise<BandTaskResult> {
    return this.pool ? this.inPool(task) : runBandTask(task, this.options.deal);
  }

  async review(task: ReviewTask): Promise<ReviewTaskResult> {
    return this.pool ? this.inPool(task) : runReviewTask(task);
  }

  /** Starts every worker, so a first deal pays no boot time. */
  start(): Promise<void> {
    return this.pool?.start() ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }

  /** For /metrics; undefined when deals are made in process. */
  stats(): PoolStats | undefined {
    return this.pool?.stats();
  }

  get hasWorkers(): boolean {
    return this.pool !== undefined;
  }

  /** The pool's refusals as failed results, never a throw. */
  private async inPool<T extends WorkerTask>(
    task: T,
    say: (message: string, code: PoolError['code']) => string = (message) => message,
  ): Promise<WorkerResult<T>> {
    try {
      return await this.pool!.run(task);
    } catch (error) {
      if (!(error instanceof PoolError)) throw error;
      return { ok: false, error: error.code, message: say(error.message, error.code) } as WorkerResult<T>;
    }
  }
}
