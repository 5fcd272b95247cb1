/**
 * The tile sets' pages (docs/client.md, "Faces"):
 * - POST /tiles (the picker on every page, without script): keeps the chosen set in the `tiles` cookie (a
 *   value that names no set clears it: the default set) and goes back to the page the form was on (303).
 *   Same-origin and player-cookie checks are the player plugin's, as for every POST (plugins/player.ts).
 * - GET /tiles: the preview of the player's own set (302 to /tiles/<id>).
 * - GET /tiles/:id: the faces preview of a set, all 42 faces with their names, in the page's theme and
 *   language; an id that names no set is the 404 page.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendError } from '../../errors.ts';
import { TilesBodySchema } from '../../schemas/tiles.ts';
import { isTileSet } from '../../../shared/tilesets.ts';
import { backPath } from '../../view-models/theme.ts';
import { keepTileSet, previewFamilies, tileSetList, tileSetText } from '../../view-models/tiles.ts';

export default async function pagesTiles(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/tiles', { schema: { body: TilesBodySchema } }, async (request, reply) => {
    const { tiles, back } = request.body;
    keepTileSet(request, reply, isTileSet(tiles) ? tiles : undefined);
    return reply.redirect(backPath(back), 303);
  });

  // The preview of the player's own set: a link that stays right when the set is switched by script.
  app.get('/tiles', async (request, reply) => reply.redirect(`/tiles/${request.tiles}`, 302));

  app.get('/tiles/:id', async (request, reply) => {
    const { id } = request.params as { id: string };
    if (!isTileSet(id)) {
      const message = `there is no tile set called ${id.slice(0, 64)}`; // in English; other languages say tiles.unknown
      return sendError(request, reply, 'ERR_NOT_FOUND', message, undefined, 'tiles.unknown');
    }
    const { name, about } = tileSetText(request.i18n, id);
    return reply.page('tiles', {
      title: request.i18n.t('tiles.previewTitle', { name }),
      faces: true, // the page loads board.css, which paints faces
      set: { id, name, about },
      sets: tileSetList(request.i18n).map((s) => ({ ...s, url: `/tiles/${s.id}`, current: s.id === id })),
      families: previewFamilies(request.i18n),
    });
  });
}
