/** A worker's side of its page: answers every message with `answer(message)`; outside a worker (Node tests) nothing. */
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
