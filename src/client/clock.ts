/** Your clock kept in this browser between page loads (docs/client.md, "Your clock"). */
import type { KeptStore } from './sync.ts';

const KEY = 'mahjong:clock'; // KeptClock[], newest first
const KEPT = 20;
const KEEP_DAYS = 30;

interface KeptClock {
  readonly deal: string; // sync.ts's storageKey
  readonly game: string | null;
  readonly ms: number;
  readonly at: number; // ms epoch
}

function read(store: KeptStore | null): KeptClock[] {
  try {
    const list: unknown = JSON.parse(store?.get(KEY) ?? '[]');
    return Array.isArray(list) ? (list as KeptClock[]).filter((c) => typeof c?.deal === 'string') : [];
  } catch {
    return [];
  }
}

function write(store: KeptStore | null, list: readonly KeptClock[]): void {
  try {
    if (list.length === 0) store?.remove(KEY);
    else store?.set(KEY, JSON.stringify(list.slice(0, KEPT)));
  } catch {
    // storage refused
  }
}

/** Keeps your time `ms` for game `game` of deal `deal` at `now` (ms epoch). */
export function keepClock(store: KeptStore | null, deal: string, game: string | null, ms: number, now: number): void {
  const others = read(store).filter((c) => c.deal !== deal);
  write(store, [{ deal, game, ms: Math.max(0, Math.round(ms)), at: now }, ...others]);
}

/** The time kept for this game of `deal`, or null (none, too old, another game; an unknown id matches). */
export function keptClock(store: KeptStore | null, deal: string, game: string | null, now: number): number | null {
  const kept = read(store).find((c) => c.deal === deal);
  if (!kept || !Number.isFinite(kept.ms) || now - kept.at > KEEP_DAYS * 86_400_000) return null;
  if (kept.game !== null && game !== null && kept.game !== game) return null;
  return Math.max(0, kept.ms);
}

/** Forgets deal `deal`'s time (its game was won). */
export function dropClock(store: KeptStore | null, deal: string): void {
  const list = read(store);
  const rest = list.filter((c) => c.deal !== deal);
  if (rest.length !== list.length) write(store, rest);
}
