/**
 * Languages (docs/i18n.md): the catalogs are complete and used, their plurals fit each language's CLDR
 * rules, the language is chosen as documented (cookie, ?lang=, Accept-Language, English) and bad values
 * fall back without an error, every page in every language is free of the English catalog's sentences,
 * and a page embeds its own language's browser messages only.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { catalogFiles, i18n, readCatalog, SITE_SHARE_KEYS, type Catalog } from '../../../src/server/services/i18n.ts';
import { chooseLang, LANGS, localeOf, negotiate, type Lang } from '../../../src/shared/i18n.ts';
import { buildApp } from '../../../src/server/app.ts';
import { createGame, newPlayer, playPaced, solutionMoves, TEST_SECRET, testClock } from '../helper.ts';

const ROOT = new URL('../../../', import.meta.url);
const english = readCatalog('en');
const catalogs = Object.fromEntries(LANGS.map((lang) => [lang, readCatalog(lang)])) as Record<Lang, Catalog>;
const OTHERS = LANGS.filter((lang) => lang !== 'en');

/** Every argument a message uses (name → its kind), and its tags, through plurals and selects. */
function shapeOf(elements: MessageFormatElement[], args = new Map<string, string>(), tags = new Set<string>()) {
  for (const e of elements) {
    if (e.type === TYPE.argument) args.set(e.value, args.get(e.value) ?? 'argument');
    else if (e.type === TYPE.number || e.type === TYPE.date || e.type === TYPE.time) args.set(e.value, 'argument');
    else if (e.type === TYPE.plural || e.type === TYPE.select) {
      args.set(e.value, e.type === TYPE.plural ? 'plural' : 'select');
      for (const option of Object.values(e.options)) shapeOf(option.value, args, tags);
    } else if (e.type === TYPE.tag) {
      tags.add(e.value);
      shapeOf(e.children, args, tags);
    }
  }
  return { args, tags };
}

/** Every plural of a message, with the options it gives. */
function pluralsOf(elements: MessageFormatElement[], out: string[][] = []): string[][] {
  for (const e of elements) {
    if (e.type === TYPE.plural) out.push(Object.keys(e.options));
    if (e.type === TYPE.plural || e.type === TYPE.select)
      for (const option of Object.values(e.options)) pluralsOf(option.value, out);
    if (e.type === TYPE.tag) pluralsOf(e.children, out);
  }
  return out;
}

