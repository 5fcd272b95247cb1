/**
 * A small pool of deal workers with a deadline per task and a bounded queue.
 *
 * Implementation notes: in production the worker is the compiled
 * dist/server/services/deal-worker.js, started as a plain file. From source
 * (`tsx`, vitest) a worker does not inherit the parent's TypeScript loader on
 * Node 20, so a two-line bootstrap registers tsx (a devDependency) inside the
 * worker before importing deal-worker.ts. Each worker runs one task at a time.
 * A task past its deadline has its worker terminated (the only way to stop
 * synchronous work) and replaced on the next task. Workers start lazily and
 * are unref'd.
 */
import { Worker } from 'node:worker_threads';
import type { DealTask, DealTaskResult } from './deal-worker.ts';

/** What a deal worker runs: the compiled file next to this one, or the TypeScript source through tsx. */
export function workerEntry(): URL {
  const compiled = !import.meta.url.endsWith('.ts');
  if (compiled) return new URL('./deal-worker.js', import.meta.url);
  const source = new URL('./deal-worker.ts', import.meta.url).href;
  const tsx = import.meta.resolve('tsx/esm/api');
  const boot = `import { register } from ${JSON.stringify(tsx)};\nregister();\nawait import(${JSON.stringify(source)});`;
  return new URL(`data:text/javascript,${encodeURIComponent(boot)}`);
}

export class PoolError extends Error {
  constructor(
    readonly code: 'ERR_TIMEOUT' | 'ERR_BUSY' | 'ERR_WORKER',
    message: string,
  ) {
    super(message);
  }
}

interface Job {
  task: DealTask;
  resolve: (result: DealTaskResult) => void;
  reject: (error: Error) => void;
}

interface Slot {
  booting: Promise<Worker> | undefined; // resolves once the worker said it is ready
  worker: Worker | undefined; // the ready worker
  job: Job | undefined;
  timer: NodeJS.Timeout | undefined;
}

export interface PoolOptions {
  size: number; // workers
  timeoutMs: number; // deadline per task
  maxQueue: number; // tasks waiting beyond the running ones; more are refused
}

export class DealPool {
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private closed = false;

  constructor(private readonly options: PoolOptions) {
    this.slots = Array.from({ length: options.size }, () => ({ booting: undefined, worker: undefined, job: undefined, timer: undefined }));
  }

  /** Deals a task in a worker; rejects with PoolError on deadline, a full queue or a dead worker. */
  run(task: DealTask): Promise<DealTaskResult> {
    if (this.closed) return Promise.reject(new PoolError('ERR_WORKER', 'the server is shutting down'));
    if (this.queue.length >= this.options.maxQueue)
      return Promise.reject(new PoolError('ERR_BUSY', 'the server is busy making deals; try again in a moment'));
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject });
      void this.pump();
    });
  }

  /** Warms up: starts every worker. */
  async start(): Promise<void> {
    await Promise.all(this.slots.map((slot) => this.spawn(slot)));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new PoolError('ERR_WORKER', 'the server is shutting down'));
    await Promise.all(
      this.slots.map(async (slot) => {
        const worker = slot.worker ?? (await slot.booting?.catch(() => undefined));
        const job = slot.job;
        this.finish(slot);
        job?.reject(new PoolError('ERR_WORKER', 'the server is shutting down'));
        slot.worker = undefined;
        slot.booting = undefined;
        if (worker) await worker.terminate();
      }),
    );
  }

  /** The slot's worker, started if needed; resolves when it is ready, so boot time is not deal time. */
  private spawn(slot: Slot): Promise<Worker> {
    if (slot.booting) return slot.booting;
    const booting = Promise.resolve().then(
      () =>
        new Promise<Worker>((resolve, reject) => {
          const worker = new Worker(workerEntry());
          worker.unref();
          let ready = false;
          const fail = (error: Error): void => {
            if (!ready) {
              if (slot.booting === booting) slot.booting = undefined; // the next task tries a new worker
              reject(new PoolError('ERR_WORKER', `the deal worker did not start: ${error.message}`));
              return;
            }
            if (slot.worker !== worker) return; // stopped at a deadline or on close: already handled
            slot.worker = undefined;
            slot.booting = undefined;
            const job = slot.job;
            this.finish(slot);
            job?.reject(new PoolError('ERR_WORKER', `the deal worker failed: ${error.message}`));
            void this.pump();
          };
          worker.on('error', fail);
          worker.on('exit', (code) => fail(new Error(`exit code ${code}`)));
          worker.on('message', (message: DealTaskResult | 'ready') => {
            if (message === 'ready') {
              ready = true;
              slot.worker = worker;
              resolve(worker);
              return;
            }
            if (slot.worker !== worker) return; // an answer after the deadline: that job was already refused
            const job = slot.job;
            this.finish(slot);
            job?.resolve(message);
            void this.pump();
          });
        }),
    );
    slot.booting = booting;
    return booting;
  }

  private finish(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = undefined;
    slot.job = undefined;
  }

  private async pump(): Promise<void> {
    for (const slot of this.slots) {
      if (this.closed || this.queue.length === 0) return;
      if (slot.job) continue;
      const job = this.queue.shift()!;
      slot.job = job; // taken before the await, so no other pump uses this slot
      let worker: Worker;
      try {
        worker = await this.spawn(slot);
      } catch (error) {
        this.finish(slot);
        job.reject(error as Error);
        continue;
      }
      if (slot.job !== job) continue; // closed while the worker booted: close() has refused the job
      slot.timer = setTimeout(() => {
        slot.worker = undefined; // its exit event is ignored now
        slot.booting = undefined;
        this.finish(slot);
        void worker.terminate();
        job.reject(new PoolError('ERR_TIMEOUT', `making this deal took longer than ${this.options.timeoutMs / 1000} s`));
        void this.pump();
      }, this.options.timeoutMs);
      worker.postMessage(job.task);
    }
  }
}
