/**
 * Stats from aggregates: the store's totals, medians and streaks agree with a
 * plain computation over every game (the rules of services/stats.ts: streaks are days in a row with
 * a win), both when migrations 002 and 006 fill the aggregates from existing games and
 * when they are kept up to date game by game (wins arriving in any order, unfinished games between
 * them); the history is paged.
 */
import Database from 'better-sqlite3';
import { describe, expect, test } from 'vitest';
import { migrate, readMigrations } from '../../../src/server/db/migrate.ts';
import { MIGRATIONS_DIR } from '../../../src/server/plugins/database.ts';
import { sqliteSql } from '../../../src/server/db/sql.ts';
import { createGamesStore } from '../../../src/server/stores/games.ts';
import { HISTORY_SIZE } from '../../../src/server/services/stats.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves } from '../helper.ts';

interface G {
  id: string;
  layout: string;
  started: number;
  won: boolean;
  time: number; // ms, when won
  clean: boolean;
}

const DAY = 86_400_000;
const dayOf = (ms: number): number => Math.floor(ms / DAY);

/** The rules, computed the plain way over every game, oldest first; `today` a day number. */
function reference(games: G[], today: number) {
  const sorted = [...games].sort((a, b) => a.started - b.started);
  const winDays = new Set(sorted.filter((g) => g.won).map((g) => dayOf(g.started + g.time)));
  const runTo = (day: number): number => {
    let n = 0;
    while (winDays.has(day - n)) n++;
    return n;
  };
  const best = Math.max(0, ...[...winDays].map(runTo));
  const run = runTo(today) || runTo(today - 1);
  const layouts: Record<
    string,
    { played: number; won: number; clean_wins: number; best_ms: number | null; median_ms: number | null }
  > = {};
  for (const g of sorted) {
    const l = (layouts[g.layout] ??= { played: 0, won: 0, clean_wins: 0, best_ms: null, median_ms: null });
    l.played++;
    if (g.won) {
      l.won++;
      if (g.clean) l.clean_wins++;
    }
  }
  for (const [layout, l] of Object.entries(layouts)) {
    const times = sorted
      .filter((g) => g.won && g.layout === layout)
      .map((g) => g.time)
      .sort((a, b) => a - b);
    if (times.length === 0) continue;
    l.best_ms = times[0]!;
    const mid = times.length >> 1;
    l.median_ms = times.length % 2 ? times[mid]! : (times[mid - 1]! + times[mid]!) / 2;
  }
  return { streak: run, bestStreak: best, layouts };
}

/** A small deterministic PRNG (mulberry32), so a failure can be replayed. */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PLAYER = 'p'.repeat(22);

function setUp(db: Database.Database) {
  db.prepare(
    "INSERT INTO deals (id, layout, seed, mode, generator, deal_json, created_at) VALUES (1, 'turtle', 'a', 'relaxed', '1', '{}', 0), (2, 'garden', 'b', 'relaxed', '1', '{}', 0)",
  ).run();
}

function randomGames(random: () => number, n: number): G[] {
  return Array.from({ length: n }, (_, i) => ({
    id: `g${String(i).padStart(15, '0')}`,
    layout: random() < 0.7 ? 'turtle' : 'garden',
    started: START + Math.floor(random() * 12) * (DAY / 2), // ties on purpose: rowid breaks them
    won: random() < 0.7,
    time: 1000 + Math.floor(random() * DAY), // wins finish on the start's day or the next
    clean: random() < 0.5,
  }));
}

const START = Date.UTC(2026, 10, 1); // 1 November 2026

const compare = async (repo: ReturnType<typeof createGamesStore>, games: G[]) => {
  // Today is the last day a game could finish, or the day after: a streak ending yesterday still runs.
  for (const today of [dayOf(START) + 8, dayOf(START) + 7, dayOf(START) + 5]) {
    const day = (n: number): string => new Date(n * DAY).toISOString().slice(0, 10);
    const rows = await repo.statsOf(PLAYER, {
      historyOffset: 0,
      historyLimit: 10,
      winsLimit: 10,
      today: day(today),
      yesterday: day(today - 1),
    });
    const want = reference(games, today);
    expect({ streak: rows.streak, bestStreak: rows.bestStreak }).toEqual({
      streak: want.streak,
      bestStreak: want.bestStreak,
    });
  }
  const rows = await repo.statsOf(PLAYER, {
    historyOffset: 0,
    historyLimit: 10,
    winsLimit: 10,
    today: '2026-11-09',
    yesterday: '2026-11-08',
  });
  const want = reference(games, dayOf(START) + 8);
  expect(Object.fromEntries(rows.layouts.map(({ layout, ...rest }) => [layout, rest]))).toEqual(want.layouts);
};

