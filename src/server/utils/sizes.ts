/**
 * What the server's caches hold, in bytes of heap, and how much each may hold.
 *
 * Implementation notes: V8 cannot say how big one value is, so each kind of cached value has an
 * estimate from its counts (tiles, moves, shuffle boards, characters) with per-item figures measured
 * on Node 20's heap: test/server/ops/memory.test.ts builds each kind many times in a process started with
 * `--expose-gc`, measures the heap it takes after a collection, and checks that every estimate here is
 * at least what it measured and at most three times it (and 4 KB). Each cache counts everything its entries keep
 * alive, also what another cache may hold too (a game state keeps its deal and the deal's geometry), so
 * the sum of the budgets below bounds the heap of all caches together, whatever the traffic:
 * CACHE_BUDGETS adds up to 128 MB.
 *
 * Measured (bytes, Node 20, x64): a turtle deal parsed 13 KB, with its geometry 95 KB, once a shuffle
 * searched on it 140 KB; a 1,000-tile deal 97 KB, 560–750 KB, 700–900 KB. A game state of the turtle
 * 3.4 KB fresh; a 1,000-tile game with 100 shuffles and 4,800 undo/redo 1.0 MB.
 */
import type { Game } from '../../engine/index.ts';

/** Per-item heap figures (bytes), each an upper bound of what test/server/ops/memory.test.ts measures. */
export const HEAP = {
  string: 24, // a string's header, besides its characters
  object: 64, // a small object (an entry, a record of a few fields) with its header
  arraySlot: 8, // one element of an array of values (faces, slot rows)
  move: 48, // one move of a game's log, as JSON.parse or the request's schema made it
  step: 72, // one undo step (a match: its slots and faces; a shuffle: its two boards, counted apart)
  gameBase: 2_500, // a game state's own object, counters and arrays, empty
  dealPerChar: 3, // a parsed deal per character of its JSON (tiles as objects), besides the JSON itself
  dealPerTile: 1_000, // a deal's geometry (above, below, left, right lists) and the search's tables, per tile
  slotRow: 96, // one [x, y, z] row of a layout's shape
  layoutPerTile: 1_000, // a parsed custom layout per tile: its slot objects and geometry
  buffer: 200, // a Buffer's object and its backing store's header, besides its bytes
} as const;

// eslint-disable-next-line no-control-regex -- the test is for anything outside Latin-1
const isLatin1 = (s: string): boolean => !/[^\u0000-\u00ff]/.test(s);

/** Heap bytes of a flat string: one byte a character when all are Latin-1 (V8's one-byte strings), else two. */
export const stringBytes = (s: string): number => HEAP.string + (isLatin1(s) ? s.length : 2 * s.length);

/**
 * The same text as one flat string, for a cache to keep. A rendered template is a rope of thousands of
 * pieces (the turtle's board, 39,000 characters, held 84 KB that way), and a rope's size cannot be told
 * from its length; a flat copy's can (stringBytes).
 */
export const flatString = (s: string): string =>
  isLatin1(s) ? Buffer.from(s, 'latin1').toString('latin1') : Buffer.from(s, 'utf16le').toString('utf16le');

/** Heap bytes of a parsed deal with its JSON text (ASCII), its geometry and the search's tables. */
export const dealBytes = (json: string, tiles: number): number =>
  HEAP.object + HEAP.string + json.length * (1 + HEAP.dealPerChar) + tiles * HEAP.dealPerTile;

/**
 * Heap bytes of a game state, without its deal (which the caller counts once per deal). Faces: the current
 * board, its own copy once a match was played, and per shuffle its board and the board before it.
 */
export function gameBytes(game: Game): number {
  const boards = 1 + (game.past.length > 0 ? 1 : 0) + 2 * game.boards.length;
  return (
    HEAP.gameBase +
    boards * game.faces.length * HEAP.arraySlot +
    game.log.length * HEAP.move +
    (game.past.length + game.future.length) * HEAP.step
  );
}

/** Heap bytes of a layout's shape: `tiles` rows of [x, y, z]. */
export const shapeBytes = (tiles: number): number => HEAP.object + tiles * HEAP.slotRow;

/** Heap bytes of a custom layout kept for its pages: the parsed layout with its geometry, and its picture. */
export const customLayoutBytes = (tiles: number, picture: string, name: string): number =>
  HEAP.object * 4 + tiles * HEAP.layoutPerTile + stringBytes(picture) + stringBytes(name);

/** Bytes of a Buffer (outside the heap, in the process's memory all the same). */
export const bufferBytes = (b: Buffer): number => HEAP.buffer + b.length;

/** A small record kept under a string key: the key and the record (a cache adds its entry's cost: lru.ts). */
export const keyedRecordBytes = (key: string, extra = 0): number => stringBytes(key) + HEAP.object + extra;

const MB = 1024 * 1024;

/**
 * What each cache may hold, in bytes (docs/operations.md, "Memory"): 128 MB in all. With Node's heap at
 * 256 MB (`--max-old-space-size=256`) that leaves half of it for the rest of the process: its code, and
 * the requests in flight (one request holds at most one game's replay, about 1 MB at the caps).
 */
export const CACHE_BUDGETS = {
  games: 40 * MB, // game states after their stored log (services/games.ts)
  deals: 32 * MB, // stored deals, parsed (services/deal-memory.ts)
  pages: 23 * MB, // fresh boards and whole play pages of visitors without a game (routes/pages/play.ts)
  layouts: 8 * MB, // custom layouts with their pictures (services/custom-layouts.ts)
  counters: 16 * MB, // rate-limit and budget windows in memory (services/counters.ts)
  shapes: 4 * MB, // layout shapes of stored deals (stores)
  dealKeys: 2 * MB, // failed deals and seeds the server chose (services/deal-memory.ts)
  records: 2 * MB, // deals' own records, kept a second (services/first-shown.ts)
  reviews: 1 * MB, // reviews of games in progress for their replays (services/replays.ts): a few hundred bytes each
} as const;

/**
 * What the link-preview images may hold (services/previews.ts): PNGs of ~0.3–0.6 MB each, in Buffers, which
 * live outside the JS heap, so this is apart from the 128 MB of CACHE_BUDGETS (but counts in the RSS).
 */
export const PREVIEW_CACHE_BYTES = 12 * MB;

/** The sum of CACHE_BUDGETS: what every cache together may hold. */
export const CACHES_TOTAL = Object.values(CACHE_BUDGETS).reduce((a, b) => a + b, 0);

/** What one deal worker may keep of custom layouts (services/deal-worker.ts), in its own heap. */
export const WORKER_LAYOUTS_BYTES = 4 * MB;
