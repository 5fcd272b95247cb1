/**
 * Where deals, band searches and reviews are made: relaxed deals of built-in layouts in process (about 3 ms
 * for the turtle, nearly all of it measuring the deal's difficulty: they never wait behind anything); the rest
 * (the solver: up to seconds; custom layouts, which may be slow to deal) in the worker pool (DEAL_WORKERS
 * threads, so one slow seed does not hold up the next, each task with a deadline), or in process when there are
 * no workers. A pool's refusal (deadline, full queue, dead worker) comes back as a failed result, never a throw.
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
  deal?: typeof dealFunction; // a deal function to use in process instead of the workers (tests)
  classic?: (task: DealTask) => Promise<DealTaskResult>; // makes classic deals instead of the pool (tests)
  workers?: number; // deal workers; 0 deals in process
  workerEntry?: { filename: string; execArgv: string[] }; // another worker file (tests); default the deal worker
  timeoutMs?: number; // deadline for making one deal; in ms
  maxQueue?: number; // deals waiting for a worker before new ones are refused
}

/** The failures of making a deal that are the asker's, not our bug (their statuses: errors.ts). */
const REFUSED: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'ERR_UNKNOWN_LAYOUT',
  'ERR_SEED',
  'ERR_UNCLEARABLE', // a custom layout the removal-order search gave up on for this seed (checked clearable on upload)
  'ERR_TIMEOUT',
  'ERR_BUSY',
  'ERR_WORKER',
]);

/**
 * The code to refuse a failed deal or search with; undefined when the failure is our bug (a broken built-in
 * layout). Any other failure of a custom layout's deal is the search giving up on this seed.
 */
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

  /** Makes one deal. */
  async deal(task: DealTask): Promise<DealTaskResult> {
    if (task.mode === 'relaxed' && !task.slots) return runDealTask(task, this.options.deal); // no queue, no worker
    if (this.options.classic) return this.options.classic(task);
    if (!this.pool) return runDealTask(task, this.options.deal);
    return this.inPool(task, (message, code) =>
      code === 'ERR_TIMEOUT' ? `${message}; play it relaxed or try another seed` : message,
    );
  }

  /** Runs one chunk of a band search. */
  async search(task: BandTask): Promise<BandTaskResult> {
    return this.pool ? this.inPool(task) : runBandTask(task, this.options.deal);
  }

  /** Reviews a game's log (services/replays.ts). */
  async review(task: ReviewTask): Promise<ReviewTaskResult> {
    return this.pool ? this.inPool(task) : runReviewTask(task);
  }

  /** Starts every worker (the first deal then pays no boot time). */
  start(): Promise<void> {
    return this.pool?.start() ?? Promise.resolve();
  }

  close(): Promise<void> {
    return this.pool?.close() ?? Promise.resolve();
  }

  /** What the deal workers are doing (for /metrics); undefined when deals are made in process. */
  stats(): PoolStats | undefined {
    return this.pool?.stats();
  }

  get hasWorkers(): boolean {
    return this.pool !== undefined;
  }

  /** Runs a task in the pool; the pool's refusals as failed results (`say` words the message). */
  private async inPool<T extends WorkerTask>(
    task: T,
    say: (message: string, code: PoolError['code']) => string = (message) => message,
  ): Promise<WorkerResult<T>> {
    try {
      return await this.pool!.run(task);
    } catch (error) {
      if (!(error instanceof PoolError)) throw error;
      // Every kind of result has this failed form.
      return { ok: false, error: error.code, message: say(error.message, error.code) } as WorkerResult<T>;
    }
  }
}
