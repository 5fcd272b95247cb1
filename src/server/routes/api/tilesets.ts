/** GET /api/tilesets: the tile sets a player may choose, `[{"id", "name"}]` (docs/client.md, "Faces"). */
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../errors.ts';
import { TileSetListSchema } from '../../schemas/tiles.ts';
import { tileSetList } from '../../views/tiles.ts';

export default async function apiTilesets(fastify: FastifyInstance): Promise<void> {
  const body = JSON.stringify(tileSetList());
  fastify.get(
    '/api/tilesets',
    { schema: { response: { 200: TileSetListSchema, ...errorResponses() } }, config: { player: false } },
    async (_request, reply) =>
      reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body),
  );
}