describe('the catalogs', () => {
  test('one file per language, each with exactly the English keys', () => {
    expect(catalogFiles()).toEqual([...LANGS].sort());
    const keys = Object.keys(english).sort();
    for (const lang of OTHERS) expect(Object.keys(catalogs[lang]).sort(), lang).toEqual(keys);
  });

  test('every message has the arguments and tags of its English source, and only the tags we render', () => {
    for (const [key, source] of Object.entries(english)) {
      const want = shapeOf(parse(source));
      for (const tag of want.tags) expect(['b', 'em', 'code', 'link', 'link2'], key).toContain(tag);
      for (const lang of OTHERS) {
        const got = shapeOf(parse(catalogs[lang][key]!));
        expect([...got.tags].sort(), `${lang} ${key} tags`).toEqual([...want.tags].sort());
        // A plural may become a plain number where a language does not inflect (ja: {n, number}回).
        for (const [name] of want.args) expect(got.args.has(name), `${lang} ${key} uses {${name}}`).toBe(true);
        for (const [name] of got.args) expect(want.args.has(name), `${lang} ${key}: {${name}} unknown`).toBe(true);
      }
    }
  });

  test('plurals use their language’s CLDR categories; ar, he, pl, ru and uk give every one of them', () => {
    for (const lang of LANGS) {
      const categories = new Intl.PluralRules(localeOf(lang)).resolvedOptions().pluralCategories as string[];
      for (const [key, message] of Object.entries(catalogs[lang])) {
        for (const options of pluralsOf(parse(message))) {
          expect(options, `${lang} ${key}`).toContain('other');
          for (const option of options)
            if (!option.startsWith('=')) expect(categories, `${lang} ${key}: ${option}`).toContain(option);
          if (['ar', 'he', 'pl', 'ru', 'uk'].includes(lang))
            expect([...options].sort(), `${lang} ${key} covers every form`).toEqual([...categories].sort());
        }
      }
    }
  });

  test('plural forms format as the language says: Arabic, Polish and Russian', () => {
    const t = (lang: Lang, left: number) => i18n().of(lang).t('client.board', { left });
    expect([0, 1, 2, 3, 11, 100].map((n) => t('ar', n))).toEqual([
      'اللوحة، لم يبقَ أي حجر',
      'اللوحة، بقي حجر واحد',
      'اللوحة، بقي حجران',
      'اللوحة، بقيت 3 أحجار',
      'اللوحة، بقي 11 حجرًا',
      'اللوحة، بقي 100 حجر',
    ]);
    expect([1, 2, 5, 22, 25, 112].map((n) => t('pl', n))).toEqual([
      'Plansza, został 1 kamień',
      'Plansza, zostały 2 kamienie',
      'Plansza, zostało 5 kamieni',
      'Plansza, zostały 22 kamienie',
      'Plansza, zostało 25 kamieni',
      'Plansza, zostało 112 kamieni',
    ]);
    expect([1, 3, 5, 11, 21, 144].map((n) => t('ru', n))).toEqual([
      'Поле, осталась 1 кость',
      'Поле, осталось 3 кости',
      'Поле, осталось 5 костей',
      'Поле, осталось 11 костей',
      'Поле, осталась 21 кость',
      'Поле, осталось 144 кости',
    ]);
    // numbers and dates follow the language; Arabic keeps the Latin digits of the board's counters
    expect(i18n().of('de').number(1234)).toBe('1.234');
    expect(i18n().of('ar').t('client.record.counts', { opened: 1234, won: 5 })).toContain('1,234');
    expect(
      i18n()
        .of('ja')
        .date(Date.UTC(2026, 11, 3), 'day'),
    ).toBe('2026年12月3日');
    expect(
      i18n()
        .of('en')
        .date(Date.UTC(2026, 11, 3), 'day'),
    ).toBe('3 December 2026');
  });

  test('every key is used by the code or the templates, and every key they name exists', () => {
    const files: string[] = [];
    const walk = (dir: string): void => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.(ts|eta)$/.test(name)) files.push(readFileSync(path, 'utf8'));
      }
    };
    walk(new URL('src', ROOT).pathname);
    walk(new URL('views', ROOT).pathname);
    const text = files.join('\n');
    const unused = Object.keys(english).filter((key) => !text.includes(`'${key}'`));
    expect(unused).toEqual([]);
    const named = new Set(
      [
        ...text.matchAll(
          /'((?:site|lang|theme|home|layout|band|play|zoom|client|record|daily|stats|error|transfer|upload|custom|editor|manifest|family|builtin|replay)\.[A-Za-z0-9.]+)'/g,
        ),
      ].map((m) => m[1]!),
    );
    // file names (site.js) and prefixes ('client.editor.') are not keys
    const keys = [...named].filter((name) => !/\.(js|css|json|svg)$/.test(name) && !name.endsWith('.'));
    expect(keys.filter((key) => english[key] === undefined)).toEqual([]);
  });
});

