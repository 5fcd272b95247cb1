/**
 * Compression and caching headers : hashed build files are immutable for a
 * year and served from the .br/.gz files the client build writes; other static files for five
 * minutes; pages and player data never in a shared cache; stored deals (which never change) for a
 * day; everything worth it compressed.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import { PUBLIC_DIR } from '../../../src/server/plugins/assets.ts';
import { build, newPlayer } from '../helper.ts';

describe('compression', () => {
  test.each([
    ['br', brotliDecompressSync],
    ['gzip', gunzipSync],
  ] as const)('pages and the deal JSON in %s, the same bytes once decoded', async (encoding, decode) => {
    const app = await build({ now: () => Date.UTC(2026, 11, 1) }); // a frozen clock: the page's "time since you saw it" stays put
    const cookie = await newPlayer(app); // one player: the deal's record counts them once
    for (const url of ['/play/turtle/squeeze', '/', '/api/deals/turtle/squeeze']) {
      const plain = await app.inject({ url, headers: { cookie } });
      const packed = await app.inject({ url, headers: { cookie, 'accept-encoding': encoding } });
      expect(packed.headers['content-encoding'], url).toBe(encoding);
      expect(String(packed.headers.vary)).toMatch(/accept-encoding/i);
      expect(packed.rawPayload.length).toBeLessThan(plain.rawPayload.length / 2);
      expect(decode(packed.rawPayload).toString()).toBe(plain.body);
    }
  });

  test('small answers are sent as they are', async () => {
    const app = await build();
    const res = await app.inject({ url: '/healthz', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.headers['content-encoding']).toBeUndefined();
  });
});

describe('caching', () => {
  test('hashed build files: a year, immutable, pre-compressed by the build (no work per request)', async (context) => {
    const app = await build();
    if (!app.assets.built) return context.skip(); // no `npm run build` yet: no hashed files
    for (const name of [
      'app.js',
      'site.css',
      'board.css',
      'faces-classic-light.svg',
      'faces-large-dark.svg',
    ] as const) {
      const url = app.assets.url(name)!;
      const file = join(PUBLIC_DIR, url.slice('/static/'.length));
      for (const [encoding, suffix] of [
        ['br', '.br'],
        ['gzip', '.gz'],
      ] as const) {
        const res = await app.inject({ url, headers: { 'accept-encoding': encoding } });
        expect(res.statusCode).toBe(200);
        expect(res.headers['cache-control'], url).toBe('public, max-age=31536000, immutable');
        expect(res.headers['content-encoding']).toBe(encoding);
        expect(res.rawPayload.equals(readFileSync(file + suffix)), `${url} is the build's ${suffix}`).toBe(true);
      }
      const identity = await app.inject({ url });
      expect(identity.headers['content-encoding']).toBeUndefined();
      expect(identity.rawPayload.equals(readFileSync(file))).toBe(true);
    }
  });

  test('other static files: five minutes', async () => {
    const app = await build();
    for (const url of ['/static/css/site.css', '/static/faces.svg'])
      expect((await app.inject({ url })).headers['cache-control'], url).toBe('public, max-age=300');
  });

  test('pages, player data and errors: private, revalidated; health: never stored', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    for (const url of [
      '/',
      '/play/turtle/c1',
      '/daily',
      '/stats',
      '/api/stats',
      '/nothing',
      '/api/nothing',
      '/play/turtle/a%20b',
    ]) {
      const res = await app.inject({ url, headers: { cookie } });
      expect(res.headers['cache-control'], url).toBe('private, no-cache');
    }
    const created = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: 'garden', seed: 'c' },
    });
    expect(created.headers['cache-control']).toBe('private, no-cache');
    expect((await app.inject({ url: '/healthz' })).headers['cache-control']).toBe('no-store');
  });

  test('a stored deal never changes: public for a day; the layout list for five minutes; their errors are not kept', async () => {
    const app = await build();
    // Asked without a cookie, a new deal is not stored: kept five minutes, the board it will be stored with.
    expect((await app.inject({ url: '/api/deals/turtle/c1' })).headers['cache-control']).toBe('public, max-age=300');
    const cookie = await newPlayer(app);
    expect((await app.inject({ url: '/api/deals/turtle/c1', headers: { cookie } })).headers['cache-control']).toBe(
      'public, max-age=86400',
    );
    expect((await app.inject({ url: '/api/deals/turtle/c1' })).headers['cache-control']).toBe('public, max-age=86400');
    expect((await app.inject({ url: '/api/layouts' })).headers['cache-control']).toBe('public, max-age=300');
    expect((await app.inject({ url: '/api/deals/nosuch/c1' })).headers['cache-control']).toBe('private, no-cache');
  });
});
