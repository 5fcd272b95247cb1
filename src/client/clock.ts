/**
 * Your clock kept in this browser between page loads (docs/fair-play.md, "Two clocks"). The server hears your
 * time with each batch of moves, so after a reload it knows the time of the last move, not the time shown when
 * the page went away; this keeps that one (written when the page is hidden or left, and every few seconds while
 * the clock runs), and the next page of the same game goes on from whichever is later. Time while no page shows
 * the game is never counted, as when the page is hidden.
 *
 * One localStorage entry holds the last few games' times, newest first; a game's entry goes with its win.
 */
import type { KeptStore } from './sync.ts';

const KEY = 'mahjong:clock'; // localStorage: KeptClock[], newest first
const KEPT = 20; // games kept; older entries are dropped
const KEEP_DAYS = 30; // an entry older than this is ignored (as the sync's kept logs)

interface KeptClock {
  readonly deal: string; // the sync's storage key of the deal (sync.ts, storageKey)
  readonly game: string | null; // the server's game id; null before the server made the game
  readonly ms: number; // your time shown, in ms
  readonly at: number; // ms epoch when it was kept
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
    // storage full or forbidden: a reload goes on from the time the server last heard
  }
}

/** Keeps your time `ms` for the game `game` of deal `deal` at time `now` (ms epoch). */
export function keepClock(store: KeptStore | null, deal: string, game: string | null, ms: number, now: number): void {
  const others = read(store).filter((c) => c.deal !== deal);
  write(store, [{ deal, game, ms: Math.max(0, Math.round(ms)), at: now }, ...others]);
}

/**
 * The time kept for the game `game` of deal `deal`, or null: none kept, too old, or kept for another game of
 * the deal (a game id unknown on either side matches: the first move's page may not have heard it yet).
 */
export function keptClock(store: KeptStore | null, deal: string, game: string | null, now: number): number | null {
  const kept = read(store).find((c) => c.deal === deal);
  if (!kept || !Number.isFinite(kept.ms) || now - kept.at > KEEP_DAYS * 86_400_000) return null;
  if (kept.game !== null && game !== null && kept.game !== game) return null;
  return Math.max(0, kept.ms);
}

/** Forgets the time kept for deal `deal` (its game was won). */
export function dropClock(store: KeptStore | null, deal: string): void {
  const list = read(store);
  const rest = list.filter((c) => c.deal !== deal);
  if (rest.length !== list.length) write(store, rest);
}