describe('choosing the language', () => {
  test.each([
    ['de', 'de'],
    ['pt-BR', 'pt'],
    ['zh-CN', 'zh'],
    ['zh-Hans-CN,zh;q=0.9', 'zh'],
    ['zh-TW,zh;q=0.9,en;q=0.8', 'zh'], // traditional Chinese is not ours; plain zh next is
    ['zh-TW,en;q=0.8', 'en'],
    ['fr;q=0.5,de;q=0.9', 'de'], // q-values, not order
    ['fr,de', 'fr'], // equal weights: the order given
    ['*;q=1,ja;q=0.3', 'ja'], // * is ignored
    ['xx,yy-ZZ,sv;q=0.1', 'sv'],
    ['de;q=0,fr;q=0.2', 'fr'], // q=0: not wanted
    ['en-US,en;q=0.9', 'en'],
    ['iw', 'he'],
    ['AR-eg', 'ar'],
  ])('Accept-Language %s → %s', (header, lang) => {
    expect(negotiate(header) ?? 'en').toBe(lang);
  });

  test.each([
    [''],
    ['*'],
    [';;;,,,'],
    ['de;q=abc'],
    ['de;q=2'],
    ['x'.repeat(5000)],
    [Array.from({ length: 1000 }, () => 'tlh').join(',') + ',de'], // past the ranges we look at
  ])('a header we cannot use (%#) means English', (header) => {
    expect(chooseLang(undefined, header)).toBe('en');
  });

  test('the cookie wins over the header when it is one of ours', () => {
    expect(chooseLang('ja', 'de')).toBe('ja');
    expect(chooseLang('JA', 'de')).toBe('de');
    expect(chooseLang('klingon', 'de')).toBe('de');
    expect(chooseLang(['de'], undefined)).toBe('en');
  });
});

