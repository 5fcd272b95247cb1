/**
 * Questions to the solver's worker (worker.ts): one worker per kind, so a check never delays a hint; asking
 * again replaces a busy worker. Workers start on the first question. A worker that cannot start (its script
 * fetched offline before the service worker has kept it) answers its question with an error, and the next
 * question starts a new one.
 */
import type { Deal, Move } from '../engine/index.ts';
import type { WorkerAnswer, WorkerRequest } from './worker.ts';

export type Question = 'hint' | 'check';

/** The error answer of a worker whose script never loaded (an error the solver threw answers with its message). */
const COULD_NOT_START = 'the solver could not start';

/** Whether `answer` says the worker never started (offline before its script was kept), not that it failed. */
export const couldNotStart = (answer: WorkerAnswer): boolean =>
  answer.kind === 'error' && answer.message === COULD_NOT_START;

export type Ask = (kind: Question, deal: Deal, log: readonly Move[], done: (answer: WorkerAnswer) => void) => void;

export function makeAsk(workerUrl: URL): Ask {
  const workers = new Map<Question, { worker: Worker; waiting: number | null }>();
  let nextId = 1;
  return (kind, deal, log, done) => {
    let entry = workers.get(kind);
    if (entry && entry.waiting !== null) {
      entry.worker.terminate();
      entry = undefined;
    }
    if (!entry) {
      entry = { worker: new Worker(workerUrl, { type: 'module' }), waiting: null };
      workers.set(kind, entry);
    }
    const id = nextId++;
    const current = entry;
    current.waiting = id;
    current.worker.onmessage = (e: MessageEvent<WorkerAnswer>) => {
      if (e.data.id !== current.waiting) return;
      current.waiting = null;
      done(e.data);
    };
    current.worker.onerror = (e: Event) => {
      // A script that never loaded fires a plain event, answered here; an error thrown inside still reaches the console.
      const thrown = e instanceof ErrorEvent && e.message !== '';
      if (!thrown) e.preventDefault();
      current.worker.terminate();
      if (workers.get(kind) === current) workers.delete(kind);
      if (current.waiting === null) return;
      const waiting = current.waiting;
      current.waiting = null;
      done({ id: waiting, kind: 'error', message: thrown ? e.message : COULD_NOT_START });
    };
    current.worker.postMessage({ id, kind, deal, log } satisfies WorkerRequest);
  };
}
