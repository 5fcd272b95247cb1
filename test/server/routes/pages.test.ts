/** The server-rendered pages: home, play (the board contract), daily, stats, errors. */
import { beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { freeSlots, newGame, presenceOf, replay, type Deal } from '../../../src/engine/index.ts';
import { LAYOUTS } from '../../../src/engine/builtins.ts';
import { boxOf } from '../../../src/shared/box.ts';
import { dealData } from '../../../src/server/view-models/board.ts';
import {
  BACKEND,
  build,
  playPaced,
  testClock,
  createGame,
  newPlayer,
  postMoves,
  solutionMoves,
  query,
} from '../helper.ts';

const tilesOf = (html: string): string[] => html.match(/<button class="tile"[^>]*>/g) ?? [];
const attr = (tag: string, name: string): string | undefined => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];

function dealDataOf(html: string): {
  deal: Deal;
  game: { id: string; log: unknown[]; startedAt: number; status: string; playMs: number | null } | null;
} {
  const m = /<script type="application\/json" id="deal-data">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error('no #deal-data');
  return JSON.parse(m[1]!);
}

/** Plays a daily win for a new player; returns their cookie. */
/** The clock of apps built with `{ now: clock.now }`: 10:00 UTC on 1 December 2026, moved by tests and by playPaced. */
const clock = testClock(Date.UTC(2026, 11, 1, 10));
beforeEach(() => clock.set(Date.UTC(2026, 11, 1, 10)));

/** A new player who wins today's daily deal at a person's pace (ranked: it stands on the table). */
async function winDaily(app: FastifyInstance): Promise<string> {
  const cookie = await newPlayer(app);
  const seed = `daily-${new Date(app.now()).toISOString().slice(0, 10)}`;
  const game = await createGame(app, cookie, { layout: 'turtle', seed });
  const res = await playPaced(app, cookie, game.id, solutionMoves(game), clock.advance);
  expect(res.json()).toMatchObject({ status: 'won', ranked: true });
  return cookie;
}

describe('GET /', () => {
  test('every layout with a picture, both kinds of new game, today’s deal and stats', async () => {
    const app = await build({ now: () => Date.UTC(2025, 5, 7, 12) });
    const res = await app.inject({ url: '/' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    const html = res.body;
    expect(html.match(/<li class="layout-card">/g)).toHaveLength(LAYOUTS.length);
    expect(html.match(/<svg class="layout-picture"/g)).toHaveLength(LAYOUTS.length);
    for (const l of LAYOUTS) {
      expect(html).toContain(`href="/play/${l.id}"`);
      expect(html).toContain(`href="/play/${l.id}?mode=classic"`);
      expect(html).toContain(`${l.slots.length} tiles`);
    }
    expect(html).toContain('href="/play/turtle/daily-2025-06-07"');
    expect(html).toContain('href="/stats"');
    expect(html).not.toContain('Resume');
  });

  test('the picture has one rectangle per tile, one path per layer', async () => {
    const app = await build();
    const html = (await app.inject({ url: '/' })).body;
    const turtle = /<svg class="layout-picture"[^>]*aria-label="Turtle[^"]*">(.*?)<\/svg>/.exec(html)![1]!;
    expect(turtle.match(/<path /g)).toHaveLength(5);
    expect(turtle.match(/M/g)).toHaveLength(144);
  });

  test('"Resume" links the player’s latest unfinished game', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'resume-me', mode: 'classic' });
    await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 2));
    const html = (await app.inject({ url: '/', headers: { cookie } })).body;
    expect(html).toContain('Resume');
    expect(html).toContain('href="/play/garden/resume-me?mode=classic"');
    expect(html).toContain('36 tiles left');
  });
});

