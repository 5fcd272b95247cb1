/**
 * Fair play (docs/fair-play.md, "The rule"): ranked times run from the deal's first view, only paced wins are
 * ranked, daily tables rank games shown and started on their day (one line per player), past
 * dailies and the calendar, a deal's own record, and the rule's arithmetic.
 */
import { beforeEach, describe, expect, test } from 'vitest';
import {
  PACE_BURST,
  PAIR_FLOOR_MS,
  fastestRankedMs,
  paceAfter,
  paceStart,
} from '../../../src/server/services/fair-play.ts';
import { build, createGame, newPlayer, playPaced, postMoves, solutionMoves, testClock } from '../helper.ts';
import type { Unranked } from '../../../src/shared/api.ts';

const clock = testClock(Date.UTC(2026, 11, 1, 10));
beforeEach(() => clock.set(Date.UTC(2026, 11, 1, 10)));

const match = { type: 'match' as const, a: 0, b: 1 };
const pairs = (n: number) => Array.from({ length: n }, () => match);

describe('the pace rule', () => {
  test('a first batch of more than the burst is too fast, whenever it comes', () => {
    const start = { unranked: null, paced_at: paceStart(0) };
    expect(paceAfter(start, pairs(PACE_BURST), 0, true).unranked).toBeNull();
    expect(paceAfter(start, pairs(PACE_BURST + 1), 3_600_000, true).unranked).toBe('fast');
  });

  test('later batches: the burst plus a pair per floor since the deal was shown, however they are split', () => {
    let game = { unranked: null as 'fast' | null, paced_at: paceStart(0) };
    game = { ...game, ...mapPace(paceAfter(game, pairs(1), 1000, true)) };
    // 30 s after the show: 6 + 42 pairs allowed in all; 1 came first.
    const ok = paceAfter(game, pairs(PACE_BURST + 42 - 1), 30_000 - 400, false);
    expect(ok.unranked).toBeNull();
    expect(paceAfter(game, pairs(PACE_BURST + 43), 30_000, false).unranked).toBe('fast');
    // Once too fast, always unranked.
    expect(paceAfter({ unranked: 'fast', paced_at: -1e9 }, pairs(1), 1e9, false).unranked).toBe('fast');
  });

  test('waiting, hints, undos and shuffles never hurt', () => {
    const game = { unranked: null, paced_at: paceStart(0) };
    const other = [
      { type: 'undo' as const },
      { type: 'redo' as const },
      { type: 'shuffle' as const },
      { type: 'hint' as const },
    ];
    expect(paceAfter(game, Array(200).fill(other).flat(), 0, true).unranked).toBeNull();
    expect(paceAfter(game, pairs(72), 600_000, false).unranked).toBeNull();
  });

  test('the fastest ranked turtle time is 46.2 s', () => {
    expect(fastestRankedMs(72)).toBe((72 - PACE_BURST) * PAIR_FLOOR_MS);
    expect(fastestRankedMs(72)).toBe(46_200);
  });
});

function mapPace(p: { pacedAt: number; unranked: Unranked | null }) {
  return { paced_at: p.pacedAt, unranked: p.unranked as 'fast' | null };
}

