/**
 * The deal workers: a piscina pool with two lanes, a bounded queue per lane and a deadline per task counted from
 * when a worker begins it (docs/operations.md, "Sharing the deal workers"; docs/server.md, "Deal workers").
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type {
  BandTask,
  BandTaskResult,
  DealJob,
  DealTaskResult,
  ReviewTaskResult,
  WorkerResult,
  WorkerTask,
} from './deal-worker.ts';

export function workerEntry(): { filename: string; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts'))
    return { filename: fileURLToPath(new URL('./deal-worker.js', import.meta.url)), execArgv: [] };
  return {
    filename: fileURLToPath(new URL('./deal-worker.ts', import.meta.url)),
    execArgv: ['--import', import.meta.resolve('tsx')],
  };
}

/** `first`: classic deals of built-in layouts; `shared`: every other task. */
export type Lane = 'first' | 'shared';
export const laneOf = (task: WorkerTask): Lane =>
  !('kind' in task) && !('band' in task) && !task.slots ? 'first' : 'shared';

export class PoolError extends Error {
  constructor(
    readonly code: 'ERR_TIMEOUT' | 'ERR_BUSY' | 'ERR_WORKER',
    message: string,
  ) {
    super(message);
  }
}

export interface PoolOptions {
  size: number;
  timeoutMs: number; // from the moment a worker begins the task
  maxQueue: number; // waiting tasks per lane; more are refused
  entry?: { filename: string; execArgv: string[] }; // tests; default workerEntry()
}

const SHUTTING_DOWN = 'the server is shutting down';

export interface PoolStats {
  readonly size: number;
  readonly running: number; // begun by a worker
  readonly queued: number;
  readonly busySeconds: number; // summed over the workers, since start
  readonly tasks: Readonly<Record<PoolOutcome, number>>; // since start
}

export type PoolOutcome = 'done' | 'timeout' | 'busy' | 'failed';

export class DealPool {
  private piscina: Piscina<DealJob, DealTaskResult | BandTaskResult | ReviewTaskResult> | undefined;
  private closed = false;
  private active = 0; // tasks running or waiting
  private readonly running: Record<Lane, number> = { first: 0, shared: 0 }; // handed to piscina
  private readonly waiting: Record<Lane, { go: () => void; stop: (error: Error) => void }[]> = {
    first: [],
    shared: [],
  };
  private readonly began = new Set<{ at: number }>(); // performance.now()
  private busyMs = 0; // on finished tasks
  private readonly outcomes: Record<PoolOutcome, number> = { done: 0, timeout: 0, busy: 0, failed: 0 };

  constructor(private readonly options: PoolOptions) {}

  /** Rejects with PoolError. */
  async run<T extends WorkerTask>(task: T): Promise<WorkerResult<T>> {
    return (await this.exec(task)) as WorkerResult<T>;
  }

  async search(task: BandTask): Promise<BandTaskResult> {
    return this.run(task);
  }

  private canStart(lane: Lane): boolean {
    if (this.running.first + this.running.shared >= this.options.size) return false;
    return lane === 'first' || this.running.shared < Math.max(1, this.options.size - 1);
  }

  private pump(): void {
    for (const lane of ['first', 'shared'] as const)
      while (this.waiting[lane].length > 0 && this.canStart(lane)) {
        this.running[lane]++;
        this.waiting[lane].shift()!.go();
      }
  }

  /** Refuses at once when the lane's queue is full. */
  private async acquire(lane: Lane): Promise<void> {
    if (this.waiting[lane].length === 0 && this.canStart(lane)) {
      this.running[lane]++;
      return;
    }
    if (this.waiting[lane].length >= this.options.maxQueue) {
      this.outcomes.busy++;
      throw new PoolError('ERR_BUSY', 'the server is busy making deals; try again in a moment');
    }
    await new Promise<void>((go, stop) => this.waiting[lane].push({ go, stop }));
  }

  private async exec(task: WorkerTask): Promise<DealTaskResult | BandTaskResult | ReviewTaskResult> {
    if (this.closed) throw new PoolError('ERR_WORKER', SHUTTING_DOWN);
    const lane = laneOf(task);
    this.active++;
    try {
      await this.acquire(lane);
    } catch (error) {
      this.active--;
      throw error;
    }
    if (this.closed) {
      this.active--;
      this.running[lane]--;
      throw new PoolError('ERR_WORKER', SHUTTING_DOWN);
    }
    const pool = this.pool();
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    let began: { at: number } | undefined;
    port1.once('message', () => {
      began = { at: performance.now() };
      this.began.add(began);
      timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    });
    try {
      const result = await pool.run({ task, started: port2 }, { transferList: [port2], signal: abort.signal });
      this.outcomes.done++;
      return result;
    } catch (error) {
      if (abort.signal.aborted && !this.closed) this.outcomes.timeout++;
      else this.outcomes.failed++;
      if (this.closed) throw new PoolError('ERR_WORKER', SHUTTING_DOWN);
      if (abort.signal.aborted)
        throw new PoolError(
          'ERR_TIMEOUT',
          `${'kind' in task ? 'reviewing this game' : 'making this deal'} took longer than ${this.options.timeoutMs / 1000} s`,
        );
      const message = error instanceof Error ? error.message : String(error);
      throw new PoolError('ERR_WORKER', `the deal worker failed: ${message}`);
    } finally {
      this.active--;
      this.running[lane]--;
      this.pump();
      if (began !== undefined) {
        this.began.delete(began);
        this.busyMs += performance.now() - began.at;
      }
      clearTimeout(timer);
      port1.close();
    }
  }

  stats(): PoolStats {
    // Running tasks count up to now, so the total never steps back.
    const now = performance.now();
    let busyMs = this.busyMs;
    for (const { at } of this.began) busyMs += now - at;
    return {
      size: this.options.size,
      running: this.began.size,
      queued: this.active - this.began.size,
      busySeconds: busyMs / 1000,
      tasks: { ...this.outcomes },
    };
  }

  /** Starts every worker, so a first deal pays no boot time. */
  async start(): Promise<void> {
    if (this.closed) return;
    this.pool();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const lane of ['first', 'shared'] as const)
      for (const waiter of this.waiting[lane].splice(0)) waiter.stop(new PoolError('ERR_WORKER', SHUTTING_DOWN));
    const pool = this.piscina;
    this.piscina = undefined;
    await pool?.destroy();
  }

  private pool(): Piscina<DealJob, DealTaskResult | BandTaskResult | ReviewTaskResult> {
    this.piscina ??= new Piscina<DealJob, DealTaskResult | BandTaskResult | ReviewTaskResult>({
      ...(this.options.entry ?? workerEntry()),
      minThreads: this.options.size,
      maxThreads: this.options.size,
      concurrentTasksPerWorker: 1,
      maxQueue: this.options.maxQueue + this.options.size,
      idleTimeout: Infinity,
    });
    return this.piscina;
  }
}
