/** The tile-set form and GET /api/tilesets; an unknown `tiles` is the default set. */
import { z } from 'zod';
import { TILE_SETS } from '../../shared/tilesets.ts';

export const TilesBodySchema = z.object(
  {
    tiles: z.string().max(64).optional().catch(undefined),
    back: z.string().max(512, 'back is a path of at most 512 characters').optional(),
  },
  { error: 'send the tiles form: tiles=<a tile set>' },
);

export const TileSetListSchema = z.array(z.object({ id: z.enum(TILE_SETS), name: z.string() }));