describe('GET /play/:layout', () => {
  test('redirects to a new random seed of 8 letters and digits', async () => {
    const app = await build();
    const seen = new Set<string>();
    for (let i = 0; i < 5; i++) {
      const res = await app.inject({ url: '/play/turtle' });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toMatch(/^\/play\/turtle\/[A-Za-z0-9]{8}$/);
      seen.add(res.headers.location as string);
    }
    expect(seen.size).toBe(5);
  });

  test('keeps ?mode=classic', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/fish?mode=classic' });
    expect(res.headers.location).toMatch(/^\/play\/fish\/[A-Za-z0-9]{8}\?mode=classic$/);
  });

  test('an unknown layout is the HTML 404 page; a bad mode a 400 page', async () => {
    const app = await build();
    const missing = await app.inject({ url: '/play/nosuch' });
    expect(missing.statusCode).toBe(404);
    expect(missing.headers['content-type']).toMatch(/^text\/html/);
    expect(missing.body).toContain('There is no layout called nosuch');
    const bad = await app.inject({ url: '/play/turtle?mode=%3Cb%3E' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('class="error-page"');
    expect(bad.body).not.toContain('<b>');
  });
});

describe('GET /play/:layout/:seed', () => {
  test('the board of docs/contract-board.md, readable without script', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/k3v9x2' });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    const board = /<div id="board"[^>]*>/.exec(html)![0];
    expect(attr(board, 'class')).toBe('board');
    expect(attr(board, 'data-status')).toBe('playing');
    expect(attr(board, 'data-layout')).toBe('turtle');
    expect(attr(board, 'data-seed')).toBe('k3v9x2');
    expect(attr(board, 'data-mode')).toBe('relaxed');
    expect(attr(board, 'role')).toBe('group');
    expect(attr(board, 'aria-label')).toBe('Board, 144 tiles left');

    const { deal, game } = dealDataOf(html);
    expect(game).toBeNull();
    const api = (await app.inject({ url: '/api/deals/turtle/k3v9x2' })).json();
    expect(deal).toEqual(api);
    const start = newGame(deal);
    if (!start.ok) throw new Error(start.message);
    const { minX, minY, width, height, depth } = start.value.geom.extent;
    // The extent, and the exact box the board's CSS sizes it by from the first paint (src/shared/box.ts).
    const box = boxOf(start.value.geom.slots, minX, minY);
    expect(attr(board, 'style')).toBe(
      `--w:${width};--h:${height};--d:${depth};--ox:${box.ox};--oy:${box.oy};--bw:${box.bw};--bh:${box.bh}`,
    );
    expect(box).toEqual({ ox: 0.08, oy: 0.08, bw: 15.33, bh: 10.997 }); // the turtle's

    const tiles = tilesOf(html);
    expect(tiles).toHaveLength(144);
    const free = new Set(freeSlots(start.value.geom, presenceOf(start.value)));
    tiles.forEach((tag, i) => {
      expect(attr(tag, 'data-slot')).toBe(String(i)); // slot order
      const t = deal.tiles[i]!;
      expect(attr(tag, 'type')).toBe('button');
      expect(attr(tag, 'data-face')).toBe(t.face);
      expect(attr(tag, 'style')).toBe(`--x:${t.x - minX};--y:${t.y - minY};--z:${t.z}`);
      expect(/\sdata-free[\s>]/.test(tag)).toBe(free.has(i));
      expect(attr(tag, 'aria-label')).toMatch(free.has(i) ? /^[A-Z][a-z]+.*, free$/ : /, blocked$/);
    });
    expect(html).toMatch(/aria-label="Bamboo \d, (free|blocked)"/);
    expect(html).toContain('<span class="face"></span></button>'); // its art is the theme's face sheet, by data-face (board.css)
    expect(html).not.toContain('<use'); // no SVG tree per tile: the page styles ~400 elements, not ~3,300

    for (const action of ['hint', 'shuffle', 'undo', 'redo', 'check', 'new', 'share'])
      expect(html).toContain(`<button type="button" data-action="${action}"`);
    for (const counter of ['left', 'pairs', 'time', 'hints', 'shuffles'])
      expect(html).toContain(`data-counter="${counter}"`);
    expect(html).toContain('<p id="message" role="status" aria-live="polite">');
    expect(html).toMatch(/<section id="win-panel"[^>]* hidden/);
    expect(html).toContain('href="/play/turtle/k3v9x2"'); // the share link
  });

  test('no inline script: only the module bundle and the JSON data block; a strict CSP', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/abc' });
    const scripts = res.body.match(/<script[^>]*>/g) ?? [];
    for (const tag of scripts)
      expect(tag).toMatch(
        /^<script (type="module" src="\/static\/[^"]+"|type="application\/json" id="(deal|i18n)-data")>$/,
      );
    expect(res.body).not.toMatch(/\son[a-z]+="/); // no inline handlers
    // Rendered once #deal-data, the markup's last element, is parsed (views/layout.eta): in the head, and the id exists.
    const head = res.body.slice(0, res.body.indexOf('</head>'));
    expect(head).toContain('<link rel="expect" href="#deal-data" blocking="render">');
    expect(res.body).toMatch(/id="deal-data">[^<]*<\/script>\s*<\/main>\s*<\/body>/);
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  test('classic mode shows the classic deal', async () => {
    const app = await build();
    const html = (await app.inject({ url: '/play/garden/abc?mode=classic' })).body;
    expect(/<div id="board"[^>]*data-mode="classic"/.test(html)).toBe(true);
    expect(dealDataOf(html).deal.mode).toBe('classic');
  });

  test('restores the player’s unfinished game: replayed position and its log; others see a fresh board', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'resume' });
    const moves = [...solutionMoves(game).slice(0, 3), { type: 'hint' as const }, { type: 'undo' as const }];
    const early = await app.inject({ url: '/play/turtle/resume' }); // fills the page cache for visitors without a game
    await postMoves(app, cookie, game.id, moves, { playMs: 65_000 }); // the player's own clock at 1:05
    clock += 65_000;
    const html = (await app.inject({ url: '/play/turtle/resume', headers: { cookie } })).body;
    const data = dealDataOf(html);
    // Hints are counted, not logged: the page's log has them after the other moves.
    const asLogged = [...moves.filter((m) => m.type !== 'hint'), { type: 'hint' }];
    expect(data.game).toEqual({
      id: game.id,
      log: asLogged,
      startedAt: 1_750_000_000_000,
      status: 'playing',
      playMs: 65_000, // your clock goes on from the time the page last sent
    });
    const expected = replay(game, moves);
    if (!expected.ok) throw new Error(expected.message);
    const shown = tilesOf(html).map((t) => Number(attr(t, 'data-slot')));
    expect(shown).toEqual(expected.value.faces.flatMap((f, i) => (f === null ? [] : [i])));
    expect(shown).toHaveLength(140);
    expect(html).toContain('aria-label="Board, 140 tiles left"');
    expect(html).toMatch(/id="clock" data-counter="time" data-ms="65000">1:05</); // your time, as last sent
    expect(html).toMatch(/data-counter="hints">1</);

    const stranger = await app.inject({ url: '/play/turtle/resume' });
    expect(tilesOf(stranger.body)).toHaveLength(144);
    expect(dealDataOf(stranger.body).game).toBeNull();
    // The same bytes for everyone without a game of this deal, but for the deal's own record (a count
    // of players who opened it, and the time since this visitor first saw it).
    const withoutRecord = (page: string): string => page.replace(/<details id="deal-stats"[\s\S]*?<\/details>/, '');
    expect(withoutRecord(stranger.body)).toBe(withoutRecord(early.body));
    // Visitors without a cookie are not counted (a crawler, a link preview), nor stored.
    expect(early.body).toMatch(/id="deal-stats"[^>]*data-played="1" data-won="0" data-elapsed="0"/); // the player
    expect(stranger.body).toMatch(/id="deal-stats"[^>]*data-played="1" data-won="0" data-elapsed="0"/);
  });

  test('a won game is not restored: the deal starts fresh', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'done' });
    await postMoves(app, cookie, game.id, solutionMoves(game));
    const html = (await app.inject({ url: '/play/garden/done', headers: { cookie } })).body;
    expect(dealDataOf(html).game).toBeNull();
    expect(tilesOf(html)).toHaveLength(40);
  });

  test('bad seeds and layouts are HTML errors', async () => {
    const app = await build();
    for (const [url, status] of [
      ['/play/turtle/' + 'x'.repeat(40), 400],
      ['/play/turtle/a%20b', 400],
      ['/play/nosuch/abc', 404],
      ['/play/turtle/abc?mode=x', 400],
    ] as const) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
      expect(res.headers['content-type']).toMatch(/^text\/html/);
      expect(res.body).toContain('class="error-page"');
    }
  });

  test('#deal-data cannot be closed early: <, > and & are escaped', () => {
    const text = dealData('{"x":"</script><script>alert(1)</script>&"}', null);
    expect(text).not.toContain('<');
    expect(text).not.toContain('>');
    expect(JSON.parse(text)).toEqual({ deal: { x: '</script><script>alert(1)</script>&' }, game: null });
  });
});

