/** Heap bytes of cached values; cache budgets (docs/storage.md, "Caches bounded by bytes"). */
import type { Game } from '../../engine/index.ts';

/** Per-item heap bytes, upper bounds of what test/server/ops/memory.test.ts measures. */
export const HEAP = {
  string: 24,
  object: 64,
  arraySlot: 8,
  move: 48,
  step: 72,
  gameBase: 2_500,
  dealPerChar: 3,
  dealPerTile: 1_000,
  slotRow: 96,
  layoutPerTile: 1_000,
  buffer: 200,
} as const;

// eslint-disable-next-line no-control-regex -- a test for non-Latin-1
const isLatin1 = (s: string): boolean => !/[^\u0000-\u00ff]/.test(s);

/** One byte a character for Latin-1, else two. */
export const stringBytes = (s: string): number => HEAP.string + (isLatin1(s) ? s.length : 2 * s.length);

/** A flat copy: a rope's size cannot be told from its length. */
export const flatString = (s: string): string =>
  isLatin1(s) ? Buffer.from(s, 'latin1').toString('latin1') : Buffer.from(s, 'utf16le').toString('utf16le');

export const dealBytes = (json: string, tiles: number): number =>
  HEAP.object + HEAP.string + json.length * (1 + HEAP.dealPerChar) + tiles * HEAP.dealPerTile;

/** Without its deal. */
export function gameBytes(game: Game): number {
  const boards = 1 + (game.past.length > 0 ? 1 : 0) + 2 * game.boards.length;
  return (
    HEAP.gameBase +
    boards * game.faces.length * HEAP.arraySlot +
    game.log.length * HEAP.move +
    (game.past.length + game.future.length) * HEAP.step
  );
}

export const shapeBytes = (tiles: number): number => HEAP.object + tiles * HEAP.slotRow;

export const customLayoutBytes = (tiles: number, picture: string, name: string): number =>
  HEAP.object * 4 + tiles * HEAP.layoutPerTile + stringBytes(picture) + stringBytes(name);

export const bufferBytes = (b: Buffer): number => HEAP.buffer + b.length;

export const keyedRecordBytes = (key: string, extra = 0): number => stringBytes(key) + HEAP.object + extra;

const MB = 1024 * 1024;

/** docs/operations.md, "Memory". */
export const CACHE_BUDGETS = {
  games: 40 * MB,
  deals: 32 * MB,
  pages: 23 * MB,
  layouts: 8 * MB,
  counters: 16 * MB,
  shapes: 4 * MB,
  dealKeys: 2 * MB,
  records: 2 * MB,
  reviews: 1 * MB,
} as const;

export const PREVIEW_CACHE_BYTES = 12 * MB;

export const CACHES_TOTAL = Object.values(CACHE_BUDGETS).reduce((a, b) => a + b, 0);

export const WORKER_LAYOUTS_BYTES = 4 * MB;
