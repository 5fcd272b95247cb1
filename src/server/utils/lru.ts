/**
 * A least-recently-used map bounded by bytes: every entry says what it holds (an estimate from
 * utils/sizes.ts, whose figures test/server/ops/memory.test.ts measures on the heap), and past `maxBytes`
 * the least recently used entries go. Bounding by count let a cache of 500 game states take 2 GB when
 * each was a 1,000-tile game with 100 shuffles. A Map whose insertion order is its use order.
 *
 * An entry larger than the whole budget is not kept at all. `onEvict` hears of every entry that leaves
 * (evicted, replaced or deleted), so a cache can account for what its entries share (services/games.ts).
 */

/** What /healthz?detail=1 shows of a cache. */
/** Bytes an entry costs besides its value: the Map's slot and the record of the value and its size (measured). */
export const ENTRY_BYTES = 96;

export interface CacheUsage {
  readonly bytes: number; // estimated bytes held
  readonly maxBytes: number;
  readonly entries: number;
}

export interface MeasuredCache {
  readonly name: string;
  usage(): CacheUsage;
}

export class ByteLru<K, V> implements MeasuredCache {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private held = 0; // bytes of the entries held

  constructor(
    readonly name: string, // for the health detail, e.g. 'game states'
    readonly maxBytes: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  /** The value, now the most recently used. */
  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /**
   * Keeps `value`, which holds `bytes` (its key included), as the most recently used; evicts the least
   * recently used past the budget. The entry's own cost (ENTRY_BYTES) is added here.
   */
  set(key: K, value: V, valueBytes: number): void {
    this.delete(key);
    const bytes = valueBytes + ENTRY_BYTES;
    if (bytes > this.maxBytes) return; // it would push out everything else and still not fit
    this.map.set(key, { value, bytes });
    this.held += bytes;
    this.trim();
  }

  /** Counts `delta` more (or fewer) bytes for an entry whose value grew (or shrank) in place; now the most recently used. */
  resize(key: K, delta: number): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.map.set(key, entry);
    entry.bytes += delta;
    this.held += delta;
    this.trim();
  }

  /** Counts bytes the cache holds beside its entries (what they share), or frees them with a negative `bytes`. */
  account(bytes: number): void {
    this.held += bytes;
    if (bytes > 0) this.trim();
  }

  delete(key: K): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.held -= entry.bytes;
    this.onEvict?.(key, entry.value);
  }

  /** The keys held, least recently used first. */
  keys(): K[] {
    return [...this.map.keys()];
  }

  usage(): CacheUsage {
    return { bytes: this.held, maxBytes: this.maxBytes, entries: this.map.size };
  }

  private trim(): void {
    while (this.held > this.maxBytes && this.map.size > 0) this.delete(this.map.keys().next().value as K);
  }
}
