/**
 * Finding the site (docs/contracts.md, "Finding the site and link previews"): /robots.txt names the sitemap,
 * /sitemap.xml lists the home page, a deal of each built-in layout, the dailies of the last year and the tile
 * sets, /favicon.ico is an image; every page has rel=canonical and hreflang alternates for the 20 languages and
 * x-default, at addresses that serve that language (`?hl=xx`), absolute from PUBLIC_ORIGIN.
 */
import { describe, expect, test } from 'vitest';
import { LAYOUTS } from '../../../src/engine/index.ts';
import { LANGS } from '../../../src/shared/i18n.ts';
import { build } from '../helper.ts';

const ORIGIN = 'http://mahjong.example';
const DAY = 86_400_000;

/** The page's canonical and its alternates, hreflang → href. */
function headLinks(html: string): { canonical: string | undefined; alternates: Map<string, string> } {
  const canonical = /<link rel="canonical" href="([^"]*)">/.exec(html)?.[1]?.replace(/&amp;/g, '&');
  const alternates = new Map<string, string>();
  for (const m of html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]*)">/g))
    alternates.set(m[1]!, m[2]!.replace(/&amp;/g, '&'));
  return { canonical, alternates };
}

describe('robots, sitemap, favicon', () => {
  test('/robots.txt names the sitemap; /sitemap.xml is a well-formed sitemap of the pages', async () => {
    const now = Date.parse('2027-12-31T12:00:00Z');
    const app = await build({ publicOrigin: ORIGIN, now: () => now });
    const robots = await app.inject({ url: '/robots.txt' });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(robots.body).toMatch(/^User-agent: \*$/m);
    expect(robots.body).toMatch(/^Disallow: \/api\/$/m);
    expect(robots.body).toContain(`\nSitemap: ${ORIGIN}/sitemap.xml\n`);
    expect(robots.headers['set-cookie']).toBeUndefined(); // a crawler is not a player

    const sitemap = await app.inject({ url: '/sitemap.xml' });
    expect(sitemap.statusCode).toBe(200);
    expect(sitemap.headers['content-type']).toBe('application/xml; charset=utf-8');
    const xml = sitemap.body;
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
      ),
    ).toBe(true);
    expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
    // The schema's shape: only <url><loc>absolute URL</loc></url> children, at most 50,000 and 50 MB.
    const body = xml.slice(xml.indexOf('<urlset'), xml.lastIndexOf('</urlset>'));
    const urls = [...body.matchAll(/<url><loc>([^<]+)<\/loc><\/url>/g)].map((m) => m[1]!);
    expect(
      body
        .replace(/<urlset[^>]*>/, '')
        .replace(/<url><loc>[^<]+<\/loc><\/url>/g, '')
        .trim(),
    ).toBe('');
    expect(urls.length).toBeLessThanOrEqual(50_000);
    expect(Buffer.byteLength(xml)).toBeLessThan(100_000);
    for (const url of urls) expect(url, url).toMatch(/^http:\/\/mahjong\.example\/[A-Za-z0-9/_.-]*$/);
    expect(new Set(urls).size).toBe(urls.length);
    expect(urls).toContain(`${ORIGIN}/`);
    expect(urls).toContain(`${ORIGIN}/daily`);
    for (const layout of LAYOUTS) expect(urls).toContain(`${ORIGIN}/play/${layout.id}/1`);
    for (const set of ['classic', 'traditional', 'large']) expect(urls).toContain(`${ORIGIN}/tiles/${set}`);
    const dailies = urls.filter((u) => /\/daily\/\d{4}-\d{2}-\d{2}$/.test(u));
    expect(dailies).toHaveLength(366); // the last year, today's included
    expect(dailies[0]).toBe(`${ORIGIN}/daily/2027-12-31`);
    expect(dailies.at(-1)).toBe(`${ORIGIN}/daily/${new Date(now - 365 * DAY).toISOString().slice(0, 10)}`);
    // Every URL listed is a page that is there (a sample: the first and last daily, a deal, a tile set).
    for (const url of [dailies[0]!, dailies.at(-1)!, `${ORIGIN}/play/turtle/1`, `${ORIGIN}/tiles/large`]) {
      const page = await app.inject({ url: url.slice(ORIGIN.length) });
      expect(page.statusCode, url).toBe(200);
    }
  });

  test('the sitemap starts at the first daily', async () => {
    const app = await build({ publicOrigin: ORIGIN, now: () => Date.parse('2026-12-05T08:00:00Z') });
    const xml = (await app.inject({ url: '/sitemap.xml' })).body;
    const dailies = [...xml.matchAll(/\/daily\/(\d{4}-\d{2}-\d{2})</g)].map((m) => m[1]);
    expect(dailies[0]).toBe('2026-12-05');
    expect(dailies.at(-1)).toBe('2026-11-30');
  });

  test('/favicon.ico is an icon file of PNG images, not the 404 page', async () => {
    const app = await build();
    const res = await app.inject({ url: '/favicon.ico' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/x-icon');
    expect(res.headers['cache-control']).toMatch(/^public, max-age=\d+$/);
    const ico = res.rawPayload;
    expect(ico.readUInt16LE(0)).toBe(0);
    expect(ico.readUInt16LE(2)).toBe(1); // an icon
    const count = ico.readUInt16LE(4);
    expect(count).toBe(3);
    const sizes: number[] = [];
    for (let i = 0; i < count; i++) {
      const at = 6 + 16 * i;
      const size = ico.readUInt8(at);
      const bytes = ico.readUInt32LE(at + 8);
      const offset = ico.readUInt32LE(at + 12);
      const png = ico.subarray(offset, offset + bytes);
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect(png.readUInt32BE(16)).toBe(size); // IHDR width
      expect(png.readUInt32BE(20)).toBe(size);
      sizes.push(size);
    }
    expect(sizes).toEqual([16, 32, 48]);
    expect(ico.length).toBeLessThan(10_000);
  });
});

