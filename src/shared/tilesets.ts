/** The tile sets' ids (docs/client.md, "Faces"), for the server, the build and the theme script alike. */
export const TILE_SETS = ['classic', 'traditional', 'large'] as const;
export type TileSet = (typeof TILE_SETS)[number];

/** The default set, also for any value that names none. */
export const DEFAULT_TILE_SET: TileSet = 'classic';

export const TILES_COOKIE = 'tiles';
export const TILES_MAX_AGE = 400 * 24 * 3600; // seconds; the longest a browser keeps a cookie

export const isTileSet = (value: unknown): value is TileSet =>
  typeof value === 'string' && (TILE_SETS as readonly string[]).includes(value);

/** The set a value names, else the default: never an error. */
export const tileSetOf = (value: unknown): TileSet => (isTileSet(value) ? value : DEFAULT_TILE_SET);
