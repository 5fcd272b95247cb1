/**
 * Readiness: whether this process wants new requests, for the balancer's health checks.
 *
 * A rolling restart takes each process of a fleet out in turn without failing a request. On SIGTERM the
 * process first drains (server.ts): `/healthz` answers 503 `draining: …` while the process goes on serving
 * everything that reaches it, and every answer says `Connection: close`, so the balancer keeps no idle
 * connection to it. Once the balancer has seen enough failed checks to take it out (`DRAIN_MS`, default
 * 5 s: more than the balancer's check interval times its fall count), nothing new arrives; then the process
 * closes (stops listening, closes idle sockets, finishes what is in flight) and exits.
 *
 * Should requests still arrive after DRAIN_MS (a balancer slower to see it than planned: its checks
 * answered late on a busy machine), the drain goes on until none came for QUIET_MS, MAX_EXTRA_MS more at
 * most. Nobody to tell, nothing to wait for: unless the last two health checks came within WATCHED_MS of each
 * other and of now (a balancer checks every few seconds; Docker's HEALTHCHECK every 30 s only tells Docker,
 * and a process run by hand or by a test is checked by nobody), the drain is skipped.
 */
import type { IncomingMessage, Server } from 'node:http';

export const WATCHED_MS = 15_000; // health checks this close together, the last this recent: a balancer is watching
export const QUIET_MS = 1000; // past DRAIN_MS, the drain ends once no request came for this long…
export const MAX_EXTRA_MS = 10_000; // …or after this much longer

export class Readiness {
  /** ms epoch the drain began; null while the process serves as usual. */
  draining: number | null = null;
  /** ms epochs of the latest two `/healthz` requests, if any. */
  private lastCheck: number | null = null;
  private checkBefore: number | null = null;

  /** A health check arrived. */
  checked(now: number): void {
    this.checkBefore = this.lastCheck;
    this.lastCheck = now;
  }

  /** Whether a balancer is watching: the last two health checks within WATCHED_MS of each other and of `now`. */
  watched(now: number): boolean {
    return (
      this.lastCheck !== null &&
      this.checkBefore !== null &&
      now - this.lastCheck < WATCHED_MS &&
      this.lastCheck - this.checkBefore < WATCHED_MS
    );
  }

  /** From now on `/healthz` answers 503 and every answer closes its connection. */
  drain(now: number): void {
    this.draining ??= now;
  }
}

export interface Drain {
  /** Resolves when the drain is over: how long it took, and how long no request had come by then. */
  readonly done: Promise<{ drainedMs: number; quietMs: number }>;
  /** Ends it now (a second signal). */
  end(): void;
}

/**
 * Waits out a drain on `server`: `drainMs`, then on while requests other than health checks still arrive,
 * until none came for `quietMs`, or `maxExtraMs` more at most.
 */
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
