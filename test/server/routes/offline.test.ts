/**
 * Installable and offline, the server's side (src/server/routes/offline.ts): the service worker at the
 * root with its headers and the build's file list, the web app manifest linked from every page, the
 * offline page, and a CSP that lets the worker and manifest load.
 */
import { gunzipSync, inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { TILE_SETS } from '../../../src/shared/tilesets.ts';
import { faceSheetName } from '../../../src/server/plugins/assets.ts';
import { THEMES } from '../../../src/server/view-models/theme.ts';
import { build } from '../helper.ts';

describe('service worker, manifest and the offline page', () => {
  test("/sw.js is a no-cache script at the root that keeps this build's pages and hashed assets", async (context) => {
    const app = await build();
    if (!app.assets.built) return context.skip(); // no `npm run build`: no service worker
    const res = await app.inject({ method: 'GET', url: '/sw.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.headers['service-worker-allowed']).toBe('/');
    const first = res.body.slice(0, res.body.indexOf('\n'));
    const build_ = JSON.parse(first.replace(/^const BUILD = /, '').replace(/;$/, '')) as {
      version: string;
      precache: string[];
    };
    expect(build_.version).toBe(app.assets.version);
    expect(build_.version).toMatch(/^[0-9a-f]{12}$/);
    for (const name of [
      'app.js',
      'worker.js',
      'site.js',
      'theme.js', // every page's theme switch: kept for offline pages too
      'site.css',
      'board.css',
      // the face sheets of every tile set and theme (scripts/face-sheets.ts): a set switched offline still draws
      ...TILE_SETS.flatMap((set) => THEMES.map((theme) => faceSheetName(set, theme))),
      'icon.svg',
      'icon-192.png',
      'icon-512.png',
    ] as const)
      expect(build_.precache).toContain(app.assets.url(name));
    expect(build_.precache).toEqual(expect.arrayContaining(['/', '/offline', '/manifest.webmanifest']));
    // Every file it keeps is there to fetch.
    for (const path of build_.precache)
      expect((await app.inject({ method: 'GET', url: path })).statusCode, path).toBe(200);
    expect(res.body).toContain('mahjong-'); // the cache name prefix whose older versions it deletes
  });

  test('the manifest names the app, its colours and icons we serve (SVG and PNG)', async (context) => {
    const app = await build();
    if (!app.assets.built) return context.skip(); // the icons are drawn by the build
    const res = await app.inject({ method: 'GET', url: '/manifest.webmanifest' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/manifest+json; charset=utf-8');
    const manifest = res.json() as {
      name: string;
      start_url: string;
      display: string;
      theme_color: string;
      background_color: string;
      icons: { src: string; type: string; sizes: string; purpose?: string }[];
    };
    expect(manifest).toMatchObject({
      name: 'Mahjong solitaire',
      start_url: '/',
      display: 'standalone',
      theme_color: '#2f6f5e',
      background_color: '#f4ede0',
    });
    expect(manifest.icons.map((i) => [i.type, i.sizes, i.purpose ?? 'any'])).toEqual([
      ['image/svg+xml', 'any', 'any'],
      ['image/png', '192x192', 'any'],
      ['image/png', '512x512', 'any'],
      ['image/png', '512x512', 'maskable'], // full bleed: Android crops it to its own shape
    ]);
    // Small as it is, it is sent compressed to a browser that asks.
    const gzipped = await app.inject({
      method: 'GET',
      url: '/manifest.webmanifest',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(gzipped.rawPayload).toString())).toEqual(manifest);
    // The maskable icon fills its square (its corner pixel opaque); the others have rounded corners.
    const cornerAlpha = async (src: string): Promise<number> => {
      const png = (await app.inject({ method: 'GET', url: src })).rawPayload;
      const idat = png.indexOf('IDAT');
      const rows = inflateSync(png.subarray(idat + 4, idat + 4 + png.readUInt32BE(idat - 4)));
      return rows[4]!; // the first row's filter byte, then the first pixel's R, G, B, A
    };
    expect(await cornerAlpha(manifest.icons.find((i) => i.purpose === 'maskable')!.src)).toBe(255);
    expect(await cornerAlpha(manifest.icons.find((i) => i.sizes === '512x512' && !i.purpose)!.src)).toBe(0);
    for (const { src, type, sizes } of manifest.icons) {
      const icon = await app.inject({ method: 'GET', url: src });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toContain(type);
      if (type !== 'image/png') continue;
      const png = icon.rawPayload;
      expect(png.subarray(1, 4).toString()).toBe('PNG');
      expect(`${png.readUInt32BE(16)}x${png.readUInt32BE(20)}`).toBe(sizes); // IHDR width and height
    }
  });

  test('every page links the manifest; pages without a board load the site script', async () => {
    const app = await build();
    for (const url of ['/', '/stats', '/daily', '/play/garden/m1', '/offline']) {
      const res = await app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).toContain('<link rel="manifest" href="/manifest.webmanifest">');
      expect(res.body, url).toContain('<meta name="theme-color" content="#2f6f5e">');
      if (app.assets.built && !url.startsWith('/play') && url !== '/offline')
        expect(res.body, url).toContain(app.assets.url('site.js'));
    }
  });

  test('the CSP lets our own service worker and manifest load', async () => {
    const app = await build();
    const csp = (await app.inject({ method: 'GET', url: '/' })).headers['content-security-policy'] as string;
    expect(csp).toContain("worker-src 'self'");
    expect(csp).toContain("manifest-src 'self'");
    expect(csp).toContain("script-src 'self'"); // still no inline script
  });

  test('the offline page is the play page with no deal, for the script to deal the link it is shown at', async () => {
    const app = await build();
    const res = await app.inject({ method: 'GET', url: '/offline' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<script type="application/json" id="deal-data">{"deal":null,"game":null}</script>');
    expect(res.body).toContain('id="board"');
    expect(res.body).not.toContain('class="tile"');
    expect(res.body).toContain('You are offline');
    expect((await app.inject({ method: 'GET', url: '/offline' })).body).toBe(res.body); // the same page for everyone
  });

  test('the stats page carries the layout names for its list of games waiting in this browser', async () => {
    const app = await build();
    const res = await app.inject({ method: 'GET', url: '/stats' });
    expect(res.body).toContain('id="waiting"');
    expect(res.body).toContain('data-layouts="{&quot;turtle&quot;:&quot;Turtle&quot;');
  });
});
