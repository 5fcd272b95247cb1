/**
 * The tile sets (docs/client.md, "Faces"): face sets drawn by us, one chosen per player. Only the ids live
 * here, for the server (the `tiles` cookie, the picker, `<html data-tiles>`), the build (a face sheet per set
 * and theme) and the theme script (switching without a reload) alike; what a player reads about them is in
 * src/server/view-models/tiles.ts.
 */
export const TILE_SETS = ['classic', 'traditional', 'large'] as const;
export type TileSet = (typeof TILE_SETS)[number];

/** The set of a player who chose none, and of any value that names no set. */
export const DEFAULT_TILE_SET: TileSet = 'classic';

export const TILES_COOKIE = 'tiles';
export const TILES_MAX_AGE = 400 * 24 * 3600; // seconds; the longest a browser keeps a cookie

export const isTileSet = (value: unknown): value is TileSet =>
  typeof value === 'string' && (TILE_SETS as readonly string[]).includes(value);

/** The set a value names (a cookie, a query, a form field), else the default: a bad value is never an error. */
export const tileSetOf = (value: unknown): TileSet => (isTileSet(value) ? value : DEFAULT_TILE_SET);
