/**
 * Server-rendered pages: @fastify/view with eta, templates in views/.
 *
 * `reply.page(template, data)` renders a page with what every page needs (asset
 * URLs, the active nav item). Eta escapes every `<%= %>`; only `<%~ %>` prints
 * raw, and we use it for other templates' output and for SVG we build from
 * numbers. Templates are compiled once and cached. `fastify.renderPartial`
 * renders one template to a string (with the same asset helpers), so a route
 * can cache markup that does not change, such as a fresh board. Every page gets the player's theme
 * (`theme`, views/theme.ts), tile set (`tileSet`, views/tiles.ts: `request.tiles`, read before the route's
 * schema so `?tiles=` works on every page) and the path its theme and tiles forms go back to (`back`: the
 * page's own address for a GET, else the home page); a caller of `renderPartial` passes them itself.
 */
import { fileURLToPath } from 'node:url';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { DEFAULT_TILE_SET, type TileSet } from '../../shared/tilesets.ts';
import { backPath, themeOf, THEME_COOKIE } from '../views/theme.ts';
import { tileSetList, tileSetOfRequest, TILES_TEXT } from '../views/tiles.ts';
import type { Assets } from './assets.ts';

declare module 'fastify' {
  interface FastifyReply {
    page(template: string, data?: PageData): FastifyReply;
  }
  interface FastifyInstance {
    renderPartial(template: string, data: object): string; // a template's HTML, e.g. to cache it
  }
  interface FastifyRequest {
    tiles: TileSet; // the tile set the page is drawn with (views/tiles.ts)
  }
}

export const NAV = ['play', 'daily', 'stats'] as const;
export type Nav = (typeof NAV)[number];

export interface PageData {
  title?: string; // shown before the site name in <title>
  nav?: Nav; // the active header link
  [key: string]: unknown;
}

export const VIEWS_DIR = fileURLToPath(new URL('../../../views/', import.meta.url));

async function viewPlugin(fastify: FastifyInstance): Promise<void> {
  const eta = new Eta({ views: VIEWS_DIR, cache: true, autoEscape: true, autoTrim: [false, 'nl'] });
  await fastify.register(fastifyView, { engine: { eta }, root: VIEWS_DIR, production: true });
  const assets: Assets = fastify.assets;
  const tileSets = tileSetList();
  // What every template may show of the tile sets (the picker): the list, and the texts (views/tiles.ts).
  const tilesView = { tileSets, tilesText: TILES_TEXT };
  fastify.decorate('renderPartial', (template: string, data: object) =>
    eta.render(template, { assets, ...tilesView, ...data }),
  );
  fastify.decorateRequest('tiles', DEFAULT_TILE_SET);
  fastify.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/static/') && !request.url.startsWith('/api/'))
      request.tiles = tileSetOfRequest(request, reply);
  });
  fastify.decorateReply('page', function (this: FastifyReply, template: string, data: PageData = {}) {
    const request = this.request;
    const theme = themeOf(request.cookies?.[THEME_COOKIE]); // no cookies yet on an error raised before the cookie hook
    const back = request.method === 'GET' ? backPath(request.url) : '/'; // a long address goes back home: the form takes 512 characters
    return this.view(template, {
      assets,
      ...tilesView,
      requestId: request.id,
      theme,
      tileSet: request.tiles,
      back,
      ...data,
    });
  });
}

export default fp(viewPlugin, { name: 'view', dependencies: ['assets'] });
