/**
 * A Web Worker's side of its page: answers every message with `answer(message)` (worker.ts, the solver's;
 * editor-worker.ts, the layout editor's). Outside a worker (tests import the workers' modules in Node, where
 * `self` has no `document` either, but no `postMessage`) it does nothing.
 */
export function answerMessages<Q, A>(answer: (request: Q) => A): void {
  const scope = globalThis as unknown as {
    document?: unknown;
    addEventListener?: typeof addEventListener;
    postMessage?: (a: unknown) => void;
  };
  if (
    typeof scope.document === 'undefined' &&
    typeof scope.addEventListener === 'function' &&
    typeof scope.postMessage === 'function'
  ) {
    scope.addEventListener('message', (e: Event) => {
      scope.postMessage!(answer((e as MessageEvent<Q>).data));
    });
  }
}
