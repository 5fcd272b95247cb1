/**
 * The tile-set picker's form (views/partials/tiles.eta, on every page) and GET /api/tilesets's answer. A
 * `tiles` value that names no set is the default set (view-models/tiles.ts), so the form takes any short string.
 */
import { z } from 'zod';
import { TILE_SETS } from '../../shared/tilesets.ts';

export const TilesBodySchema = z.object(
  {
    tiles: z.string().max(64).optional().catch(undefined), // anything else (too long, sent twice): the default set
    back: z.string().max(512, 'back is a path of at most 512 characters').optional(), // the page the form was on
  },
  { error: 'send the tiles form: tiles=<a tile set>' },
);

/** `[{"id", "name"}]`: every tile set, the default first. */
export const TileSetListSchema = z.array(z.object({ id: z.enum(TILE_SETS), name: z.string() }));
