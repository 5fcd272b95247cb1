/**
 * What the dealer keeps in memory, each bounded by bytes (utils/sizes.ts: a turtle deal with its geometry is
 * ~140 KB, a 1,000-tile one up to ~900 KB): stored deals parsed, found by id and by key; deals made and not
 * stored yet (shown to a visitor without a player cookie, or found by a band search); failures remembered a
 * while (so a repeated link does not burn another worker's time); and seeds the server chose itself.
 */
import type { Deal } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import type { DealRow } from '../stores/types.ts';
import { ByteLru, type MeasuredCache } from '../utils/lru.ts';
import { CACHE_BUDGETS, dealBytes, keyedRecordBytes, stringBytes } from '../utils/sizes.ts';

export interface StoredDeal {
  readonly id: number; // row id in the deals table
  readonly deal: Deal;
  readonly json: string; // the deal JSON exactly as stored and served
}

/**
 * A deal shown without being stored: to a visitor without a player cookie, or to a client whose day of growth
 * is spent. The same board it would be stored with (the same generator); stored when a player starts a game
 * of it or opens it with their cookie.
 */
export interface UnstoredDeal {
  readonly id: null;
  readonly deal: Deal;
  readonly json: string;
}

export type ShownDeal = StoredDeal | UnstoredDeal;

const FAILURE_TTL = 10 * 60_000; // how long a failed deal is remembered; in ms

/** A deal's key in memory: `layout/seed/mode`. */
export const keyOf = ({ layout, seed, mode }: { layout: string; seed: string; mode: string }): string =>
  `${layout}/${seed}/${mode}`;

export class DealMemory {
  private readonly idOfKey = new Map<string, number>(); // keyOf → id of a deal in byId (entries go with byId's)
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

  /** The caches, for /healthz and /metrics. */
  caches(): MeasuredCache[] {
    return [this.byId, this.unstored, this.failed, this.chosen];
  }

  /** Keeps a stored deal's row, parsed; returns it. */
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

  /** The ids of the stored deals kept here (the pruner spares them). */
  storedIds(): number[] {
    return this.byId.keys();
  }

  /** Keeps a deal made and not stored; returns it. */
  keepUnstored(key: string, json: string): UnstoredDeal {
    const made: UnstoredDeal = { id: null, deal: JSON.parse(json) as Deal, json };
    this.unstored.set(key, made, dealBytes(json, made.deal.tiles.length) + keyedRecordBytes(key));
    return made;
  }

  unstoredByKey(key: string): UnstoredDeal | undefined {
    return this.unstored.get(key);
  }

  /** Remembers why a deal could not be made, for FAILURE_TTL. */
  fail(key: string, refusal: Refusal): void {
    this.failed.set(key, { refusal, at: this.now() }, keyedRecordBytes(key, stringBytes(refusal.message)));
  }

  /** Why a deal could not be made lately, if it could not. */
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
