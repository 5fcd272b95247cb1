/**
 * Server-rendered pages: @fastify/view with eta, templates in views/.
 *
 * `reply.page(template, data)` renders a page with what every page needs (asset
 * URLs, the active nav item). Eta escapes every `<%= %>`; only `<%~ %>` prints
 * raw, and we use it for other templates' output and for SVG we build from
 * numbers. Templates are compiled once and cached. `fastify.renderPartial`
 * renders one template to a string (with the same asset helpers), so a route
 * can cache markup that does not change, such as a fresh board. Every page gets the player's theme
 * (`theme`, view-models/theme.ts), tile set (`tileSet`: `request.tiles`, plugins/tiles.ts) and the path its theme
 * and tiles forms go back to (`back`: the page's own address for a GET, else the home page); a caller of
 * `renderPartial` passes them itself, as it does the `head` links (view-models/head.ts) every page that is there gets. Every template renders in
 * one language: the request's for a page, the caller's `i18n` for a partial (docs/i18n.md).
 */
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
    renderPartial(template: string, data: PartialData): string; // a template's HTML, e.g. to cache it
  }
}

export const NAV = ['play', 'daily', 'stats'] as const;
export type Nav = (typeof NAV)[number];

export interface PageData {
  title?: string; // shown before the site name in <title>
  nav?: Nav; // the active header link
  [key: string]: unknown;
}

/** What `renderPartial` needs besides the template's own data: the language to render in. */
export interface PartialData {
  i18n: Translator;
  [key: string]: unknown;
}

/** The language picker's options (every page's footer, and the play page's menu): each in its own name. */
const LANG_OPTIONS = LANGS.map((lang) => ({ lang, name: LANG_NAMES[lang] }));

/** The tile-set picker's options (views/partials/tiles.eta): each set's id and its name's message key. */
const TILE_SET_OPTIONS = TILE_SETS.map((id) => ({ id, key: TILE_SET_NAME_KEYS[id] }));

/**
 * What every template gets for its language: `i18n` (the translator), `t` (text) and `th` (HTML) bound
 * to it, and the picker's options. Templates call `it.t('key', { … })`; partials are passed `t` too.
 */
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
    const theme = themeOf(request.cookies?.[THEME_COOKIE]); // no cookies yet on an error raised before the cookie hook
    const get = request.method === 'GET' || request.method === 'HEAD';
    const back = get ? backPath(withoutHl(request.url)) : '/'; // a long address goes back home: the form takes 512 characters
    // The canonical address and the language alternates (view-models/head.ts): a page that is there, not an error's.
    const head =
      get && this.statusCode < 400 ? headLinks(fastify.publicOrigin, pagePath(request), request.hl) : undefined;
    // The language: the request's (plugins/i18n.ts); an error raised before that plugin's hooks still has it.
    const page = { assets, requestId: request.id, theme, tileSet: request.tiles, back, head };
    return this.view(template, { ...page, ...languageData(request.i18n), ...data });
  });
}

export default fp(viewPlugin, { name: 'view', dependencies: ['assets'] });
