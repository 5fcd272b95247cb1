/**
 * Themes on the server (docs/contracts.md, "Themes"): `<html data-theme>` from the `theme` cookie, else the
 * auto state that follows prefers-color-scheme in CSS; the theme form on every page; POST /theme sets
 * or clears the cookie and goes back (303) only to a path on this site; bad input is a 400 and a
 * cross-site form is 403; the cached play page is kept per theme.
 */
import { describe, expect, test } from 'vitest';
import { build, newPlayer } from '../helper.ts';

/** The <html> start tag, without its tile set (test/server/routes/tiles.test.ts checks that). */
const htmlTag = (body: string): string => body.match(/<html[^>]*>/)![0].replace(/ data-tiles="[a-z]+"/, '');
const form = { 'content-type': 'application/x-www-form-urlencoded' };

describe('the theme', () => {
  test.each([
    [undefined, '<html lang="en" dir="ltr" data-theme="light" data-theme-auto>'],
    ['theme=dark', '<html lang="en" dir="ltr" data-theme="dark">'],
    ['theme=light', '<html lang="en" dir="ltr" data-theme="light">'],
    ['theme=contrast', '<html lang="en" dir="ltr" data-theme="contrast">'],
    ['theme=%3Cscript%3E', '<html lang="en" dir="ltr" data-theme="light" data-theme-auto>'], // anything else: auto
  ])('cookie %s renders %s', async (cookie, tag) => {
    const app = await build();
    for (const url of ['/', '/stats', '/daily', '/play/turtle/theme-seed', '/no/such/page']) {
      const res = await app.inject({ url, headers: cookie ? { cookie } : {} });
      expect(htmlTag(res.body), url).toBe(tag);
    }
  });

  test('every page has the theme form, with the current choice selected and the way back', async () => {
    const app = await build();
    for (const [url, back] of [
      ['/', '/'],
      ['/stats?page=1', '/stats?page=1'],
      ['/daily', '/daily'],
      ['/play/turtle/x?mode=classic', '/play/turtle/x?mode=classic'],
      ['/nowhere', '/nowhere'],
    ]) {
      const body = (await app.inject({ url: url!, headers: { cookie: 'theme=dark' } })).body;
      expect(body, url).toContain('<form class="theme-form" method="post" action="/theme">');
      expect(body, url).toContain(`<input type="hidden" name="back" value="${back}">`);
      expect(body, url).toMatch(/<option value="dark" selected>Dark<\/option>/);
      const themeForm = body.match(/<form class="theme-form"[\s\S]*?<\/form>/)![0];
      expect(themeForm.match(/ selected>/g), url).toHaveLength(1);
    }
  });

  test('POST /theme sets the cookie and goes back; auto clears it', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const set = await app.inject({
      method: 'POST',
      url: '/theme',
      headers: { cookie, ...form },
      payload: 'theme=contrast&back=%2Fstats%3Fpage%3D2',
    });
    expect(set.statusCode).toBe(303);
    expect(set.headers.location).toBe('/stats?page=2');
    const made = set.cookies.find((c) => c.name === 'theme')!;
    expect(made).toMatchObject({ value: 'contrast', path: '/', sameSite: 'Lax' });
    expect(made.maxAge).toBeGreaterThan(300 * 24 * 3600);
    expect(made.httpOnly).toBeFalsy(); // the theme script sets the same cookie
    const page = await app.inject({ url: '/stats', headers: { cookie: `${cookie}; theme=${made.value}` } });
    expect(htmlTag(page.body)).toBe('<html lang="en" dir="ltr" data-theme="contrast">');

    const auto = await app.inject({
      method: 'POST',
      url: '/theme',
      headers: { cookie: `${cookie}; theme=contrast`, ...form },
      payload: 'theme=auto&back=%2F',
    });
    expect(auto.statusCode).toBe(303);
    expect(auto.headers.location).toBe('/');
    const cleared = auto.cookies.find((c) => c.name === 'theme')!;
    expect(cleared.value).toBe('');
    expect(cleared.expires!.getTime()).toBeLessThan(Date.now());
  });

  test.each([
    '//evil.test/x',
    '/\\evil.test',
    'https://evil.test/',
    'javascript:alert(1)',
    '',
    '/ok\r\nSet-Cookie: x=1',
  ])('POST /theme never goes back off the site (back=%j)', async (back) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({
      method: 'POST',
      url: '/theme',
      headers: { cookie, ...form },
      payload: `theme=dark&back=${encodeURIComponent(back)}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/');
  });

  test.each([
    ['theme=purple', /theme is auto, light, dark or contrast/i],
    ['back=%2F', /theme is auto, light, dark or contrast/i],
    [`theme=dark&back=${'a'.repeat(600)}`, /back is a path of at most 512 characters/i],
  ])('POST /theme with %s is a 400 page that says why', async (payload, why) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({ method: 'POST', url: '/theme', headers: { cookie, ...form }, payload });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toMatch(why);
    expect(res.cookies.find((c) => c.name === 'theme')).toBeUndefined();
  });

  // Regression: Chromium posts a form of our own page with `Origin: null` (Referrer-Policy:
  // no-referrer) and Sec-Fetch-Site: same-origin; that was refused as cross-site, the daily name form too.
  test.each(['/theme', '/daily/name'])(
    'a form posted from our own page by Chromium (Origin: null) is not refused: %s',
    async (url) => {
      const app = await build();
      const cookie = await newPlayer(app);
      const res = await app.inject({
        method: 'POST',
        url,
        headers: { cookie, origin: 'null', 'sec-fetch-site': 'same-origin', ...form },
        payload: url === '/theme' ? 'theme=dark&back=%2Fdaily' : 'name=Someone',
      });
      expect(res.body).not.toMatch(/other sites are refused/);
      if (url === '/theme') expect(res.statusCode).toBe(303);
    },
  );

  test('a cross-site form, or one without the player cookie, is refused and sets nothing', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const foreign = await app.inject({
      method: 'POST',
      url: '/theme',
      headers: { cookie, origin: 'http://evil.test', 'sec-fetch-site': 'cross-site', ...form },
      payload: 'theme=dark',
    });
    expect(foreign.statusCode).toBe(403);
    expect(foreign.headers['set-cookie']).toBeUndefined();
    const stranger = await app.inject({ method: 'POST', url: '/theme', headers: form, payload: 'theme=dark' });
    expect(stranger.statusCode).toBe(403);
    expect(stranger.headers['set-cookie']).toBeUndefined();
  });

  test('the cached play page is kept per theme', async () => {
    const app = await build();
    const url = '/play/turtle/cached-theme';
    const order = [undefined, 'theme=dark', undefined, 'theme=contrast', 'theme=dark', 'theme=light', undefined];
    for (const theme of order) {
      const body = (await app.inject({ url, headers: theme ? { cookie: theme } : {} })).body;
      const want = theme ? `data-theme="${theme.slice(6)}">` : 'data-theme="light" data-theme-auto>';
      expect(htmlTag(body), String(theme)).toContain(want);
      expect(body).toContain(`<option value="${theme ? theme.slice(6) : 'auto'}" selected>`);
    }
  });
});