describe('ranked times', () => {
  test("a script's instant win counts but is unranked; a paced one is ranked from the deal's first view", async () => {
    const app = await build({ now: clock.now });
    const script = await newPlayer(app);
    const game = await createGame(app, script, { layout: 'turtle', seed: 'daily-2026-12-01' });
    const instant = (await postMoves(app, script, game.id, solutionMoves(game))).json();
    expect(instant).toMatchObject({ status: 'won', timeMs: 0, ranked: false, unranked: 'fast', dailyRank: null });
    const scriptStats = (await app.inject({ url: '/api/stats', headers: { cookie: script } })).json();
    expect(scriptStats).toMatchObject({ won: 1 });
    expect(scriptStats.history[0]).toMatchObject({ result: 'won', ranked: false });

    // A person opens the page, looks at the board for two minutes, then plays.
    const person = await newPlayer(app);
    const page = await app.inject({ url: '/play/turtle/daily-2026-12-01', headers: { cookie: person } });
    expect(page.body).toMatch(/id="deal-stats"[^>]*data-elapsed="0"/);
    clock.advance(120_000);
    const again = await app.inject({ url: '/play/turtle/daily-2026-12-01', headers: { cookie: person } });
    expect(again.body).toMatch(/id="deal-stats"[^>]*data-elapsed="120000"/); // the clock started at the first view
    const theirs = await createGame(app, person, { layout: 'turtle', seed: 'daily-2026-12-01' });
    const won = (await playPaced(app, person, theirs.id, solutionMoves(theirs), clock.advance)).json();
    expect(won).toMatchObject({
      status: 'won',
      ranked: true,
      unranked: null,
      dailyRank: 1,
      timeMs: 120_000 + 13 * 4200,
    });
    expect(won.shownAt).toBe(Date.UTC(2026, 11, 1, 10));

    const daily = (await app.inject({ url: '/daily', headers: { cookie: person } })).body;
    expect(daily).toContain('2:54'); // the person's ranked time
    expect(daily.match(/<tr( class="you")?>\s*<td class="num">\d+<\/td>/g)).toHaveLength(1); // the script is not on the table
  });

  test('moves that arrive too fast later make the game unranked; the time still counts for the player', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'pace' });
    const moves = solutionMoves(game);
    expect((await postMoves(app, cookie, game.id, moves.slice(0, 1))).statusCode).toBe(200);
    clock.advance(2000); // 6 + 2 pairs allowed by now in all; 20 arrive
    const res = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/moves`,
      headers: { cookie },
      payload: { at: 1, moves: moves.slice(1) },
    });
    expect(res.json()).toMatchObject({ status: 'won', ranked: false, unranked: 'fast', timeMs: 2000 });
  });

  test.each([
    ['a check', [{ type: 'check', heard: 'yes' }]],
    ['a hint', [{ type: 'hint' }]],
    ['checks and hints', [{ type: 'hint' }, { type: 'check', heard: 'unknown' }, { type: 'hint' }]],
  ])('%s sent first does not let the whole solution in next: every batch counts for the first', async (_, ahead) => {
    const app = await build({ now: clock.now });
    const script = await newPlayer(app);
    const game = await createGame(app, script, { layout: 'turtle', seed: 'daily-2026-12-01' });
    expect((await postMoves(app, script, game.id, ahead)).statusCode).toBe(200);
    clock.advance(60_000); // past the 46.2 s floor: only the first-batch cap can tell
    const res = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/moves`,
      headers: { cookie: script },
      payload: { at: ahead.length, moves: solutionMoves(game) },
    });
    expect(res.json()).toMatchObject({ status: 'won', ranked: false, unranked: 'fast', dailyRank: null });
    const daily = (await app.inject({ url: '/daily', headers: { cookie: script } })).body;
    expect(daily).not.toMatch(/<tr( class="you")?>\s*<td class="num">\d+<\/td>/); // not on the table

    // A person who asks first, then plays at a person's pace, is still ranked.
    const person = await newPlayer(app);
    const theirs = await createGame(app, person, { layout: 'turtle', seed: 'daily-2026-12-01' });
    expect((await postMoves(app, person, theirs.id, ahead)).statusCode).toBe(200);
    const moves = [...ahead, ...solutionMoves(theirs)];
    const won = (await playPaced(app, person, theirs.id, moves, clock.advance)).json();
    expect(won).toMatchObject({ status: 'won', ranked: true, unranked: null, dailyRank: 1 });
  });

  test('the daily table: games shown and started on the day, one line per player (their best)', async () => {
    const app = await build({ now: clock.now });
    const alice = await newPlayer(app);
    // Alice wins twice today: her best stands, once.
    for (let i = 0; i < 2; i++) {
      const game = await createGame(app, alice, { layout: 'turtle', seed: 'daily-2026-12-01' });
      await playPaced(app, alice, game.id, solutionMoves(game), clock.advance);
    }
    // Bob opens tomorrow's deal today and wins it tomorrow: not on tomorrow's table (he saw it early).
    const bob = await newPlayer(app);
    await app.inject({ url: '/play/turtle/daily-2026-12-02', headers: { cookie: bob } });
    clock.set(Date.UTC(2026, 11, 2, 0, 30));
    const early = await createGame(app, bob, { layout: 'turtle', seed: 'daily-2026-12-02' });
    expect((await playPaced(app, bob, early.id, solutionMoves(early), clock.advance)).json()).toMatchObject({
      ranked: true,
      dailyRank: null,
    });
    // Carol plays yesterday's deal today: it counts for her, not on that day's table.
    const carol = await newPlayer(app);
    const late = await createGame(app, carol, { layout: 'turtle', seed: 'daily-2026-12-01' });
    expect((await playPaced(app, carol, late.id, solutionMoves(late), clock.advance)).json()).toMatchObject({
      status: 'won',
      dailyRank: null,
    });

    const yesterday = (await app.inject({ url: '/daily/2026-12-01', headers: { cookie: alice } })).body;
    expect(yesterday.match(/<tr( class="you")?>\s*<td class="num">\d+<\/td>/g)).toHaveLength(1); // Alice, once
    expect(yesterday).toContain('class="you"');
    expect((await app.inject({ url: '/daily' })).body).toContain('No one has cleared');
    // Carol's calendar marks 1 December as won after its day.
    const calendar = (await app.inject({ url: '/daily/2026-12-01', headers: { cookie: carol } })).body;
    expect(calendar).toMatch(/data-day="2026-12-01" data-state="late"/);
  });
});

