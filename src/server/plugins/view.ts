/** Server-rendered pages with eta: `reply.page` and `renderPartial` (docs/http.md, "Pages"). */
import { fileURLToPath } from 'node:url';
import fastifyView from '@fastify/view';
import { Eta } from 'eta';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { LANG_NAMES, LANGS } from '../../shared/i18n.ts';
import type { Translator } from '../services/i18n.ts';
import { TILE_SETS } from '../../shared/tilesets.ts';
import { headLinks, pagePath, withoutHl } from '../view-models/head.ts';
import { backPath, themeOf, THEME_COOKIE } from '../view-models/theme.ts';
import { TILE_SET_NAME_KEYS } from '../view-models/tiles.ts';
import type { Assets } from './assets.ts';

declare module 'fastify' {
  interface FastifyReply {
    page(template: string, data?: PageData): FastifyReply;
  }
  interface FastifyInstance {
    renderPartial(template: string, data: PartialData): string;
  }
}

export const NAV = ['play', 'daily', 'stats'] as const;
export type Nav = (typeof NAV)[number];

export interface PageData {
  title?: string;
  nav?: Nav;
  [key: string]: unknown;
}

export interface PartialData {
  i18n: Translator;
  [key: string]: unknown;
}

const LANG_OPTIONS = LANGS.map((lang) => ({ lang, name: LANG_NAMES[lang] }));

const TILE_SET_OPTIONS = TILE_SETS.map((id) => ({ id, key: TILE_SET_NAME_KEYS[id] }));

/** A template's translator, `t`, `th` and picker options. */
export const languageData = (i18n: Translator) => ({
  i18n,
  t: i18n.t,
  th: i18n.th,
  langs: LANG_OPTIONS,
  tileSets: TILE_SET_OPTIONS,
});

export const VIEWS_DIR = fileURLToPath(new URL('../../../views/', import.meta.url));

async function viewPlugin(fastify: FastifyInstance): Promise<void> {
  const eta = new Eta({ views: VIEWS_DIR, cache: true, autoEscape: true, autoTrim: [false, 'nl'] });
  await fastify.register(fastifyView, { engine: { eta }, root: VIEWS_DIR, production: true });
  const assets: Assets = fastify.assets;
  fastify.decorate('renderPartial', (template: string, data: PartialData) =>
    eta.render(template, { assets, ...languageData(data.i18n), ...data }),
  );
  fastify.decorateReply('page', function (this: FastifyReply, template: string, data: PageData = {}) {
    const request = this.request;
    const theme = themeOf(request.cookies?.[THEME_COOKIE]); // none on an early error
    const get = request.method === 'GET' || request.method === 'HEAD';
    const back = get ? backPath(withoutHl(request.url)) : '/'; // the form takes 512 characters
    const head =
      get && this.statusCode < 400 ? headLinks(fastify.publicOrigin, pagePath(request), request.hl) : undefined;
    const page = { assets, requestId: request.id, theme, tileSet: request.tiles, back, head };
    return this.view(template, { ...page, ...languageData(request.i18n), ...data });
  });
}

export default fp(viewPlugin, { name: 'view', dependencies: ['assets'] });