describe('GET /daily and POST /daily/name', () => {
  test("today's deal by UTC date, with no times yet", async () => {
    const app = await build({ now: () => Date.UTC(2025, 0, 31, 23, 59) });
    const res = await app.inject({ url: '/daily' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('href="/play/turtle/daily-2025-01-31"');
    expect(res.body).toContain('31 January 2025');
    expect(res.body).toContain('No one has cleared');
    expect(res.body).not.toContain('name="name"');
  });

  test('from 2027 the daily deal is the layout of the day: its table ranks that layout, past days keep theirs', async () => {
    clock.set(Date.UTC(2027, 0, 2, 10)); // services/daily.ts: 2027-01-02 is the cat's day
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    let page = (await app.inject({ url: '/daily', headers: { cookie } })).body;
    expect(page).toContain('<h1>Today&#39;s Cat</h1>');
    expect(page).toContain('href="/play/cat/daily-2027-01-02"');
    expect(page).toContain('the layout of the day');
    expect((await app.inject({ url: '/' })).body).toContain('<span class="card-link-title">Cat, 2 January 2027</span>');
    // The turtle on today's seed is an ordinary deal now; the cat's is the daily one.
    const turtle = await createGame(app, cookie, { layout: 'turtle', seed: 'daily-2027-01-02' });
    await playPaced(app, cookie, turtle.id, solutionMoves(turtle), clock.advance);
    page = (await app.inject({ url: '/daily', headers: { cookie } })).body;
    expect(page).toContain('No one has cleared');
    expect(page).toContain('data-day="2027-01-02" data-state="open"'); // the turtle's win is not today's on the calendar
    const cat = await createGame(app, cookie, { layout: 'cat', seed: 'daily-2027-01-02' });
    expect((await playPaced(app, cookie, cat.id, solutionMoves(cat), clock.advance)).json()).toMatchObject({
      status: 'won',
      ranked: true,
      dailyRank: 1,
    });
    page = (await app.inject({ url: '/daily', headers: { cookie } })).body;
    expect(page).not.toContain('No one has cleared');
    expect(page).toContain('You cleared today&#39;s deal');
    expect(page).toContain('data-day="2027-01-02" data-state="clean"');
    // The last day of 2026 was, and stays, the turtle's.
    page = (await app.inject({ url: '/daily/2026-12-31', headers: { cookie } })).body;
    expect(page).toContain('The Turtle of');
    expect(page).toContain('href="/play/turtle/daily-2026-12-31"');
    expect(page).not.toContain('the layout of the day'); // every day of 2026 was the turtle's
  });

  test('best verified times, fastest first; the winner names themself; names are escaped', async () => {
    const app = await build({ now: clock.now });
    const slow = await newPlayer(app);
    const slowGame = await createGame(app, slow, { layout: 'turtle', seed: 'daily-2026-12-01' });
    clock.advance(300_000);
    await playPaced(app, slow, slowGame.id, solutionMoves(slowGame), clock.advance); // 5:00 + 13 batches of 4.2 s
    const fast = await winDaily(app); // 13 batches of 4.2 s: 0:54

    let page = await app.inject({ url: '/daily', headers: { cookie: fast } });
    expect(page.body).toContain('name="name"');
    expect(page.body).toContain('0:54');
    expect(page.body.indexOf('0:54')).toBeLessThan(page.body.indexOf('5:54'));

    // A hostile name is refused (400), shown back escaped, and not stored.
    const hostile = '<script>alert(1)</script>';
    const refused = await app.inject({
      method: 'POST', url: '/daily/name', headers: { cookie: fast }, payload: { name: hostile },
    }); // prettier-ignore
    expect(refused.statusCode).toBe(400);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toContain('letters, digits, spaces');
    expect(refused.body).not.toContain(hostile);
    expect(refused.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect((await app.playersStore.find(fast.split('=')[1]!.split('.')[0]!))!.nickname).toBeNull();

    const saved = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie: fast },
      payload: { name: '  Mei  Ling_2.0 ' },
    });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe('/daily');
    page = await app.inject({ url: '/daily', headers: { cookie: fast } });
    expect(page.body).toContain('Mei Ling_2.0');

    // Output is escaped too, whatever is stored (a row written before the rule, by hand, …).
    await query(app, 'UPDATE players SET nickname = ?', hostile);
    page = await app.inject({ url: '/daily' });
    expect(page.body).not.toContain(hostile);
    expect(page.body).toContain('&lt;script&gt;');
  });

  test.each([
    ['empty', '', /Enter a name/],
    ['spaces only', '   ', /Enter a name/],
    ['too long', 'x'.repeat(25), /at most 24/],
    ['direction override', 'abc\u202Edef', /letters, digits/],
    ['combining marks', 'Z\u0351\u0352\u0353', /letters, digits/],
    ['SQL', "x'); DROP TABLE players;--", /letters, digits/],
  ])('a name that is %s → 400, nothing stored', async (_name, name, message) => {
    const app = await build({ now: clock.now });
    const cookie = await winDaily(app);
    const res = await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie }, payload: { name } });
    expect(res.statusCode).toBe(400);
    expect(res.body).toMatch(message);
    expect(((await query(app, 'SELECT nickname FROM players'))[0] as { nickname: string | null }).nickname).toBeNull();
  });

  test('unicode letters are fine', async () => {
    const app = await build({ now: clock.now });
    const cookie = await winDaily(app);
    const res = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie },
      payload: { name: 'Zoë 李' },
    });
    expect(res.statusCode).toBe(303);
  });

  test('only a ranked win of a daily deal on its day names a player', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    // Paced wins on a daily-… seed of another layout, and on yesterday's and tomorrow's turtle seeds.
    for (const [layout, seed] of [
      ['garden', 'daily-x'],
      ['garden', 'daily-2026-12-01'],
      ['turtle', 'daily-2026-11-30'],
      ['turtle', 'daily-2026-12-02'],
    ]) {
      const game = await createGame(app, cookie, { layout, seed });
      expect((await playPaced(app, cookie, game.id, solutionMoves(game), clock.advance)).json()).toMatchObject({
        status: 'won',
        ranked: true,
      });
    }
    // Today's deal, won by a script: all at once, so unranked (it counts as a win, not on the table).
    const today = await createGame(app, cookie, { layout: 'turtle', seed: 'daily-2026-12-01' });
    clock.advance(120_000);
    expect((await postMoves(app, cookie, today.id, solutionMoves(today))).json()).toMatchObject({
      status: 'won',
      ranked: false,
      unranked: 'fast',
    });
    const res = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie },
      payload: { name: 'Sneaky' },
    });
    expect(res.statusCode).toBe(403);
    const page = (await app.inject({ url: '/daily', headers: { cookie } })).body;
    expect(page).not.toContain('name="name"');
    expect(page).toContain('No one has cleared'); // neither the script's win nor tomorrow's deal is on today's table
    // Tomorrow, the win on its seed played today does not stand on its table either: it was shown before the day.
    clock.set(Date.UTC(2026, 11, 2, 9));
    expect((await app.inject({ url: '/daily', headers: { cookie } })).body).toContain('No one has cleared');
    // A paced win of today's deal on its day does.
    clock.set(Date.UTC(2026, 11, 1, 15));
    const again = await createGame(app, cookie, { layout: 'turtle', seed: 'daily-2026-12-01' });
    expect((await playPaced(app, cookie, again.id, solutionMoves(again), clock.advance)).json()).toMatchObject({
      ranked: true,
      dailyRank: 1,
    });
    expect(
      (await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie }, payload: { name: 'Sneaky' } }))
        .statusCode,
    ).toBe(303);
  });

  test.each([
    ['Cherokee Ꭺ in Ꭺdmin (a lookalike of a reserved name)', '\u13AAdmin', /reserved|Latin letters/],
    ['Cyrillic раураӏ (passes for Latin)', '\u0440\u0430\u0443\u0440\u0430\u04CF', /written in Latin letters/],
    ['a Hangul filler (renders blank)', '\u3164', /invisible/],
    ['Hangul fillers around a name', 'bob\u3164\u3164', /invisible/],
    ['a halfwidth Hangul filler', 'x\uFFA0', /invisible/],
    ['Anonymous player', 'Anonymous player', /reserved/],
    ['ADMIN in capitals', 'ADMIN', /reserved/],
    ['adm1n with a digit', 'Adm1n', /reserved|looks/],
  ])('a name with %s → 400, nothing stored', async (_label, raw, message) => {
    const app = await build({ now: clock.now });
    const cookie = await winDaily(app);
    const name = JSON.parse(`"${raw}"`) as string;
    const res = await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie }, payload: { name } });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
    expect(res.body).toMatch(message);
    expect(((await query(app, 'SELECT nickname FROM players'))[0] as { nickname: string | null }).nickname).toBeNull();
  });

  test("a name that looks like another player's is 409; the same player may save theirs again", async () => {
    const app = await build({ now: clock.now });
    const alice = await winDaily(app);
    const mallory = await winDaily(app);
    expect(
      (await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie: alice }, payload: { name: 'Alice' } }))
        .statusCode,
    ).toBe(303);
    expect(
      (await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie: alice }, payload: { name: 'alice' } }))
        .statusCode,
    ).toBe(303);
    for (const lookalike of ['AIice', 'A l i c e', '\u0410lice', 'ALICE']) {
      const res = await app.inject({
        method: 'POST',
        url: '/daily/name',
        headers: { cookie: mallory },
        payload: { name: JSON.parse(`"${lookalike}"`) },
      });
      expect(res.statusCode, lookalike).toBeGreaterThanOrEqual(400);
    }
    const names = await query(app, 'SELECT nickname FROM players WHERE nickname IS NOT NULL');
    expect(names).toEqual([{ nickname: 'alice' }]);
  });

  test('a player without a daily win cannot set a name (403)', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie },
      payload: { name: 'Sneaky' },
    });
    expect(res.statusCode).toBe(403);
    expect(res.body).toContain('Win a daily deal on its day first');
    expect(res.body).toContain('<h1>That is not yours</h1>');
    const fresh = await app.inject({ method: 'POST', url: '/daily/name', payload: { name: 'Sneaky' } });
    expect(fresh.statusCode).toBe(403);
    expect(((await query(app, 'SELECT COUNT(*) AS n FROM players'))[0] as { n: number }).n).toBe(0);
  });
});