describe('past dailies and the calendar', () => {
  test('every day from the first to today; future, impossible, malformed and too early dates are 404', async () => {
    const app = await build({ now: clock.now });
    const past = await app.inject({ url: '/daily/2026-11-30' });
    expect(past.statusCode).toBe(200);
    expect(past.body).toContain('href="/play/turtle/daily-2026-11-30"');
    expect(past.body).toContain('The Turtle of 30 November 2026');
    expect((await app.inject({ url: '/daily/2026-12-01' })).statusCode).toBe(200); // today, at its own address too
    for (const url of [
      '/daily/2026-12-02',
      '/daily/2027-01-01',
      '/daily/2026-02-30',
      '/daily/2026-13-01',
      '/daily/yesterday',
      '/daily/2026-1-1',
      '/daily/2025-12-31',
      `/daily/${'9'.repeat(80)}`,
    ]) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
    }
    expect((await app.inject({ url: '/daily/2026-12-02' })).body).toContain('not out yet');
  });

  test("the month's calendar: days won on their day (clean or not), today, links to past days, the daily streak", async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    // Won 30 November on its day (clean), then 1 December on its day with a hint.
    clock.set(Date.UTC(2026, 10, 30, 9));
    const nov = await createGame(app, cookie, { layout: 'turtle', seed: 'daily-2026-11-30' });
    await playPaced(app, cookie, nov.id, solutionMoves(nov), clock.advance);
    clock.set(Date.UTC(2026, 11, 1, 9));
    const dec = await createGame(app, cookie, { layout: 'turtle', seed: 'daily-2026-12-01' });
    await playPaced(app, cookie, dec.id, [{ type: 'hint' }, ...solutionMoves(dec)], clock.advance);

    const page = (await app.inject({ url: '/daily', headers: { cookie } })).body;
    expect(page).toContain('December 2026');
    expect(page).toMatch(/class="cal-day cal-won cal-today cal-current" data-day="2026-12-01" data-state="won"/);
    expect(page).toMatch(/data-day="2026-12-15" data-state="future"/);
    expect(page).toContain('href="/daily/2026-11-30"'); // the month before
    expect(page).toMatch(/data-streak="2"/);
    const november = (await app.inject({ url: '/daily/2026-11-30', headers: { cookie } })).body;
    expect(november).toContain('November 2026');
    expect(november).toMatch(/data-day="2026-11-30" data-state="clean"/);
    expect(november).toMatch(/data-day="2026-11-29" data-state="open"/);
    expect(november).not.toContain('href="/daily/2026-11-29"'); // before the first daily
    expect(november).toContain('href="/daily"'); // December is today's month
    // Two days later without a daily win the streak is over.
    clock.set(Date.UTC(2026, 11, 3, 9));
    expect((await app.inject({ url: '/daily', headers: { cookie } })).body).toMatch(/data-streak="0"/);
  });
});

