/**
 * The page's tile set (docs/server.md, "Tile sets"), as plugins/i18n.ts does the language:
 *
 * - `request.tiles`: the `tiles` cookie when it names a set, else the default set (src/shared/tilesets.ts).
 * - `?tiles=<id>` on a page's address (any GET or HEAD outside /api/ and /static/) keeps the set in the cookie
 *   when it names one and goes to the same address without it (303), so an address shown, kept or shared never
 *   carries a set: a link hands a friend the set to try, and their address stays the deal's. A value that names
 *   no set (or two of them) is dropped the same way, with no cookie and no error.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { isTileSet, TILES_COOKIE, tileSetOf, type TileSet } from '../../shared/tilesets.ts';
import { keepTileSet } from '../view-models/tiles.ts';
import { takeQueryChoice } from '../view-models/location.ts';

declare module 'fastify' {
  interface FastifyRequest {
    readonly tiles: TileSet; // the tile set the page is drawn with
  }
}

async function tilesPlugin(fastify: FastifyInstance): Promise<void> {
  const chosen = new WeakMap<FastifyRequest, TileSet>(); // a set kept by this request's own query
  fastify.decorateRequest('tiles', {
    getter(this: FastifyRequest): TileSet {
      return chosen.get(this) ?? tileSetOf(this.cookies?.[TILES_COOKIE]); // no cookies yet on an early error
    },
  });

  fastify.addHook(
    'onRequest',
    takeQueryChoice('tiles', (asked, request, reply) => {
      const set = asked.length === 1 ? asked[0] : undefined; // two sets name none
      if (!isTileSet(set)) return;
      keepTileSet(request, reply, set);
      chosen.set(request, set);
    }),
  );
}

export default fp(tilesPlugin, { name: 'tiles' });
