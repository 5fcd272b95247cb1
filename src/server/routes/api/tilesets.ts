/** GET /api/tilesets: `[{"id", "name"}]` (docs/server.md, "Tile sets"), names in the request's language. */
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../errors.ts';
import { perLang, sendInLang } from '../../plugins/i18n.ts';
import { TileSetListSchema } from '../../schemas/tiles.ts';
import { tileSetList } from '../../view-models/tiles.ts';

export default async function apiTilesets(fastify: FastifyInstance): Promise<void> {
  const bodies = perLang((i18n) => JSON.stringify(tileSetList(i18n)));
  fastify.get(
    '/api/tilesets',
    { schema: { response: { 200: TileSetListSchema, ...errorResponses() } }, config: { player: false } },
    async (request, reply) =>
      sendInLang(reply, 'application/json; charset=utf-8', 'public, max-age=300', bodies(request.i18n)),
  );
}
