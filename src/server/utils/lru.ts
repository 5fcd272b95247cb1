/** An LRU Map bounded by bytes (docs/storage.md, "Caches bounded by bytes"). */

export const ENTRY_BYTES = 96;

export interface CacheUsage {
  readonly bytes: number;
  readonly maxBytes: number;
  readonly entries: number;
}

export interface MeasuredCache {
  readonly name: string;
  usage(): CacheUsage;
}

export class ByteLru<K, V> implements MeasuredCache {
  private readonly map = new Map<K, { value: V; bytes: number }>();
  private held = 0;

  constructor(
    readonly name: string,
    readonly maxBytes: number,
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const entry = this.map.get(key);
    if (entry === undefined) return undefined;
    this.map.delete(key);
    this.map.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` as the most recent, evicting past the budget. */
  set(key: K, value: V, valueBytes: number): void {
    this.delete(key);
    const bytes = valueBytes + ENTRY_BYTES;
    if (bytes > this.maxBytes) return;
    this.map.set(key, { value, bytes });
    this.held += bytes;
    this.trim();
  }

  /** Counts bytes a value gained in place. */
  resize(key: K, delta: number): void {
    const entry = this.map.get(key);
    if (entry === undefined) return;
    this.map.delete(key);
    this.map.set(key, entry);
    entry.bytes += delta;
    this.held += delta;
    this.trim();
  }

  /** Counts bytes shared by entries. */
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
