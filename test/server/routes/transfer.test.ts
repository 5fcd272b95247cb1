/**
 * Stats that follow the player: one-time transfer links (valid 15 minutes, single use,
 * unguessable, rate limited; expired, used and forged ones change nothing) and the CSV and JSON
 * exports of every game.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { csvField } from '../../../src/server/routes/pages/export.ts';
import {
  build,
  createGame,
  newPlayer,
  playerCookie,
  playPaced,
  postMoves,
  solutionMoves,
  testClock,
  query,
} from '../helper.ts';

const clock = testClock(Date.UTC(2026, 11, 1, 10));
beforeEach(() => clock.set(Date.UTC(2026, 11, 1, 10)));

const SAME_ORIGIN = { origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' };

/** A player with one won game; their cookie. */
async function playerWithWin(app: FastifyInstance): Promise<string> {
  const cookie = await newPlayer(app);
  const game = await createGame(app, cookie, { layout: 'garden', seed: 'mine' });
  await playPaced(app, cookie, game.id, solutionMoves(game), clock.advance);
  return cookie;
}

async function makeLink(app: FastifyInstance, cookie: string): Promise<string> {
  const res = await app.inject({ method: 'POST', url: '/stats/transfer', headers: { cookie, ...SAME_ORIGIN } });
  expect(res.statusCode).toBe(200);
  expect(res.headers['cache-control']).toBe('no-store');
  const link = /value="(\/transfer\/[A-Za-z0-9_-]{32})"/.exec(res.body); // a path: no PUBLIC_ORIGIN, never the Host header
  expect(link, res.body).not.toBeNull();
  return link![1]!;
}

const statsOf = async (app: FastifyInstance, cookie: string) =>
  (await app.inject({ url: '/api/stats', headers: { cookie } })).json();

