/**
 * GET /api/tilesets: the tile sets a player may choose, `[{"id", "name"}]` (docs/server.md, "Tile sets"). The
 * ids are stable; the names are in the request's language (the `lang` cookie, else Accept-Language: docs/i18n.md),
 * so the answer says `Content-Language` and varies by both.
 */
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../errors.ts';
import { TileSetListSchema } from '../../schemas/tiles.ts';
import { tileSetList } from '../../view-models/tiles.ts';

export default async function apiTilesets(fastify: FastifyInstance): Promise<void> {
  const bodies = new Map<string, string>(); // by language: 20 at most
  fastify.get(
    '/api/tilesets',
    { schema: { response: { 200: TileSetListSchema, ...errorResponses() } }, config: { player: false } },
    async (request, reply) => {
      let body = bodies.get(request.lang);
      if (body === undefined) bodies.set(request.lang, (body = JSON.stringify(tileSetList(request.i18n))));
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'public, max-age=300')
        .header('content-language', request.lang)
        .header('vary', 'Cookie, Accept-Language')
        .send(body);
    },
  );
}
