/**
 * Installable and offline (docs/contracts.md, "Offline and installable"; the service worker is src/client/sw.ts):
 * - GET /sw.js: the service worker, at the root so its scope is every page. The build's bundle with
 *   `BUILD` written in front: the build's version (a hash of its manifest of hashed names) and the files
 *   it keeps. A new deployment is a new /sw.js, so browsers install it and drop the old cache. Never
 *   cached long (`no-cache`: browsers also check it themselves at least daily).
 * - GET /manifest.webmanifest: the web app manifest (name, icons, colours), linked from every page.
 * - GET /offline: the play page with no deal, which the service worker keeps and shows for a deal link
 *   without a network; the page's script deals the link in the browser (src/client/shell.ts).
 */
import { readFileSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { newDealUrl } from '../../shared/display.ts';
import { sendError } from '../errors.ts';
import { ASSET_NAMES, type AssetName } from '../plugins/assets.ts';
import { perLang, sendInLang } from '../plugins/i18n.ts';
import { DEFAULT_TILE_SET } from '../../shared/tilesets.ts';
import type { Translator } from '../services/i18n.ts';
import { themeOf } from '../view-models/theme.ts';

export const THEME_COLOR = '#2f6f5e'; // the site's accent (public/css/site.css --accent)
export const BACKGROUND_COLOR = '#f4ede0'; // the page's background (--bg)
/**
 * Assets the service worker keeps at install, besides the pages below: every file of the build but the
 * service worker's own script (so a new build's asset, such as the theme script, is kept without a second list).
 */
// A replay needs the server (its log is there), so its script is not kept for offline use.
export const KEPT_ASSETS: readonly AssetName[] = ASSET_NAMES.filter((name) => name !== 'sw.js' && name !== 'replay.js');
export const KEPT_PAGES = ['/', '/offline', '/manifest.webmanifest'] as const;

const EMPTY_BOARD = {
  status: 'playing',
  width: 0,
  height: 0,
  depth: 0,
  box: { ox: 0, oy: 0, bw: 1, bh: 1 }, // the script sets the dealt board's own (render.ts makeDom)
  left: 0,
  pairs: 0,
  tiles: [],
  ghosts: [],
};

export default async function offline(fastify: FastifyInstance): Promise<void> {
  const { assets } = fastify;
  const swFile = assets.file('sw.js');
  const precache = [...KEPT_PAGES, ...KEPT_ASSETS.map((name) => assets.url(name)).filter((url) => url !== undefined)];
  const sw = swFile
    ? `const BUILD = ${JSON.stringify({ version: assets.version, precache })};\n${readFileSync(swFile, 'utf8')}`
    : undefined;

  fastify.get('/sw.js', async (request, reply) => {
    if (!sw)
      return sendError(request, reply, 'ERR_NOT_FOUND', 'no service worker: the client was not built (npm run build)');
    return reply
      .type('text/javascript; charset=utf-8')
      .header('cache-control', 'no-cache')
      .header('service-worker-allowed', '/')
      .send(sw);
  });

  const icons = [
    { src: assets.url('icon.svg'), sizes: 'any', type: 'image/svg+xml' },
    { src: assets.url('icon-192.png'), sizes: '192x192', type: 'image/png' },
    { src: assets.url('icon-512.png'), sizes: '512x512', type: 'image/png' },
    { src: assets.url('icon-maskable-512.png'), sizes: '512x512', type: 'image/png', purpose: 'maskable' },
  ].filter((icon) => icon.src !== undefined);
  // In the player's language (the manifest's own `lang` and `dir` say which): an installed app keeps the
  // name it was installed with.
  const manifestOf = (i18n: Translator): string =>
    JSON.stringify({
      id: '/',
      name: i18n.t('site.name'),
      short_name: i18n.t('manifest.shortName'),
      description: i18n.t('manifest.description'),
      lang: i18n.lang,
      dir: i18n.dir,
      start_url: '/',
      scope: '/',
      display: 'standalone',
      orientation: 'any',
      background_color: BACKGROUND_COLOR,
      theme_color: THEME_COLOR,
      icons,
    });
  const manifests = perLang(manifestOf);
  // Compressed although small (the app's threshold is 1 KB): installers fetch it on every visit.
  fastify.get('/manifest.webmanifest', { compress: { threshold: 0 } }, async (request, reply) =>
    sendInLang(reply, 'application/manifest+json; charset=utf-8', 'no-cache', manifests(request.i18n)),
  );

  // The same for everyone of a language: rendered once per language.
  const pages = perLang((i18n) => renderOffline(i18n));
  fastify.get('/offline', async (request, reply) =>
    reply.type('text/html; charset=utf-8').header('x-robots-tag', 'noindex').send(pages(request.i18n)),
  );

  const renderOffline = (i18n: Translator): string =>
    fastify.renderPartial('play', {
      i18n,
      title: i18n.t('play.offlineTitle'),
      nav: 'play',
      offline: true,
      layout: { id: '', name: i18n.t('site.name') },
      seed: '',
      mode: 'relaxed',
      daily: false,
      counters: { left: 0, pairs: 0 },
      boardHtml: fastify.renderPartial('/partials/board', {
        i18n,
        board: EMPTY_BOARD,
        layout: { id: '' },
        seed: '',
        mode: 'relaxed',
      }),
      game: { hints: 0, shuffles: 0, time: '0:00', playMs: 0 },
      resumed: false,
      dealData: '{"deal":null,"game":null}',
      theme: themeOf(undefined), // the shell's theme script applies the player's, as on every page
      tileSet: DEFAULT_TILE_SET, // and the theme script the player's tile set (src/client/theme.ts)
      back: '/',
      sharePath: '/',
      shareUrl: '',
      otherMode: { mode: 'classic', url: newDealUrl('turtle', 'classic') },
      newUrl: newDealUrl('turtle', 'relaxed'),
      prefs: { timer: 'on', highlight: 'on', paused: false },
    });
}