describe('transfer links', () => {
  test('the link shows a confirmation; confirming makes this browser the same player; it works once', async () => {
    const app = await build({ now: clock.now });
    const home = await playerWithWin(app);
    const path = await makeLink(app, home);

    // Another browser with a game of its own.
    const other = await newPlayer(app);
    await createGame(app, other, { layout: 'turtle', seed: 'theirs' });
    const confirm = await app.inject({ url: path, headers: { cookie: other } });
    expect(confirm.statusCode).toBe(200);
    expect(confirm.body).toContain('This browser has 1 game of its own.');
    expect(confirm.body).toContain('They are not merged');
    expect(await statsOf(app, other)).toMatchObject({ played: 1, won: 0 }); // nothing changed yet

    const used = await app.inject({ method: 'POST', url: path, headers: { cookie: other, ...SAME_ORIGIN } });
    expect(used.statusCode).toBe(303);
    expect(used.headers.location).toBe('/stats?moved=1');
    const moved = playerCookie(used);
    expect(await statsOf(app, moved)).toMatchObject({ played: 1, won: 1, byLayout: { garden: { won: 1 } } });
    expect((await app.inject({ url: '/stats?moved=1', headers: { cookie: moved } })).body).toContain(
      'This browser now uses the stats',
    );

    // Used: a second use, from anyone, is refused and changes nothing.
    const again = await app.inject({ method: 'POST', url: path, headers: { cookie: other, ...SAME_ORIGIN } });
    expect(again.statusCode).toBe(410);
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.body).toContain('This link was used');
    expect((await app.inject({ url: path, headers: { cookie: other } })).statusCode).toBe(410);
  });

  test('a link expires after 15 minutes', async () => {
    const app = await build({ now: clock.now });
    const path = await makeLink(app, await playerWithWin(app));
    const other = await newPlayer(app);
    clock.advance(14 * 60_000);
    expect((await app.inject({ url: path, headers: { cookie: other } })).statusCode).toBe(200);
    clock.advance(60_000);
    const res = await app.inject({ method: 'POST', url: path, headers: { cookie: other, ...SAME_ORIGIN } });
    expect(res.statusCode).toBe(410);
    expect(res.body).toContain('This link has expired');
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  test('forged, malformed and unknown tokens are 404; a cross-site POST is refused', async () => {
    const app = await build({ now: clock.now });
    const path = await makeLink(app, await playerWithWin(app));
    const other = await newPlayer(app);
    const forged = path.slice(0, -1) + (path.endsWith('A') ? 'B' : 'A');
    for (const url of [forged, '/transfer/short', `/transfer/${'x'.repeat(64)}`, '/transfer/%3Cscript%3E']) {
      expect((await app.inject({ url, headers: { cookie: other } })).statusCode, url).toBe(404);
      const post = await app.inject({ method: 'POST', url, headers: { cookie: other, ...SAME_ORIGIN } });
      expect(post.statusCode, url).toBe(404);
      expect(post.headers['set-cookie']).toBeUndefined();
    }
    const crossSite = await app.inject({
      method: 'POST',
      url: path,
      headers: { cookie: other, origin: 'https://evil.example', 'sec-fetch-site': 'cross-site' },
    });
    expect(crossSite.statusCode).toBe(403);
    const nullOrigin = await app.inject({ method: 'POST', url: path, headers: { cookie: other, origin: 'null' } });
    expect(nullOrigin.statusCode).toBe(403); // an opaque origin and no word from the browser: refused
    // The real link still works after all that, posted as Chromium posts a form of ours under
    // Referrer-Policy: no-referrer (Origin: null, Sec-Fetch-Site: same-origin).
    const chromiumForm = await app.inject({
      method: 'POST',
      url: path,
      headers: { cookie: other, origin: 'null', 'sec-fetch-site': 'same-origin' },
    });
    expect(chromiumForm.statusCode).toBe(303);
  });

  test('opening your own link changes nothing; a player with no games cannot make one; making links is rate limited', async () => {
    const app = await build({ now: clock.now });
    const cookie = await playerWithWin(app);
    const path = await makeLink(app, cookie);
    expect((await app.inject({ url: path, headers: { cookie } })).body).toContain('already that player');
    const fresh = await newPlayer(app);
    const none = await app.inject({
      method: 'POST',
      url: '/stats/transfer',
      headers: { cookie: fresh, ...SAME_ORIGIN },
    });
    expect(none.statusCode).toBe(409);
    expect(none.body).toContain('nothing to move yet');
    let last = 0;
    for (let i = 0; i < 12; i++)
      last = (await app.inject({ method: 'POST', url: '/stats/transfer', headers: { cookie, ...SAME_ORIGIN } }))
        .statusCode;
    expect(last).toBe(429);
  });

  test('the database keeps only a hash of the token', async () => {
    const app = await build({ now: clock.now });
    const path = await makeLink(app, await playerWithWin(app));
    const token = path.split('/').pop()!;
    const rows = (await query(app, 'SELECT token_hash FROM transfers')) as { token_hash: string }[];
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(token);
  });
});

describe('exports', () => {
  test('CSV and JSON: every game, one row each, oldest first, with links', async () => {
    const app = await build({ now: clock.now });
    const cookie = await playerWithWin(app);
    const unfinished = await createGame(app, cookie, { layout: 'turtle', seed: '-2-3' }); // a seed a spreadsheet would compute
    await postMoves(app, cookie, unfinished.id, solutionMoves(unfinished).slice(0, 1));

    const csv = await app.inject({ url: '/stats/export.csv', headers: { cookie } });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.headers['content-disposition']).toBe('attachment; filename="mahjong-games-2026-12-01.csv"');
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe(
      'layout,seed,mode,started,finished,result,time_ms,ranked,hints,shuffles,undos,moves,link,ranked_ms,band,achievements',
    );
    expect(lines[1]).toMatch(
      /^garden,mine,relaxed,2026-12-01T10:00:00\.000Z,2026-12-01T10:00:\d\d\.\d{3}Z,won,\d+,true,0,0,0,\d+,\/play\/garden\/mine,\d+,(easy|medium|hard|expert),first-win first-clean-win band-\1( expert-no-hints)?$/,
    );
    expect(lines.at(-1)).toMatch(
      /^turtle,"'-2-3",relaxed,[^,]+,,unfinished,,false,0,0,0,1,\/play\/turtle\/-2-3,,(easy|medium|hard|expert),$/,
    );
    expect(csv.body).not.toMatch(/(^|,)-2-3/m); // a spreadsheet never sees a formula

    const json = await app.inject({ url: '/stats/export.json', headers: { cookie } });
    expect(json.statusCode).toBe(200);
    const games = json.json();
    expect(games).toHaveLength(lines.length - 1);
    expect(games[0]).toMatchObject({
      layout: 'garden',
      seed: 'mine',
      mode: 'relaxed',
      result: 'won',
      ranked: true,
      hints: 0,
      link: '/play/garden/mine', // a path without PUBLIC_ORIGIN: never the Host header
    });
    // The win earns its deal's band too (the band the game began with), and an expert one without a hint more
    const band = games[0].band as string;
    expect(['easy', 'medium', 'hard', 'expert']).toContain(band);
    expect(games[0].achievements).toEqual([
      'first-win',
      'first-clean-win',
      `band-${band}`,
      ...(band === 'expert' ? ['expert-no-hints'] : []),
    ]);
    expect(games.at(-1)).toMatchObject({
      seed: '-2-3',
      result: 'unfinished',
      finished: null,
      timeMs: null,
      achievements: [],
    });
  });

  test('pages of 500: 1,203 games come out whole, in order', async () => {
    const app = await build({ now: clock.now, rateLimit: false });
    const cookie = await playerWithWin(app);
    const playerId = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    const dealId = ((await query(app, 'SELECT id FROM deals LIMIT 1'))[0] as { id: number }).id;
    // One statement both backends run: 1,202 games started at 0, 1, 2… ms.
    await query(
      app,
      `WITH RECURSIVE n (i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 1201)
       INSERT INTO games (id, player_id, deal_id, layout, status, tiles_left, started_at, updated_at, shown_at, paced_at)
       SELECT 'bulk' || i, ?, ?, 'garden', 'playing', 10, i, i, i, i FROM n`,
      playerId,
      dealId,
    );
    const games = (await app.inject({ url: '/stats/export.json', headers: { cookie } })).json();
    expect(games).toHaveLength(1203);
    const csv = (await app.inject({ url: '/stats/export.csv', headers: { cookie } })).body.trimEnd().split('\r\n');
    expect(csv).toHaveLength(1204);
  });

  test('no games: a clear 404, nothing made', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    const csv = await app.inject({ url: '/stats/export.csv', headers: { cookie } });
    expect(csv.statusCode).toBe(404);
    expect(csv.body).toContain('no games to export yet');
    const json = await app.inject({ url: '/stats/export.json' });
    expect(json.statusCode).toBe(404);
    expect(json.json()).toEqual({
      error: 'you have no games to export yet: play one, and it is here',
      code: 'ERR_NO_GAMES',
    });
    expect(((await query(app, 'SELECT COUNT(*) AS n FROM players'))[0] as { n: number }).n).toBe(0);
  });

  test('CSV fields: quotes doubled, formulas neutralised', () => {
    expect(csvField('plain')).toBe('plain');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=1+1')).toBe(`"'=1+1"`);
    expect(csvField('-2')).toBe(`"'-2"`);
    expect(csvField(-2)).toBe('-2'); // numbers are numbers
    expect(csvField(null)).toBe('');
  });
});