describe("a deal's own record", () => {
  test('players who opened and won the link, its best ranked times, the same on both modes', async () => {
    const app = await build({ now: clock.now });
    const a = await newPlayer(app);
    const b = await newPlayer(app);
    const url = '/play/garden/friends';
    await app.inject({ url, headers: { cookie: a } });
    await app.inject({ url, headers: { cookie: a } }); // the same player again: still one
    await app.inject({ url, headers: { cookie: b } });
    const game = await createGame(app, a, { layout: 'garden', seed: 'friends' });
    clock.advance(60_000);
    await playPaced(app, a, game.id, solutionMoves(game), clock.advance);
    const page = (await app.inject({ url, headers: { cookie: b } })).body;
    expect(page).toMatch(/id="deal-stats"[^>]*data-played="2" data-won="1"/);
    expect(page).toMatch(
      /<ol class="deal-best"[^>]*>\s*<li><span class="deal-best-name">Anonymous player<\/span> <span class="deal-best-time">1:/,
    );
    const own = (await app.inject({ url, headers: { cookie: a } })).body;
    expect(own).toContain('<li class="you">');
    const classic = (await app.inject({ url: `${url}?mode=classic`, headers: { cookie: b } })).body;
    expect(classic).toMatch(/id="deal-stats"[^>]*data-played="1" data-won="0"/); // another deal, another record
    expect(classic).toContain('No ranked time yet');
  });

  test('an unranked win counts as a winner but sets no time', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'bot' });
    await postMoves(app, cookie, game.id, solutionMoves(game));
    const page = (await app.inject({ url: '/play/garden/bot', headers: { cookie } })).body;
    expect(page).toMatch(/data-played="1" data-won="1"/);
    expect(page).toContain('No ranked time yet');
  });

  test('the deal API shows the deal to a player who sends their cookie: their time starts there', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    expect((await app.inject({ url: '/api/deals/garden/api-view', headers: { cookie } })).statusCode).toBe(200);
    clock.advance(30_000);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'api-view' });
    const won = (await playPaced(app, cookie, game.id, solutionMoves(game), clock.advance)).json();
    expect(won.timeMs - (clock.now() - won.finishedAt)).toBeGreaterThanOrEqual(30_000);
    expect(won.shownAt).toBe(Date.UTC(2026, 11, 1, 10));
  });
});