describe('GET /stats and /api/stats', () => {
  test('a new player: zeros and an invitation to play', async () => {
    const app = await build();
    const page = await app.inject({ url: '/stats' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('No games yet');
    // The first game's buttons, as on a first visit's home page: CSS shows the portrait one on a phone held upright.
    expect(page.body).toMatch(/class="button primary play-phone" href="\/play\/vase\?difficulty=easy"/);
    expect(page.body).toMatch(/class="button primary play-wide" href="\/play\/turtle\?difficulty=easy"/);
    const api = await app.inject({ url: '/api/stats' });
    expect(api.json()).toMatchObject({
      played: 0,
      won: 0,
      cleanWins: 0,
      streak: 0,
      bestStreak: 0,
      byLayout: {},
      history: [],
    });
  });

  test('played, won, clean wins, streaks, best and median per layout, history with links, the chart', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    const play = async (layout: string, seed: string, ms: number, extra: object[] = [], finish = true) => {
      const game = await createGame(app, cookie, { layout, seed });
      clock.advance(ms);
      const moves = solutionMoves(game);
      await postMoves(app, cookie, game.id, finish ? [...extra, ...moves] : [...extra, ...moves.slice(0, 2)]);
      clock.advance(1000);
    };
    const DAY = 86_400_000;
    await play('garden', 'g1', 60_000); // clean win, day 1
    clock.advance(DAY);
    await play('garden', 'g2', 120_000, [{ type: 'hint' }]); // win with a hint, day 2
    clock.advance(DAY);
    await play('turtle', 't1', 10_000, [], false); // abandoned on day 3: never breaks a streak
    await play('garden', 'g3', 90_000); // clean win, day 3
    clock.advance(DAY);
    await play('turtle', 't2', 300_000); // clean win, day 4
    await play('turtle', 't3', 5_000, [], false); // unfinished, the latest

    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats).toMatchObject({ played: 6, won: 4, cleanWins: 3, streak: 4, bestStreak: 4 });
    expect((await app.inject({ url: '/api/stats', headers: { cookie } })).json().dailyStreak).toBe(0);
    clock.advance(2 * DAY); // a whole day without a win ends the streak; the best stays
    expect((await app.inject({ url: '/api/stats', headers: { cookie } })).json()).toMatchObject({
      streak: 0,
      bestStreak: 4,
    });
    expect(stats.byLayout.garden).toEqual({ name: 'Garden', played: 3, won: 3, bestMs: 60_000, medianMs: 90_000 });
    expect(stats.byLayout.turtle).toMatchObject({ played: 3, won: 1, bestMs: 300_000, medianMs: 300_000 });
    expect(stats.history).toHaveLength(6);
    expect(stats.history[0]).toMatchObject({ layout: 'turtle', seed: 't3', result: null, url: '/play/turtle/t3' });
    expect(stats.history[5]).toMatchObject({ seed: 'g1', result: 'won', timeMs: 60_000, clean: true });

    const page = (await app.inject({ url: '/stats', headers: { cookie } })).body;
    expect(page).toContain('<svg class="chart"');
    expect(page.match(/<circle class="win/g)).toHaveLength(4);
    expect(page.match(/<circle class="win clean"/g)).toHaveLength(3);
    expect(page).toContain('67%'); // 4 of 6
    for (const seed of ['g1', 'g2', 'g3', 't1', 't2', 't3'])
      expect(page).toMatch(new RegExp(`href="/play/(garden|turtle)/${seed}"`));
    expect(page).toMatch(
      /<th scope="row">Garden<\/th><td class="num" data-label="Played">3<\/td><td class="num" data-label="Won">3<\/td><td class="num" data-label="Best">1:00<\/td><td class="num" data-label="Median">1:30<\/td>/,
    );
  });
});

describe('error pages', () => {
  test('404 page in the site style, with the header nav', async () => {
    const app = await build();
    const res = await app.inject({ url: '/no/such/page' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain('class="error-page"');
    expect(res.body).toContain('href="/daily"');
    expect(res.body).toContain('href="/stats"');
  });

  test('a reflected path is escaped', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/%3Cscript%3Ealert(1)%3C%2Fscript%3E/abc' });
    expect(res.statusCode).toBe(400);
    expect(res.body).not.toContain('<script>alert');
  });
});

// SQLite only: names from before migration 005 exist only there; PostgreSQL's schema began with keys.
describe.skipIf(BACKEND === 'postgres')('nicknames set before lookalike keys', () => {
  test('get their key on start; a lookalike of one is then refused', async () => {
    const { keyOldNicknames } = await import('../../../src/server/db/nickname-keys.ts');
    const app = await build({ now: clock.now });
    const mallory = await winDaily(app);
    await query(app, "INSERT INTO players (id, nickname, created_at) VALUES (?, 'Alice', 0)", 'o'.repeat(22)); // named before migration 005
    expect(keyOldNicknames(app.db!)).toBe(1);
    const res = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie: mallory },
      payload: { name: 'AIice' },
    });
    expect(res.statusCode).toBe(409);
  });
});