describe('canonical and hreflang', () => {
  test('every page kind has its canonical and the 20 languages and x-default, from PUBLIC_ORIGIN', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    const pages: [url: string, canonical: string][] = [
      ['/', '/'],
      ['/daily', '/daily'],
      ['/play/turtle/seo-1?mode=classic&utm_source=chat', '/play/turtle/seo-1?mode=classic'],
      ['/play/turtle/seo-1', '/play/turtle/seo-1'],
      ['/tiles/classic', '/tiles/classic'],
      ['/layouts/new', '/layouts/new'],
      ['/layouts/editor', '/layouts/editor'],
      ['/stats', '/stats'],
    ];
    for (const [url, path] of pages) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const { canonical, alternates } = headLinks(res.body);
      expect(canonical, url).toBe(`${ORIGIN}${path}`);
      expect([...alternates.keys()]).toEqual([...LANGS, 'x-default']);
      expect(alternates.get('x-default')).toBe(`${ORIGIN}${path}`);
      const sep = path.includes('?') ? '&' : '?';
      for (const lang of LANGS) expect(alternates.get(lang)).toBe(`${ORIGIN}${path}${sep}hl=${lang}`);
    }
    // A page that is not there has none.
    const missing = await app.inject({ url: '/play/no-such-layout/1' });
    expect(missing.statusCode).toBe(404);
    expect(headLinks(missing.body).canonical).toBeUndefined();
  });

  test('an alternate serves its language to a client without cookies; its canonical is itself; forms go back without it', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    for (const lang of ['de', 'ar', 'ja'] as const) {
      const res = await app.inject({ url: `/play/turtle/seo-2?hl=${lang}`, headers: { 'accept-language': 'fr' } });
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<html lang="${lang}" dir="${lang === 'ar' ? 'rtl' : 'ltr'}"`);
      expect(String(res.headers['set-cookie'] ?? '')).not.toMatch(/(^|,\s*)lang=/); // for this request alone
      expect(headLinks(res.body).canonical).toBe(`${ORIGIN}/play/turtle/seo-2?hl=${lang}`);
      // The share link and the preview's address carry no language.
      expect(res.body).toContain(`<meta property="og:url" content="${ORIGIN}/play/turtle/seo-2">`);
    }
    const home = await app.inject({ url: '/?hl=ko', headers: { cookie: 'lang=de' } });
    expect(home.body).toContain('<html lang="ko"');
    expect(home.body).toContain('name="back" value="/"'); // a language picked here sticks
    // Not ours: ignored, the reader's own language.
    const bad = await app.inject({ url: '/?hl=xx', headers: { 'accept-language': 'it' } });
    expect(bad.statusCode).toBe(200);
    expect(bad.body).toContain('<html lang="it"');
    // The API is not a page: ?hl is nothing there.
    expect((await app.inject({ url: '/api/layouts?hl=de' })).statusCode).toBe(200);
  });

  test('the home page describes the game in structured data (JSON-LD), in its language', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    const res = await app.inject({ url: '/', headers: { cookie: 'lang=de' } });
    const block = /<script type="application\/ld\+json">([^<]*)<\/script>/.exec(res.body)?.[1];
    expect(block).toBeDefined();
    const data = JSON.parse(block!) as Record<string, unknown>;
    expect(data).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'VideoGame',
      name: 'Mahjong-Solitär',
      url: `${ORIGIN}/`,
      inLanguage: 'de',
    });
  });

  test('without PUBLIC_ORIGIN the addresses are root-relative, never from the Host header', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/seo-3', headers: { host: 'evil.example' } });
    const { canonical, alternates } = headLinks(res.body);
    expect(canonical).toBe('/play/turtle/seo-3');
    expect(alternates.get('de')).toBe('/play/turtle/seo-3?hl=de');
    expect(res.body).not.toContain('evil.example');
    expect(res.body).toMatch(/<meta property="og:image" content="\/og\/[0-9a-f]{16}\.png\?layout=turtle&amp;faces=/);
    const robots = await app.inject({ url: '/robots.txt', headers: { host: 'evil.example' } });
    expect(robots.body).toContain('\nSitemap: /sitemap.xml\n');
    const xml = (await app.inject({ url: '/sitemap.xml', headers: { host: 'evil.example' } })).body;
    expect(xml).toContain('<url><loc>/</loc></url>');
    expect(xml).not.toContain('evil.example');
  });
});