describe('pages in every language', () => {
  let app: FastifyInstance;
  let cookie: string;
  beforeAll(async () => {
    const clock = testClock(Date.UTC(2026, 5, 15, 12));
    // one app for the whole file (helper.ts build() closes its apps after each test)
    app = buildApp({
      databasePath: ':memory:',
      cookieSecret: TEST_SECRET,
      logger: false,
      now: clock.now,
      dealer: { workers: 0 },
      cpu: { processPerWindowMs: 60_000, clientBurstMs: 60_000, clientPerMinuteMs: 600_000 }, // every page in 20 languages at once: more than a window's share of replays
    });
    await app.ready();
    cookie = await newPlayer(app);
    // a won game and an unfinished one, so the stats page shows its tables and chart
    const won = await createGame(app, cookie, { layout: 'turtle', seed: 'i18n-won' });
    await playPaced(app, cookie, won.id, solutionMoves(won), (ms) => clock.advance(ms));
    await createGame(app, cookie, { layout: 'turtle', seed: 'i18n-open' });
    // its replay, at the start, after a move and at the end (the board cleared)
    const replay = await app.inject({
      method: 'POST',
      url: `/api/games/${won.id}/replay`,
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    const url = replay.json<{ url: string }>().url;
    PAGES.push(url, `${url}?move=1`, `${url}?move=${solutionMoves(won).length}`, '/replay/no-such-replay');
  });
  afterAll(() => app?.close());

  const get = (url: string, lang?: string, headers: Record<string, string> = {}) =>
    app.inject({ url, headers: { cookie: lang ? `${cookie}; lang=${lang}` : cookie, ...headers } });

  test('<html lang dir>, Content-Language and Vary; without a cookie, Accept-Language decides', async () => {
    for (const lang of LANGS) {
      const res = await get('/', lang);
      expect(res.statusCode).toBe(200);
      expect(res.body).toContain(`<html lang="${lang}" dir="${lang === 'ar' || lang === 'he' ? 'rtl' : 'ltr'}"`);
      expect(res.headers['content-language']).toBe(lang);
      expect(String(res.headers.vary)).toMatch(/Cookie/);
      expect(String(res.headers.vary)).toMatch(/Accept-Language/);
    }
    const byHeader = await app.inject({ url: '/', headers: { cookie, 'accept-language': 'pt-BR,pt;q=0.9' } });
    expect(byHeader.body).toContain('<html lang="pt" dir="ltr"');
    const none = await app.inject({ url: '/' });
    expect(none.body).toContain('<html lang="en" dir="ltr"');
  });

  test('bad values anywhere fall back with no error', async () => {
    for (const bad of ['xx', 'de-DE', 'DE', '"><script>', '%', '']) {
      const res = await app.inject({ url: '/', headers: { cookie: `${cookie}; lang=${bad}` } });
      expect(res.statusCode, bad).toBe(200);
      expect(res.body).toContain('<html lang="en"');
    }
    for (const bad of ['xx', '"><script>', 'de;q=nope', '%%%', '*']) {
      const res = await app.inject({ url: '/', headers: { cookie, 'accept-language': bad } });
      expect(res.statusCode, bad).toBe(200);
      expect(res.body).toContain('<html lang="en"');
    }
    const query = await get(`/stats?lang=${encodeURIComponent('"><b>')}&page=1`);
    expect(query.statusCode).toBe(303);
    expect(query.headers.location).toBe('/stats?page=1');
    expect(query.headers['set-cookie']).toBeUndefined();
  });

  test('?lang=xx sets the cookie and comes back without it; share links carry no language', async () => {
    const res = await get('/play/turtle/share-me?lang=ja&mode=classic');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/play/turtle/share-me?mode=classic');
    expect(String(res.headers['set-cookie'])).toMatch(/^lang=ja; Max-Age=\d+; Path=\/; SameSite=Lax/);
    const page = await get('/play/turtle/share-me?mode=classic', 'ja');
    expect(page.body).toContain('<html lang="ja"');
    const share = /class="share-link"[^>]*href="([^"]+)"/.exec(page.body)![1]!;
    expect(share).toBe('/play/turtle/share-me?mode=classic');
    // the API ignores lang: its queries keep their schemas
    expect((await get('/api/layouts?lang=ja')).statusCode).toBe(200);
  });

  test('the picker: POST /lang sets the cookie and goes back; a value not ours changes nothing', async () => {
    const set = await app.inject({
      method: 'POST',
      url: '/lang',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      payload: { lang: 'ko', back: '/stats' },
    });
    expect(set.statusCode).toBe(303);
    expect(set.headers.location).toBe('/stats');
    expect(String(set.headers['set-cookie'])).toMatch(/^lang=ko;/);
    const bad = await app.inject({
      method: 'POST',
      url: '/lang',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
      payload: { lang: 'xx', back: '//evil.example' },
    });
    expect(bad.statusCode).toBe(303);
    expect(bad.headers.location).toBe('/');
    expect(bad.headers['set-cookie']).toBeUndefined();
    const page = await get('/', 'ko');
    expect(page.body).toMatch(/<form class="lang-form" method="post" action="\/lang">/);
    expect(page.body).toContain('<option value="ko" lang="ko" selected>한국어</option>');
  });

  test('the manifest speaks the language, with its lang and dir', async () => {
    const res = await get('/manifest.webmanifest', 'ar');
    const manifest = res.json<{ name: string; lang: string; dir: string }>();
    expect(manifest).toMatchObject({ name: 'ماهجونغ سوليتير', lang: 'ar', dir: 'rtl' });
    expect(String(res.headers.vary)).toMatch(/Accept-Language/);
  });

  /**
   * The English catalog's sentences: each message's literal runs of three words or more. Allowed on
   * every page: none; these are names, the same in every language, that a run may be made of.
   */
  const SAME_IN_EVERY_LANGUAGE = new Set(['GNOME Mahjongg', 'KMahjongg']);
  const sentences = [
    ...new Set(
      Object.values(english)
        .flatMap((message) => message.split(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}|<\/?[a-z0-9]+>/))
        .map((run) => run.trim().replace(/^[\s,.:;·()–—-]+|[\s,.:;·()–—-]+$/g, ''))
        .filter((run) => run.split(/\s+/).length >= 3 && !SAME_IN_EVERY_LANGUAGE.has(run)),
    ),
  ];

  /** What a page shows and says: its text and attributes, without the embedded JSON. */
  const visible = (html: string): string =>
    html
      .replace(/<script[\s\S]*?<\/script>/g, ' ')
      .replace(/<(?:[^>"']|"[^"]*"|'[^']*')*>/g, (tag) =>
        [...tag.matchAll(/(?:aria-label|title|placeholder|alt|abbr|label|content)="([^"]*)"/g)]
          .map((m) => ` ${m[1]} `)
          .join(''),
      )
      .replace(/&#39;/g, "'")
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&')
      .replace(/\s+/g, ' ');

  test('built-in layouts are named on pages in the player’s language; the API keeps the engine’s English', async () => {
    const home = (await get('/', 'de')).body;
    expect(home).toContain('Schildkröte');
    expect(home).toContain('aria-label="Schildkröte: 144 Steine');
    expect(home).not.toContain('>Turtle<');
    expect((await get('/play/turtle/i18n-open', 'ja')).body).toMatch(/<title>亀 i18n-open/);
    expect((await get('/stats', 'ru')).body).toContain('Черепаха');
    const api = (await get('/api/layouts', 'de')).json<{ id: string; name: string }[]>();
    expect(api.find((l) => l.id === 'turtle')?.name).toBe('Turtle');
  });

  const PAGES: string[] = [
    '/',
    '/play/turtle/i18n-won',
    '/play/turtle/i18n-open',
    '/play/turtle/i18n-fresh?mode=classic',
    '/stats',
    '/daily',
    '/daily/2026-06-01',
    '/layouts/new',
    '/layouts/editor',
    '/layouts/editor?layout=AAAA',
    '/offline',
    '/no-such-page',
    '/transfer/not-a-token',
    '/play/nosuch',
    '/tiles/traditional', // a tile set's faces preview (its names, families and texts)
    '/tiles/nosuch',
  ];

  test('no page in any other language shows a sentence of the English catalog', async () => {
    expect(sentences.length).toBeGreaterThan(200);
    const found: string[] = [];
    for (const lang of OTHERS) {
      for (const url of PAGES) {
        const res = await get(url, lang);
        expect(res.statusCode, `${lang} ${url}`).toBeLessThan(500);
        expect(res.body, `${lang} ${url}`).toContain(`<html lang="${lang}"`);
        const text = visible(res.body);
        for (const sentence of sentences) if (text.includes(sentence)) found.push(`${lang} ${url}: ${sentence}`);
      }
    }
    expect(found).toEqual([]);
  });

  test('a page embeds its own language’s browser messages only, and only the ones its scripts use', async () => {
    const embedded = (html: string) =>
      JSON.parse(/<script type="application\/json" id="i18n-data">([^<]*)<\/script>/.exec(html)![1]!) as {
        lang: string;
        messages: Record<string, unknown>;
      };
    const play = embedded((await get('/play/turtle/i18n-won', 'de')).body);
    expect(play.lang).toBe('de');
    expect(Object.keys(play.messages)).toContain('client.board');
    expect(Object.keys(play.messages).some((k) => k.startsWith('client.editor.'))).toBe(false);
    expect(JSON.stringify(play.messages)).toContain('Steine');
    expect(JSON.stringify(play.messages)).not.toContain('tiles left');
    const stats = embedded((await get('/stats', 'fr')).body);
    expect(Object.keys(stats.messages).every((k) => k.startsWith('client.waiting.') || SITE_SHARE_KEYS.has(k))).toBe(
      true,
    );
    expect(Object.keys(stats.messages)).toContain('client.replayCopied'); // the history's Share replay
    const editor = embedded((await get('/layouts/editor', 'ja')).body);
    expect(Object.keys(editor.messages)).toContain('client.editor.checking');
  });

  test('the play page’s script holds no catalog: every language’s messages come from the page', () => {
    const manifest = JSON.parse(readFileSync(new URL('public/build/manifest.json', ROOT), 'utf8')) as Record<
      string,
      string
    >;
    const script = readFileSync(new URL(`public/${manifest['app.js']}`, ROOT), 'utf8');
    for (const lang of LANGS)
      for (const key of ['client.stuck', 'client.face.dr', 'client.win.title'])
        expect(script, `${lang} ${key}`).not.toContain(catalogs[lang][key]!);
  });
});