describe('a first view without a cookie (the page writes nothing, its stamp proves the view)', () => {
  /** A first visit: the page, its player cookie and its stamp, as a browser keeps them. */
  async function firstVisit(app: Awaited<ReturnType<typeof build>>, url: string) {
    const page = await app.inject({ url });
    expect(page.statusCode).toBe(200);
    const jar = (name: string) => page.cookies.find((c) => c.name === name);
    const stamp = jar('mj_seen')!;
    expect(stamp).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    return { page, cookie: `mj_player=${jar('mj_player')!.value}`, stamp: `mj_seen=${stamp.value}` };
  }

  test('the game started later runs from the page shown before the cookie, as when the view was written', async () => {
    const app = await build({ now: clock.now });
    const shown = clock.now();
    const { cookie, stamp } = await firstVisit(app, '/play/garden/stamped');
    clock.advance(45_000); // the player looks at the board before the first move
    const game = await createGame(app, `${cookie}; ${stamp}`, { layout: 'garden', seed: 'stamped' });
    const won = (await playPaced(app, `${cookie}; ${stamp}`, game.id, solutionMoves(game), clock.advance)).json();
    expect(won.shownAt).toBe(shown);
    expect(won.timeMs).toBe(won.finishedAt - shown);
    // The deal's record counts the player once, from the stamp, and a reload clears it (done its work).
    const again = await app.inject({ url: '/play/garden/stamped', headers: { cookie: `${cookie}; ${stamp}` } });
    expect(again.body).toMatch(/id="deal-stats"[^>]*data-played="1" data-won="1"/);
    expect(again.cookies.find((c) => c.name === 'mj_seen')).toMatchObject({ value: '' });
  });

  test('a reload with the cookie counts from the first view; the clock on the page says so', async () => {
    const app = await build({ now: clock.now });
    const { cookie, stamp } = await firstVisit(app, '/play/garden/reload');
    clock.advance(20_000);
    const reload = await app.inject({ url: '/play/garden/reload', headers: { cookie: `${cookie}; ${stamp}` } });
    expect(reload.body).toMatch(/id="deal-stats"[^>]*data-played="1" data-won="0" data-elapsed="20000"/);
    clock.advance(10_000);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'reload' }); // the stamp is gone: the view is stored
    expect(game).toMatchObject({ layout: 'garden' });
    const row = (await app.inject({ url: '/play/garden/reload', headers: { cookie } })).body;
    expect(row).toMatch(/data-elapsed="30000"/);
  });

  test("a stamp proves only its own player's view of its own deal; a forged one proves nothing", async () => {
    const app = await build({ now: clock.now });
    const first = await firstVisit(app, '/play/garden/mine');
    const other = await newPlayer(app);
    clock.advance(60_000);
    const start = clock.now();
    // Another player sending it, a game of another deal, a tampered signature: each starts its time now.
    for (const [who, seed, stamp] of [
      [other, 'mine', first.stamp],
      [first.cookie, 'other-deal', first.stamp],
      [first.cookie, 'mine', first.stamp.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'))],
    ] as const) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie: `${who}; ${stamp}` },
        payload: { layout: 'garden', seed },
      });
      expect(res.statusCode).toBe(201);
      const page = (await app.inject({ url: `/play/garden/${seed}`, headers: { cookie: who } })).body;
      expect(page).toMatch(/data-elapsed="0"/); // shown at the game's start, not at the first visit
      expect(start).toBe(clock.now());
    }
  });
});

describe('the win answer and the home page', () => {
  test('a win suggests a layout not played yet; the home page marks won layouts and suggests one', async () => {
    const app = await build({ now: clock.now });
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'home' });
    const won = (await playPaced(app, cookie, game.id, solutionMoves(game), clock.advance)).json();
    expect(won.next).toMatchObject({ url: expect.stringMatching(/^\/play\/[a-z-]+$/) });
    expect(won.next.id).not.toBe('garden');
    expect(won.again).toBe('/play/garden');
    const home = (await app.inject({ url: '/', headers: { cookie } })).body;
    expect(home).toMatch(
      /<li class="layout-card" data-mark="clean">[\s\S]*?<h4>Garden <span class="pill success mark">Won clean<\/span>/,
    );
    expect(home).toContain('Not played yet');
    expect(home).toContain(`href="${won.next.url}"`);
    const stranger = (await app.inject({ url: '/' })).body;
    expect(stranger).not.toContain('data-mark=');
    expect(stranger).not.toContain('Not played yet');
  });
});
