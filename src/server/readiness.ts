/** Readiness: whether this process wants new requests (docs/http.md, "Draining"). */
import type { IncomingMessage, Server } from 'node:http';

export const WATCHED_MS = 15_000; // checks this close and recent: a balancer watches
export const QUIET_MS = 1000; // past DRAIN_MS, end once quiet this long…
export const MAX_EXTRA_MS = 10_000; // …or after this much longer

export class Readiness {
  /** ms epoch the drain began, or null. */
  draining: number | null = null;
  private lastCheck: number | null = null;
  private checkBefore: number | null = null;

  checked(now: number): void {
    this.checkBefore = this.lastCheck;
    this.lastCheck = now;
  }

  watched(now: number): boolean {
    return (
      this.lastCheck !== null &&
      this.checkBefore !== null &&
      now - this.lastCheck < WATCHED_MS &&
      this.lastCheck - this.checkBefore < WATCHED_MS
    );
  }

  /** From now on `/healthz` answers 503 and answers close connections. */
  drain(now: number): void {
    this.draining ??= now;
  }
}

export interface Drain {
  /** Resolves when the drain is over. */
  readonly done: Promise<{ drainedMs: number; quietMs: number }>;
  end(): void;
}

/** Waits `drainMs`, then until quiet for `quietMs` (`maxExtraMs` more at most). */
export function waitForDrain(
  server: Server,
  drainMs: number,
  { quietMs = QUIET_MS, maxExtraMs = MAX_EXTRA_MS }: { quietMs?: number; maxExtraMs?: number } = {},
): Drain {
  const start = Date.now();
  let lastRequest = start;
  const seen = (request: IncomingMessage): void => {
    if (!request.url?.startsWith('/healthz')) lastRequest = Date.now();
  };
  server.on('request', seen);
  let timer: NodeJS.Timeout | undefined;
  let finish!: () => void;
  const done = new Promise<{ drainedMs: number; quietMs: number }>((resolve) => {
    finish = () => {
      clearTimeout(timer);
      server.off('request', seen);
      const at = Date.now();
      resolve({ drainedMs: at - start, quietMs: at - lastRequest });
    };
  });
  const check = (): void => {
    const at = Date.now();
    const quietFor = at - lastRequest;
    if (at - start >= drainMs + maxExtraMs || (at - start >= drainMs && quietFor >= quietMs)) return finish();
    timer = setTimeout(check, Math.max(20, Math.min(drainMs - (at - start), quietMs - quietFor)));
  };
  timer = setTimeout(check, drainMs);
  return { done, end: () => finish() };
}
