/**
 * Tile sets on the server (docs/client.md, "Faces"; docs/server.md, "Tile sets"): `<html data-tiles>` from the
 * `tiles` cookie (which `?tiles=` on any page sets), else the default; a value that names no set, in the cookie, the
 * query or the form, is the default with no error; the picker on every page; POST /tiles; GET
 * /api/tilesets; the faces preview pages; all of it in the player's language; the cached play page kept per set.
 */
import { describe, expect, test } from 'vitest';
import { FACES } from '../../../src/engine/types.ts';
import { TileSetListSchema } from '../../../src/server/schemas/tiles.ts';
import { DEFAULT_TILE_SET, TILE_SETS } from '../../../src/shared/tilesets.ts';
import { build, newPlayer } from '../helper.ts';

const tilesOf = (body: string): string | undefined => /<html[^>]* data-tiles="([^"]*)"/.exec(body)?.[1];
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const PAGES = [
  '/',
  '/stats',
  '/daily',
  '/play/turtle/tiles-seed',
  '/layouts/editor',
  '/tiles/classic',
  '/no/such/page',
];
/** Values that name no set: [what it is, the value as sent in a cookie or a query]. */
const BAD: [string, string][] = [
  ['upper case', 'CLASSIC'],
  ['a trailing space', 'classic%20'],
  ['empty', ''],
  ['markup', '%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
  ['__proto__', '__proto__'],
  ['constructor', 'constructor'],
  ['5,000 characters', 'x'.repeat(5000)],
  ['a NUL', '%00'],
];

describe('the tile set', () => {
  test('the default set is classic, and the list is classic, traditional, large print', () => {
    expect(DEFAULT_TILE_SET).toBe('classic');
    expect(TILE_SETS).toEqual(['classic', 'traditional', 'large']);
  });

  test.each([undefined, ...TILE_SETS])('cookie tiles=%s renders <html data-tiles> on every page', async (set) => {
    const app = await build();
    for (const url of PAGES) {
      const res = await app.inject({ url, headers: set ? { cookie: `tiles=${set}` } : {} });
      expect(tilesOf(res.body), url).toBe(set ?? 'classic');
    }
  });

  test.each(BAD)('a cookie that names no set (%s) is the default set, no error', async (_what, bad) => {
    const app = await build();
    for (const url of PAGES) {
      const res = await app.inject({ url, headers: { cookie: `tiles=${bad}` } });
      expect(res.statusCode, url).toBeLessThan(500);
      if (url !== '/no/such/page') expect(res.statusCode, url).toBe(200);
      expect(tilesOf(res.body), url).toBe('classic');
    }
  });

  test('?tiles= on any page keeps the set in the cookie and goes to the same address without it', async () => {
    const app = await build();
    for (const [url, back] of [
      ['/?tiles=traditional', '/'],
      ['/stats?tiles=traditional&page=2', '/stats?page=2'],
      ['/play/turtle/tiles-seed?tiles=traditional', '/play/turtle/tiles-seed'],
      ['/play/turtle/tiles-seed?mode=classic&tiles=traditional', '/play/turtle/tiles-seed?mode=classic'],
      ['/tiles/large?tiles=traditional', '/tiles/large'],
    ]) {
      const res = await app.inject({ url: url! });
      expect(res.statusCode, url).toBe(303);
      expect(res.headers.location, url).toBe(back);
      const kept = res.cookies.find((c) => c.name === 'tiles')!;
      expect(kept, url).toMatchObject({ value: 'traditional', path: '/', sameSite: 'Lax' });
      expect(kept.maxAge).toBeGreaterThan(300 * 24 * 3600);
      expect(kept.httpOnly).toBeFalsy(); // the theme script sets the same cookie
      const page = await app.inject({ url: back!, headers: { cookie: `tiles=${kept.value}` } });
      expect(tilesOf(page.body), back).toBe('traditional');
    }
    // with the language's query too: one address at a time, each kept, none left in the address
    const both = await app.inject({ url: '/daily?lang=de&tiles=large' });
    expect(both.statusCode).toBe(303);
    const next = await app.inject({ url: both.headers.location as string });
    expect(next.statusCode).toBe(303);
    expect(next.headers.location).toBe('/daily');
    expect(next.cookies.find((c) => c.name === 'tiles')?.value).toBe('large');
  });

  test.each([...BAD, ['two sets', 'large&tiles=traditional']])(
    'a query that names no set (%s) is dropped: no cookie, the cookie set or else the default, no error',
    async (_what, bad) => {
      const app = await build();
      for (const url of ['/', '/play/turtle/tiles-seed', '/stats']) {
        const alone = await app.inject({ url: `${url}?tiles=${bad}` });
        expect(alone.statusCode, url).toBe(303);
        expect(alone.headers.location, url).toBe(url);
        expect(alone.cookies.find((c) => c.name === 'tiles')).toBeUndefined();
        const page = await app.inject({ url, headers: { cookie: 'tiles=large' } });
        expect(page.statusCode, url).toBe(200);
        expect(tilesOf(page.body), url).toBe('large');
      }
    },
  );

  test('the API never keeps a set from its query', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/layouts?tiles=large' });
    expect(res.statusCode).toBe(200);
    expect(res.cookies.find((c) => c.name === 'tiles')).toBeUndefined();
  });

  test('every page has the picker, with the current set selected and the way back', async () => {
    const app = await build();
    for (const [url, back] of [
      ['/', '/'],
      ['/stats?page=1', '/stats?page=1'],
      ['/daily', '/daily'],
      ['/play/turtle/x?mode=classic', '/play/turtle/x?mode=classic'],
      ['/tiles/large', '/tiles/large'],
      ['/nowhere', '/nowhere'],
    ]) {
      const body = (await app.inject({ url: url!, headers: { cookie: 'tiles=traditional' } })).body;
      const picker = /<form class="tiles-form"[\s\S]*?<\/form>/.exec(body)?.[0];
      expect(picker, url).toBeDefined();
      expect(picker).toContain('method="post" action="/tiles"');
      expect(picker).toContain(`<input type="hidden" name="back" value="${back}">`);
      expect(picker).toContain('<label class="visually-hidden" for="tiles-choice">Tiles</label>');
      expect(picker).toMatch(/<option value="traditional" selected>Traditional<\/option>/);
      expect(picker).toContain('<option value="classic">Classic</option>');
      expect(picker).toContain('<option value="large">Large print</option>');
      expect(picker!.match(/ selected>/g), url).toHaveLength(1);
      expect(body.match(/<form class="tiles-form"/g), url).toHaveLength(1); // one picker (one id) a page
    }
  });

  test('POST /tiles keeps the set and goes back; a value that names no set clears it (the default)', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const set = await app.inject({
      method: 'POST',
      url: '/tiles',
      headers: { cookie, ...form },
      payload: 'tiles=large&back=%2Fstats%3Fpage%3D2',
    });
    expect(set.statusCode).toBe(303);
    expect(set.headers.location).toBe('/stats?page=2');
    const made = set.cookies.find((c) => c.name === 'tiles')!;
    expect(made).toMatchObject({ value: 'large', path: '/', sameSite: 'Lax' });
    expect(made.maxAge).toBeGreaterThan(300 * 24 * 3600);
    const page = await app.inject({ url: '/stats', headers: { cookie: `${cookie}; tiles=${made.value}` } });
    expect(tilesOf(page.body)).toBe('large');

    for (const payload of [
      'tiles=purple&back=%2F',
      'back=%2F',
      'tiles=&back=%2F',
      `tiles=${'x'.repeat(600)}&back=%2F`,
      'tiles=large&tiles=traditional&back=%2F',
      'tiles[a]=1&back=%2F',
    ]) {
      const res = await app.inject({
        method: 'POST',
        url: '/tiles',
        headers: { cookie: `${cookie}; tiles=large`, ...form },
        payload,
      });
      expect(res.statusCode, payload).toBe(303);
      expect(res.headers.location, payload).toBe('/');
      const cleared = res.cookies.find((c) => c.name === 'tiles')!;
      expect(cleared.value, payload).toBe('');
      expect(cleared.expires!.getTime(), payload).toBeLessThan(Date.now());
    }
  });

  test.each(['//evil.test/x', '/\\evil.test', 'https://evil.test/', '', '/ok\r\nSet-Cookie: x=1'])(
    'POST /tiles never goes back off the site (back=%j)',
    async (back) => {
      const app = await build();
      const cookie = await newPlayer(app);
      const res = await app.inject({
        method: 'POST',
        url: '/tiles',
        headers: { cookie, ...form },
        payload: `tiles=traditional&back=${encodeURIComponent(back)}`,
      });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/');
    },
  );

  test('POST /tiles: a too long way back is a 400 page that says why; JSON is refused', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const long = await app.inject({
      method: 'POST',
      url: '/tiles',
      headers: { cookie, ...form },
      payload: `tiles=large&back=${'a'.repeat(600)}`,
    });
    expect(long.statusCode).toBe(400);
    expect(long.body).toMatch(/back is a path of at most 512 characters/i);
    expect(long.cookies.find((c) => c.name === 'tiles')).toBeUndefined();
    const json = await app.inject({
      method: 'POST',
      url: '/tiles',
      headers: { cookie, 'content-type': 'application/json' },
      payload: '{"tiles":"large"}',
    });
    expect(json.statusCode).toBeLessThan(500);
  });

  test('a cross-site form, or one without the player cookie, is refused and sets nothing', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const foreign = await app.inject({
      method: 'POST',
      url: '/tiles',
      headers: { cookie, origin: 'http://evil.test', 'sec-fetch-site': 'cross-site', ...form },
      payload: 'tiles=large',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const stranger = await app.inject({ method: 'POST', url: '/tiles', headers: form, payload: 'tiles=large' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.headers['set-cookie']).toBeUndefined();
  });

  test('GET /api/tilesets lists every set with its name, by its schema, with no player cookie', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/tilesets' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual([
      { id: 'classic', name: 'Classic' },
      { id: 'traditional', name: 'Traditional' },
      { id: 'large', name: 'Large print' },
    ]);
    expect(TileSetListSchema.safeParse(res.json()).success).toBe(true);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(res.headers.vary).toMatch(/Accept-Language/);
    // the names in the asker's language (the cookie, else Accept-Language), the ids the same
    const de = await app.inject({ url: '/api/tilesets', headers: { 'accept-language': 'de-AT, en;q=0.5' } });
    expect(de.headers['content-language']).toBe('de');
    expect(de.json()).toEqual([
      { id: 'classic', name: 'Klassisch' },
      { id: 'traditional', name: 'Traditionell' },
      { id: 'large', name: 'Großdruck' },
    ]);
    const ja = await app.inject({ url: '/api/tilesets', headers: { cookie: 'lang=ja' } });
    expect((ja.json() as { id: string }[]).map((s) => s.id)).toEqual(['classic', 'traditional', 'large']);
    expect(ja.headers['content-language']).toBe('ja');
    expect((await app.inject({ method: 'POST', url: '/api/tilesets' })).statusCode).toBe(404);
  });

  test.each(TILE_SETS)('GET /tiles/%s shows the 42 faces of the set with their names', async (set) => {
    const app = await build();
    const res = await app.inject({ url: `/tiles/${set}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const chart = /<div class="face-chart" data-tiles="([a-z]+)">([\s\S]*?)<\/div>\s*<\/section>\s*$/m.exec(res.body);
    expect(chart?.[1]).toBe(set);
    const named = [
      ...res.body.matchAll(
        /<li><span class="tile face-tile" data-face="([a-z0-9]+)"[^>]*><\/span><span class="face-name">([^<]+)<\/span><\/li>/g,
      ),
    ];
    expect(named.map((m) => m[1])).toEqual([...FACES]);
    expect(named.find((m) => m[1] === 'b3')?.[2]).toBe('Bamboo 3');
    expect(named.find((m) => m[1] === 'f1')?.[2]).toBe('Flower (plum)');
    expect(res.body).toContain('<link rel="stylesheet" href="'); // board.css, which paints faces
    // the player's own set, or a button to make it theirs
    const mine = (await app.inject({ url: `/tiles/${set}`, headers: { cookie: `tiles=${set}` } })).body;
    expect(mine).toContain(`<div class="tiles-use" data-set="${set}" data-in-use>`);
    const other = TILE_SETS.find((s) => s !== set)!;
    const theirs = (await app.inject({ url: `/tiles/${set}`, headers: { cookie: `tiles=${other}` } })).body;
    expect(theirs).toContain(`<div class="tiles-use" data-set="${set}">`);
    expect(theirs).toContain(`<input type="hidden" name="tiles" value="${set}">`);
    expect(tilesOf(theirs)).toBe(other); // the page is the player's; only the chart shows the previewed set
  });

  test.each(['nope', 'CLASSIC', '%3Cscript%3E', '..%2F..%2Fetc', 'x'.repeat(90)])(
    'GET /tiles/%s is the 404 page',
    async (id) => {
      const app = await build();
      const res = await app.inject({ url: `/tiles/${id}` });
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toMatch(/there is no tile set called/i);
      expect(res.body).not.toContain('<script>');
    },
  );

  test("the picker, the preview page and its 404 speak the player's language", async () => {
    const app = await build();
    const de = { cookie: 'lang=de; tiles=large' };
    const home = (await app.inject({ url: '/', headers: de })).body;
    const picker = /<form class="tiles-form"[\s\S]*?<\/form>/.exec(home)![0];
    expect(picker).toContain('<label class="visually-hidden" for="tiles-choice">Steine</label>');
    expect(picker).toContain('title="Steinsatz"');
    expect(picker).toMatch(/<option value="large" selected>Großdruck<\/option>/);
    expect(picker).toContain('<option value="traditional">Traditionell</option>');
    expect(home).toContain('<a href="/tiles">Alle Steinbilder ansehen</a>');

    const page = await app.inject({ url: '/tiles/traditional', headers: de });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<html lang="de" dir="ltr"');
    expect(page.body).toContain('<title>Steine: Traditionell');
    expect(page.body).toContain('<h1 id="tiles-title">Steine: Traditionell</h1>');
    expect(page.body).toContain('>Diesen Satz verwenden</button>');
    expect(page.body).toMatch(/<h2[^>]*>Jahreszeiten<\/h2>/);
    expect(page.body).toContain('<span class="face-name">Bambus 3</span>');
    expect(page.body).toContain('<span class="face-name">Blume (Pflaume)</span>');
    expect(page.body).not.toContain('Bamboo 3');

    const ar = await app.inject({ url: '/tiles/large', headers: { 'accept-language': 'ar' } });
    expect(ar.body).toContain('<html lang="ar" dir="rtl"');
    expect(ar.body).toContain('<h1 id="tiles-title">الأحجار: خط كبير</h1>');

    const missing = await app.inject({ url: '/tiles/nope', headers: { cookie: 'lang=ja' } });
    expect(missing.statusCode).toBe(404);
    expect(missing.body).toContain('その名前の牌のデザインはありません。');
    expect(missing.body).not.toMatch(/there is no tile set/i);
  });

  test("GET /tiles goes to the preview of the player's own set", async () => {
    const app = await build();
    expect((await app.inject({ url: '/tiles' })).headers.location).toBe('/tiles/classic');
    const res = await app.inject({ url: '/tiles', headers: { cookie: 'tiles=large' } });
    expect(res.statusCode).toBe(302);
    expect(res.headers.location).toBe('/tiles/large');
    expect((await app.inject({ url: '/tiles', headers: { cookie: 'tiles=bad' } })).headers.location).toBe(
      '/tiles/classic',
    );
  });

  test('the cached play page is kept per tile set', async () => {
    const app = await build();
    const url = '/play/turtle/cached-tiles';
    for (const set of [undefined, 'large', undefined, 'traditional', 'large', 'classic', 'nonsense', undefined]) {
      const body = (await app.inject({ url, headers: set ? { cookie: `tiles=${set}` } : {} })).body;
      const want = set === 'large' || set === 'traditional' || set === 'classic' ? set : 'classic';
      expect(tilesOf(body), String(set)).toBe(want);
      expect(body).toContain(`<option value="${want}" selected>`);
    }
  });
});
