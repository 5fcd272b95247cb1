/**
 * What the dealer keeps in memory, bounded by bytes: stored deals, deals not stored yet, failures for a while
 * (a repeated link burns no more worker time), seeds the server chose.
 */
import type { Deal } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import type { DealRow } from '../stores/types.ts';
import { ByteLru, type MeasuredCache } from '../utils/lru.ts';
import { CACHE_BUDGETS, dealBytes, keyedRecordBytes, stringBytes } from '../utils/sizes.ts';

export interface StoredDeal {
  readonly id: number;
  readonly deal: Deal;
  readonly json: string; // exactly as stored and served
}

/** A deal shown unstored (no player cookie, or growth spent): the same board it will be stored with. */
export interface UnstoredDeal {
  readonly id: null;
  readonly deal: Deal;
  readonly json: string;
}

export type ShownDeal = StoredDeal | UnstoredDeal;

const FAILURE_TTL = 10 * 60_000; // ms

export const keyOf = ({ layout, seed, mode }: { layout: string; seed: string; mode: string }): string =>
  `${layout}/${seed}/${mode}`;

export class DealMemory {
  private readonly idOfKey = new Map<string, number>(); // entries go with byId's
  private readonly byId = new ByteLru<number, StoredDeal>('deals', CACHE_BUDGETS.deals, (_id, stored) =>
    this.idOfKey.delete(keyOf(stored.deal)),
  );
  private readonly unstored = new ByteLru<string, UnstoredDeal>('unstored deals', CACHE_BUDGETS.deals / 4);
  private readonly failed = new ByteLru<string, { refusal: Refusal; at: number }>(
    'failed deals',
    CACHE_BUDGETS.dealKeys / 2,
  );
  private readonly chosen = new ByteLru<string, true>('chosen seeds', CACHE_BUDGETS.dealKeys / 2); // until made

  constructor(private readonly now: () => number) {}

  caches(): MeasuredCache[] {
    return [this.byId, this.unstored, this.failed, this.chosen];
  }

  remember(row: DealRow): StoredDeal {
    const stored: StoredDeal = { id: row.id, deal: JSON.parse(row.deal_json) as Deal, json: row.deal_json };
    const bytes = dealBytes(stored.json, stored.deal.tiles.length) + 2 * keyedRecordBytes(keyOf(stored.deal));
    this.byId.set(row.id, stored, bytes);
    if (this.byId.get(row.id) === stored) this.idOfKey.set(keyOf(stored.deal), row.id);
    this.unstored.delete(keyOf(stored.deal));
    return stored;
  }

  storedByKey(key: string): StoredDeal | undefined {
    const id = this.idOfKey.get(key);
    return id === undefined ? undefined : this.byId.get(id);
  }

  storedById(id: number): StoredDeal | undefined {
    return this.byId.get(id);
  }

  /** The pruner spares them. */
  storedIds(): number[] {
    return this.byId.keys();
  }

  keepUnstored(key: string, json: string): UnstoredDeal {
    const made: UnstoredDeal = { id: null, deal: JSON.parse(json) as Deal, json };
    this.unstored.set(key, made, dealBytes(json, made.deal.tiles.length) + keyedRecordBytes(key));
    return made;
  }

  unstoredByKey(key: string): UnstoredDeal | undefined {
    return this.unstored.get(key);
  }

  fail(key: string, refusal: Refusal): void {
    this.failed.set(key, { refusal, at: this.now() }, keyedRecordBytes(key, stringBytes(refusal.message)));
  }

  failure(key: string): Refusal | undefined {
    const failure = this.failed.get(key);
    return failure && this.now() - failure.at < FAILURE_TTL ? failure.refusal : undefined;
  }

  markChosen(key: string): void {
    this.chosen.set(key, true, keyedRecordBytes(key));
  }

  isChosen(key: string): boolean {
    return this.chosen.get(key) === true;
  }
}
