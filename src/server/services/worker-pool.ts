/**
 * The deal workers: a piscina pool with a deadline per task and a bounded queue.
 *
 * Implementation notes: piscina keeps `size` threads, one task each, queues at
 * most `maxQueue` more, and replaces a thread that crashed or was stopped.
 * The deadline starts when a worker begins the task (it says so on a
 * MessagePort handed over with the task), not when the task is queued or a
 * new thread boots; past it the task is aborted, which terminates its thread
 * (the only way to stop synchronous solver work). In production the worker is
 * the compiled dist/server/services/deal-worker.js; from source (`tsx`,
 * vitest) each thread registers tsx (a devDependency) first, as a worker does
 * not inherit the parent's TypeScript loader on Node 20.
 */
import { fileURLToPath } from 'node:url';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import type { DealJob, DealTaskResult, ReviewTaskResult, WorkerResult, WorkerTask } from './deal-worker.ts';

/** The worker's file, and the node arguments its threads need: none for the compiled file. */
export function workerEntry(): { filename: string; execArgv: string[] } {
  if (!import.meta.url.endsWith('.ts'))
    return { filename: fileURLToPath(new URL('./deal-worker.js', import.meta.url)), execArgv: [] };
  return {
    filename: fileURLToPath(new URL('./deal-worker.ts', import.meta.url)),
    execArgv: ['--import', import.meta.resolve('tsx')],
  };
}

export class PoolError extends Error {
  constructor(
    readonly code: 'ERR_TIMEOUT' | 'ERR_BUSY' | 'ERR_WORKER',
    message: string,
  ) {
    super(message);
  }
}

export interface PoolOptions {
  size: number; // workers
  timeoutMs: number; // deadline per task, from the moment a worker begins it
  maxQueue: number; // tasks waiting beyond the running ones; more are refused
  entry?: { filename: string; execArgv: string[] }; // another worker file (tests); default workerEntry()
}

const SHUTTING_DOWN = 'the server is shutting down';

export class DealPool {
  private piscina: Piscina<DealJob, DealTaskResult | ReviewTaskResult> | undefined; // made on first use
  private closed = false;
  private active = 0; // tasks running or waiting

  constructor(private readonly options: PoolOptions) {}

  /** Runs a task (a deal, or a review) in a worker; rejects with PoolError on deadline, a full queue or a dead worker. */
  async run<T extends WorkerTask>(task: T): Promise<WorkerResult<T>> {
    if (this.closed) throw new PoolError('ERR_WORKER', SHUTTING_DOWN);
    // Counted here, not by piscina, which counts a task waiting for a booting thread as queued.
    if (this.active >= this.options.size + this.options.maxQueue)
      throw new PoolError('ERR_BUSY', 'the server is busy making deals; try again in a moment');
    const pool = this.pool();
    this.active++;
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    port1.once('message', () => {
      timer = setTimeout(() => abort.abort(), this.options.timeoutMs);
    });
    try {
      return (await pool.run(
        { task, started: port2 },
        { transferList: [port2], signal: abort.signal },
      )) as WorkerResult<T>;
    } catch (error) {
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
      clearTimeout(timer);
      port1.close();
    }
  }

  /** Warms up: starts every worker (a first deal then pays no boot time). */
  async start(): Promise<void> {
    if (this.closed) return;
    this.pool();
  }

  /** Refuses running and waiting tasks and stops every worker. */
  async close(): Promise<void> {
    this.closed = true;
    const pool = this.piscina;
    this.piscina = undefined;
    await pool?.destroy();
  }

  private pool(): Piscina<DealJob, DealTaskResult | ReviewTaskResult> {
    this.piscina ??= new Piscina<DealJob, DealTaskResult | ReviewTaskResult>({
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
