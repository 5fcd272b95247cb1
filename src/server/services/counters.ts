/**
 * Fixed-window counters: what every limit and budget of the server counts with (rate limits,
 * new deals, new layouts, shuffles). One process keeps them in memory (`LocalCounters`); a fleet
 * keeps them in Redis (plugins/counters.ts), so a client meets the same limits on every process.
 *
 * A window starts with its first count and lasts `windowMs`; then the next count starts a new one.
 * `take` spends from several windows at once, all or nothing (a new deal pays from the client's
 * minute, its hour and everyone's minute), so a refusal costs nothing, in memory as in Redis.
 */
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, keyedRecordBytes } from '../utils/sizes.ts';

export interface CounterWindow {
  key: string; // what is counted, such as `deals:minute:203.0.113.0/24`
  max: number; // at most this many per window
  windowMs: number; // the window's length, in ms
}

/** `index`: which window (of those given) is full; `retryAfterMs`: until it turns. */
export type Taken = { ok: true } | { ok: false; index: number; retryAfterMs: number };

export interface Counters {
  /** Spends `n` from every window if each stays within its max; else spends nothing and says which is full. */
  take(windows: readonly CounterWindow[], n?: number): Promise<Taken>;
  /** Counts one for `key` without a max (for @fastify/rate-limit): the count and the ms left in its window. */
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
  /** The count and ms left of `key`'s window, without counting. */
  peek(key: string): Promise<{ current: number; ttl: number }>;
}

interface Window {
  start: number; // ms epoch
  count: number;
}

/**
 * Counters in this process's memory, bounded by bytes (CACHE_BUDGETS.counters; a window is about 150
 * bytes with its key): past the budget the least recently used windows go, and start afresh if their key
 * comes back. Synchronous at heart; async to share the interface with Redis.
 */
export class LocalCounters implements Counters {
  readonly windows: ByteLru<string, Window>;

  constructor(
    private readonly now: () => number,
    maxBytes: number = CACHE_BUDGETS.counters,
  ) {
    this.windows = new ByteLru('counters', maxBytes);
  }

  /** The live window of `key` (a fresh one if it turned), now the most recently used. */
  private windowOf(key: string, windowMs: number, now: number): Window {
    let w = this.windows.get(key); // now the most recently used
    if (!w || now - w.start >= windowMs) {
      w = { start: now, count: 0 };
      this.windows.set(key, w, keyedRecordBytes(key));
    }
    return w;
  }

  takeNow(windows: readonly CounterWindow[], n = 1): Taken {
    if (n <= 0) return { ok: true };
    const now = this.now();
    const live = windows.map((spec) => this.windowOf(spec.key, spec.windowMs, now));
    const index = live.findIndex((w, i) => w.count + n > windows[i]!.max);
    if (index >= 0) return { ok: false, index, retryAfterMs: live[index]!.start + windows[index]!.windowMs - now };
    for (const w of live) w.count += n;
    return { ok: true };
  }

  async take(windows: readonly CounterWindow[], n = 1): Promise<Taken> {
    return this.takeNow(windows, n);
  }

  async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    const now = this.now();
    const w = this.windowOf(key, windowMs, now);
    w.count++;
    return { current: w.count, ttl: w.start + windowMs - now };
  }

  async peek(key: string): Promise<{ current: number; ttl: number }> {
    const w = this.windows.get(key);
    return w ? { current: w.count, ttl: 0 } : { current: 0, ttl: 0 };
  }
}

/** Seconds to wait for `retryAfterMs`, at least 1 (what Retry-After says). */
export const secondsOf = (retryAfterMs: number): number => Math.max(1, Math.ceil(retryAfterMs / 1000));
