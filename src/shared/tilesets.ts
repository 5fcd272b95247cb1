/** The tile sets' ids (docs/client.md, "Faces"). */
export const TILE_SETS = ['classic', 'traditional', 'large'] as const;
export type TileSet = (typeof TILE_SETS)[number];

/** The default, also for an unknown value. */
export const DEFAULT_TILE_SET: TileSet = 'classic';

export const TILES_COOKIE = 'tiles';
export const TILES_MAX_AGE = 400 * 24 * 3600; // s

export const isTileSet = (value: unknown): value is TileSet =>
  typeof value === 'string' && (TILE_SETS as readonly string[]).includes(value);

/** The set a value names, else the default. */
export const tileSetOf = (value: unknown): TileSet => (isTileSet(value) ? value : DEFAULT_TILE_SET);
