/**
 * Fixed-window counters for every limit and budget: in memory for one process, in Redis for a fleet
 * (plugins/counters.ts). `take` spends from several windows all or nothing, so a refusal costs nothing.
 */
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, keyedRecordBytes } from '../utils/sizes.ts';

export interface CounterWindow {
  key: string; // such as `deals:minute:203.0.113.0/24`
  max: number;
  windowMs: number; // from its first count
}

/** `index`: the full window; `retryAfterMs`: until it turns. */
export type Taken = { ok: true } | { ok: false; index: number; retryAfterMs: number };

export interface Counters {
  /** Spends `n` from every window if each stays within its max; else nothing. */
  take(windows: readonly CounterWindow[], n?: number): Promise<Taken>;
  /** For @fastify/rate-limit: counts one, without a max. */
  hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }>;
  peek(key: string): Promise<{ current: number; ttl: number }>;
}

interface Window {
  start: number;
  count: number;
}

/** Counters in memory, bounded by bytes: past the budget the least recently used windows go. */
export class LocalCounters implements Counters {
  readonly windows: ByteLru<string, Window>;

  constructor(
    private readonly now: () => number,
    maxBytes: number = CACHE_BUDGETS.counters,
  ) {
    this.windows = new ByteLru('counters', maxBytes);
  }

  /** A fresh one if it turned. */
  private windowOf(key: string, windowMs: number, now: number): Window {
    let w = this.windows.get(key);
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

/** At least 1, as Retry-After says. */
export const secondsOf = (retryAfterMs: number): number => Math.max(1, Math.ceil(retryAfterMs / 1000));