describe('stats from aggregates agree with the plain computation', () => {
  test.each([1, 2, 3, 4, 5, 6])('kept game by game, wins in random order (seed %i)', async (seed) => {
    const random = rng(seed);
    const db = new Database(':memory:');
    migrate(db, readMigrations(MIGRATIONS_DIR));
    setUp(db);
    const repo = createGamesStore(sqliteSql(db));
    const games = randomGames(random, 40);
    // Games are stored in start order (as the server does), then won in a random order.
    const byStart = [...games].sort((a, b) => a.started - b.started);
    for (const g of byStart)
      await repo.create({
        id: g.id,
        playerId: PLAYER,
        dealId: g.layout === 'turtle' ? 1 : 2,
        layout: g.layout,
        band: 'medium',
        status: 'playing',
        tilesLeft: 2,
        now: g.started,
        shownAt: g.started,
        pacedAt: g.started,
      });
    const winners = games.filter((g) => g.won).sort(() => random() - 0.5);
    const done: G[] = games.map((g) => ({ ...g, won: false }));
    for (const g of winners) {
      const clean = g.clean ? 0 : 1;
      expect(
        await repo.saveMoves({
          id: g.id,
          expectedCount: 0,
          movesJson: '[]',
          boards: '',
          moveCount: 1,
          status: 'won',
          tilesLeft: 0,
          hints: clean,
          checks: 0,
          checksNo: 0,
          shuffles: 0,
          undos: 0,
          now: g.started + g.time,
          won: true,
          pacedAt: g.started,
          unranked: null,
          rankedMs: g.time,
          dailyDay: null,
          onTable: false,
          playMs: null,
        }),
      ).toBe(true);
      done.find((d) => d.id === g.id)!.won = true;
      await compare(repo, done);
    }
  });

  test.each([7, 8, 9])('filled by migrations 002 and 006 from existing games (seed %i)', async (seed) => {
    const db = new Database(':memory:');
    const all = readMigrations(MIGRATIONS_DIR);
    migrate(
      db,
      all.filter((m) => m.version === 1),
    );
    setUp(db);
    const games = randomGames(rng(seed), 60);
    db.prepare('INSERT INTO players (id, created_at) VALUES (?, 0)').run(PLAYER);
    const insert = db.prepare(
      `INSERT INTO games (id, player_id, deal_id, status, result, tiles_left, hints, started_at, updated_at, finished_at)
       VALUES (?, ?, ?, ?, ?, 0, ?, ?, ?, ?)`,
    );
    for (const g of [...games].sort((a, b) => a.started - b.started))
      insert.run(
        g.id,
        PLAYER,
        g.layout === 'turtle' ? 1 : 2,
        g.won ? 'won' : 'playing',
        g.won ? 'won' : null,
        g.clean ? 0 : 1,
        g.started,
        g.started,
        g.won ? g.started + g.time : null,
      );
    migrate(db, all);
    await compare(createGamesStore(sqliteSql(db)), games);
  });
});

describe('the history is paged', () => {
  test(`${HISTORY_SIZE} games a page, newest first; a page past the end is empty; bad pages are 400`, async () => {
    const app = await build({ rateLimit: false }); // 53 new games in a moment: past the 30 a minute a player may start
    const cookie = await newPlayer(app);
    const n = HISTORY_SIZE + 3;
    for (let i = 0; i < n; i++) await createGame(app, cookie, { layout: 'turtle', seed: `h${i}` });
    const first = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(first).toMatchObject({ played: n, historyPage: 1, historyPages: 2 });
    expect(first.history).toHaveLength(HISTORY_SIZE);
    expect(first.history[0].seed).toBe(`h${n - 1}`);
    const second = (await app.inject({ url: '/api/stats?page=2', headers: { cookie } })).json();
    expect(second.history.map((h: { seed: string }) => h.seed)).toEqual(['h2', 'h1', 'h0']);
    expect((await app.inject({ url: '/api/stats?page=3', headers: { cookie } })).json().history).toEqual([]);
    const page = await app.inject({ url: '/stats?page=2', headers: { cookie } });
    expect(page.body).toContain('Page 2 of 2');
    expect(page.body).toContain('href="/stats?page=1"');
    for (const bad of ['0', '-1', '1.5', 'x', '1e9']) {
      expect((await app.inject({ url: `/api/stats?page=${bad}`, headers: { cookie } })).statusCode, bad).toBe(400);
      expect((await app.inject({ url: `/stats?page=${bad}`, headers: { cookie } })).statusCode, bad).toBe(400);
    }
  });

  test('a win counts in the totals and the chart', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'w1' });
    await postMoves(app, cookie, game.id, solutionMoves(game));
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats).toMatchObject({ played: 1, won: 1, cleanWins: 1, streak: 1, bestStreak: 1 });
    expect(stats.wins).toHaveLength(1);
  });
});
