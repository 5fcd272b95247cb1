/**
 * Achievements (docs/server.md, "Achievements"): each one earned by the verified win that meets its
 * rule, once, with that win's date and game; announced in the winning batch's answer (and its repeat); listed
 * with progress in /api/stats and on /stats; in the exports; moved by a transfer link; never from a game the
 * server did not verify; and, with two processes verifying two wins of one player at once, awarded once and
 * never lost. Run on SQLite and on PostgreSQL (vitest.config.ts's `postgres` project).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import Database from 'better-sqlite3';
import { FAMILIES, LAYOUTS } from '../../../src/engine/builtins.ts';
import { migrate, readMigrations, type Migration } from '../../../src/server/db/migrate.ts';
import { createPool, migratePostgres } from '../../../src/server/db/postgres.ts';
import { MIGRATIONS_DIR } from '../../../src/server/plugins/database.ts';
import { PG_MIGRATIONS_DIR } from '../../../src/server/plugins/postgres.ts';
import { freshDatabaseUrl } from '../../support/postgres.ts';
import type { Band } from '../../../src/engine/index.ts';
import { dailyLayoutOf } from '../../../src/server/services/daily.ts';
import {
  BACKEND,
  build,
  createGame,
  newPlayer,
  playerCookie,
  postMoves,
  query,
  solutionMoves,
  testClock,
} from '../helper.ts';

const T0 = Date.UTC(2026, 11, 1, 10); // 1 Dec 2026, 10:00 UTC: the turtle's daily deals
const clock = testClock(T0);
beforeEach(() => clock.set(T0));

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };

interface Earned {
  id: string;
  name: string;
  rule: string;
}
interface View {
  id: string;
  earned: boolean;
  earnedAt: number | null;
  game: { id: string; layout: string; seed: string; mode: string; url: string } | null;
  progress: { done: number; goal: number; unit: string } | null;
}

/**
 * Sets the band game `id` counts under (games.band, which a start copies from its deal's stored band and the
 * win's achievements read): null as for a game begun before deals had a band.
 */
const setBand = (app: FastifyInstance, id: string, band: Band | null) =>
  query(app, 'UPDATE games SET band = ? WHERE id = ?', band, id);

/**
 * Wins a deal by its solution (with an undo first when not `clean`, a hint when `hint`); returns the answer.
 * `band`: the game's band; 'dealt' keeps the one its deal was dealt with, and the default, none, keeps the band
 * achievements out of the tests of the others.
 */
async function win(
  app: FastifyInstance,
  cookie: string,
  deal: { layout?: string; seed: string; mode?: 'relaxed' | 'classic' },
  opts: { clean?: boolean; hint?: boolean; band?: Band | null | 'dealt' } = {},
): Promise<{ status: string; achievements: Earned[]; id: string; band: Band }> {
  const game = await createGame(app, cookie, {
    layout: deal.layout ?? 'mushroom',
    seed: deal.seed,
    mode: deal.mode ?? 'relaxed',
  });
  if (opts.band !== 'dealt') await setBand(app, game.id, opts.band ?? null);
  const moves: unknown[] = solutionMoves(game);
  if (opts.clean === false) moves.unshift(moves[0], { type: 'undo' });
  if (opts.hint) moves.unshift({ type: 'hint' });
  clock.advance(60_000);
  const res = await postMoves(app, cookie, game.id, moves, { at: 0 });
  expect(res.statusCode, res.body).toBe(200);
  const answer = res.json();
  expect(answer.status).toBe('won');
  return { ...answer, id: game.id, band: game.difficulty.band };
}

const ids = (earned: readonly Earned[]): string[] => earned.map((a) => a.id);

async function achievements(app: FastifyInstance, cookie: string): Promise<Map<string, View>> {
  const res = await app.inject({ url: '/api/stats', headers: { cookie } });
  expect(res.statusCode, res.body).toBe(200);
  return new Map((res.json().achievements as View[]).map((a) => [a.id, a]));
}

async function player(app: FastifyInstance): Promise<{ cookie: string; id: string }> {
  const cookie = await newPlayer(app);
  return { cookie, id: decodeURIComponent(cookie.split('=')[1]!).split('.')[0]! };
}

describe('achievements', () => {
  test('first win and first clean win: earned once, with the date and the game; the repeat answers the same', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    const before = await achievements(app, cookie);
    expect([...before.values()].every((a) => !a.earned)).toBe(true);
    expect(before.size).toBe(19);

    const first = await win(app, cookie, { seed: 'a' }, { clean: false });
    expect(ids(first.achievements)).toEqual(['first-win']);
    expect(first.achievements[0]).toMatchObject({ name: 'First win', rule: expect.any(String) });
    const clean = await win(app, cookie, { seed: 'b' });
    expect(ids(clean.achievements)).toEqual(['first-clean-win']);
    const third = await win(app, cookie, { seed: 'c' });
    expect(third.achievements).toEqual([]);

    const held = await achievements(app, cookie);
    expect(held.get('first-win')).toMatchObject({
      earned: true,
      earnedAt: T0 + 60_000,
      game: { id: first.id, layout: 'mushroom', seed: 'a', mode: 'relaxed', url: '/play/mushroom/a' },
      progress: null,
    });
    expect(held.get('first-clean-win')).toMatchObject({ earned: true, earnedAt: T0 + 120_000, game: { id: clean.id } });

    // The winning batch sent again (a lost answer): the same achievements, not new ones.
    const game = await query<{ moves_json: string }>(app, 'SELECT moves_json FROM games WHERE id = ?', first.id);
    const repeat = await postMoves(app, cookie, first.id, JSON.parse(game[0]!.moves_json), { at: 0 });
    expect(ids(repeat.json().achievements)).toEqual(['first-win']);
    expect(await query(app, 'SELECT achievement FROM achievements')).toHaveLength(2);
  });

  test('only verified wins: an unfinished game, an illegal batch and a stuck game earn nothing', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    const game = await createGame(app, cookie, { layout: 'mushroom', seed: 'x' });
    const moves = solutionMoves(game);
    expect((await postMoves(app, cookie, game.id, moves.slice(0, -1))).json().achievements).toBeUndefined();
    const [last] = moves.slice(-1);
    const illegal = await postMoves(app, cookie, game.id, [{ type: 'match', a: last!.a, b: last!.a }]);
    expect(illegal.statusCode).toBe(409);
    expect([...(await achievements(app, cookie)).values()].some((a) => a.earned)).toBe(false);
    expect(await query(app, 'SELECT * FROM achievements')).toEqual([]);
  });

  test('first classic win', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    await win(app, cookie, { seed: 'r' });
    const classic = await win(app, cookie, { seed: 'c', mode: 'classic' });
    expect(ids(classic.achievements)).toEqual(['first-classic-win']);
    expect((await achievements(app, cookie)).get('first-classic-win')?.game).toMatchObject({
      mode: 'classic',
      url: '/play/mushroom/c?mode=classic',
    });
  });

  test('ten wins and ten clean wins, with progress on the way', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    for (let i = 1; i <= 9; i++) await win(app, cookie, { seed: `w${i}` }, { clean: i % 3 !== 0 });
    const open = await achievements(app, cookie);
    expect(open.get('wins-10')).toMatchObject({ earned: false, progress: { done: 9, goal: 10, unit: 'wins' } });
    expect(open.get('clean-10')).toMatchObject({ earned: false, progress: { done: 6, goal: 10, unit: 'clean wins' } });
    expect(ids((await win(app, cookie, { seed: 'w10' })).achievements)).toEqual(['wins-10']);
    for (let i = 11; i <= 12; i++) await win(app, cookie, { seed: `w${i}` });
    expect(ids((await win(app, cookie, { seed: 'w13' })).achievements)).toEqual(['clean-10']);
    expect((await achievements(app, cookie)).get('wins-10')?.progress).toBeNull();
  });

  test('a hundred and a thousand wins: the count includes wins from before', async () => {
    const app = await build({ now: clock.now });
    const { cookie, id } = await player(app);
    await win(app, cookie, { seed: 'one' });
    await query(app, 'UPDATE player_layouts SET won = 99 WHERE player_id = ?', id); // 98 wins more, as if before
    expect((await achievements(app, cookie)).get('wins-100')?.progress).toMatchObject({ done: 99, goal: 100 });
    expect(ids((await win(app, cookie, { seed: 'hundred' })).achievements)).toEqual(['wins-10', 'wins-100']);
    await query(app, 'UPDATE player_layouts SET won = 999 WHERE player_id = ?', id);
    expect(ids((await win(app, cookie, { seed: 'thousand' })).achievements)).toEqual(['wins-1000']);
  });

  test('a win in each band, every band, and an expert win without hints', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    await win(app, cookie, { seed: 'no-band' });
    expect(ids((await win(app, cookie, { seed: 'b-easy' }, { band: 'easy' })).achievements)).toEqual(['band-easy']);
    expect((await achievements(app, cookie)).get('every-band')?.progress).toMatchObject({
      done: 1,
      goal: 4,
      unit: 'bands',
    });
    expect(ids((await win(app, cookie, { seed: 'b-medium' }, { band: 'medium' })).achievements)).toEqual([
      'band-medium',
    ]);
    expect(ids((await win(app, cookie, { seed: 'b-hard' }, { band: 'hard' })).achievements)).toEqual(['band-hard']);
    // An expert win with a hint: the band, and every band, but not the unaided expert.
    const hinted = await win(app, cookie, { seed: 'b-expert' }, { hint: true, band: 'expert' });
    expect(ids(hinted.achievements)).toEqual(['band-expert', 'every-band']);
    // Shuffles and undos are allowed: only hints count against it.
    const unaided = await win(app, cookie, { seed: 'b-expert2' }, { clean: false, band: 'expert' });
    expect(ids(unaided.achievements)).toEqual(['expert-no-hints']);
  });

  test('a band achievement from a real deal: the band measured when it was dealt, stored with it and its game', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    const won = await win(app, cookie, { layout: 'turtle', seed: 'measured' }, { band: 'dealt' });
    const [row] = await query<{ game_band: string; deal_band: string }>(
      app,
      'SELECT g.band AS game_band, d.band AS deal_band FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?',
      won.id,
    );
    // The deal JSON's band (measured by the engine), the deal's stored band and the game's are one band.
    expect(row).toEqual({ game_band: won.band, deal_band: won.band });
    const expected = [
      'first-win',
      'first-clean-win',
      `band-${won.band}`,
      ...(won.band === 'expert' ? ['expert-no-hints'] : []),
    ];
    expect(ids(won.achievements)).toEqual(expected);
    const view = (await achievements(app, cookie)).get(`band-${won.band}`);
    expect(view).toMatchObject({ earned: true, game: { id: won.id, layout: 'turtle', seed: 'measured' } });
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats.byBand[won.band]).toMatchObject({ played: 1, won: 1, cleanWins: 1 }); // counted where the stats count it
  });

  test('a layout of every family, and every built-in layout (all but one won before: progress, then the last)', async () => {
    const app = await build({ now: clock.now });
    const { cookie, id } = await player(app);
    const smallest = FAMILIES.map((f) => [...f.layouts].sort((a, b) => a.slots.length - b.slots.length)[0]!.id);
    for (const [i, layout] of smallest.entries()) {
      const answer = await win(app, cookie, { layout, seed: 'fam' });
      expect(ids(answer.achievements).includes('every-family'), layout).toBe(i === smallest.length - 1);
    }
    const open = await achievements(app, cookie);
    expect(open.get('every-family')?.earned).toBe(true);
    expect(open.get('every-layout')?.progress).toEqual({
      done: FAMILIES.length,
      goal: LAYOUTS.length,
      unit: 'layouts',
    });
    // Every other built-in layout but the last one won before, as a player of the days before would have.
    const last = 'diamond';
    for (const layout of LAYOUTS.map((l) => l.id).filter((l) => l !== last && !smallest.includes(l)))
      await query(app, 'INSERT INTO player_layouts (player_id, layout, played, won) VALUES (?, ?, 1, 1)', id, layout);
    expect((await achievements(app, cookie)).get('every-layout')?.progress?.done).toBe(LAYOUTS.length - 1);
    const page = await app.inject({ url: '/stats', headers: { cookie } });
    expect(page.body).toContain(`Layouts: ${LAYOUTS.length - 1} of ${LAYOUTS.length}`);
    expect(ids((await win(app, cookie, { layout: last, seed: 'last' })).achievements)).toEqual([
      'wins-10',
      'every-layout',
    ]);
  });

  // A small board of the player's own deals "hard" and "expert" deals cleared in seconds: its bands are not
  // calibrated, so its games count in no band (services/games.ts CALIBRATED_MIN_TILES).
  test('a win on a 14-tile custom layout earns no band achievement; a built-in win does', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    const slots = [
      ...[0, 2, 4].flatMap((x) => [0, 2, 4, 6].map((y) => ({ x, y, z: 0 }))),
      { x: 2, y: 2, z: 1 },
      { x: 2, y: 4, z: 1 },
    ];
    const saved = await app.layouts.save({
      slots,
      name: 'Farm',
      typed: true,
      playerId: 'layout-saver',
      client: '203.0.113.9',
    });
    if (!saved.ok) throw new Error(saved.message);
    const small = await win(app, cookie, { layout: saved.id, seed: 'farm' }, { band: 'dealt' });
    expect(ids(small.achievements).filter((id) => id.startsWith('band-') || id === 'every-band')).toEqual([]);
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(Object.values(stats.byBand as Record<string, { played: number }>).every((b) => b.played === 0)).toBe(true);
    const builtin = await win(app, cookie, { layout: 'mushroom', seed: 'calibrated' }, { band: 'dealt' });
    expect(ids(builtin.achievements)).toContain(`band-${builtin.band}`);
  });

  test('a week of wins, and the daily deal on its day: first, 7 and 30 days in a row', async () => {
    const app = await build({ now: clock.now });
    const { cookie, id } = await player(app);
    const day = (n: number) => new Date(T0 + n * 86_400_000).toISOString().slice(0, 10);
    for (let n = 0; n < 7; n++) {
      clock.set(T0 + n * 86_400_000);
      const answer = await win(app, cookie, { layout: 'turtle', seed: `daily-${day(n)}` });
      const expected =
        n === 0 ? ['first-win', 'first-clean-win', 'daily-first'] : n === 6 ? ['streak-7', 'daily-7'] : [];
      expect(ids(answer.achievements), day(n)).toEqual(expected);
      if (n === 3)
        expect((await achievements(app, cookie)).get('daily-7')?.progress).toEqual({ done: 4, goal: 7, unit: 'days' });
    }
    // A daily deal won after its day counts as a win, not in the daily streak.
    clock.set(T0 + 8 * 86_400_000);
    expect(ids((await win(app, cookie, { layout: 'turtle', seed: `daily-${day(7)}` })).achievements)).toEqual([]);
    // 29 days in a row of daily wins before (the runs as the days keep them), then the 30th.
    const from = Date.parse('2027-02-01T10:00:00Z');
    for (let n = 0; n < 29; n++) {
      const d = new Date(from + n * 86_400_000).toISOString().slice(0, 10);
      await query(
        app,
        'INSERT INTO player_days (player_id, day, wins, run, daily, daily_run) VALUES (?, ?, 1, ?, 1, ?)',
        id,
        d,
        n + 1,
        n + 1,
      );
    }
    const thirtieth = new Date(from + 29 * 86_400_000);
    clock.set(thirtieth.getTime());
    const date = thirtieth.toISOString().slice(0, 10);
    const answer = await win(app, cookie, { layout: dailyLayoutOf(date), seed: `daily-${date}` });
    expect(ids(answer.achievements)).toEqual(['daily-30']);
    expect((await achievements(app, cookie)).get('daily-30')).toMatchObject({ earned: true, earnedAt: clock.now() });
  });

  test('in the exports: each game lists what it earned', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    await win(app, cookie, { seed: 'first' }, { clean: false });
    await win(app, cookie, { seed: 'second' });
    await createGame(app, cookie, { layout: 'mushroom', seed: 'third' });
    const json = (await app.inject({ url: '/stats/export.json', headers: { cookie } })).json();
    expect(json.map((g: { seed: string; achievements: string[] }) => [g.seed, g.achievements])).toEqual([
      ['first', ['first-win']],
      ['second', ['first-clean-win']],
      ['third', []],
    ]);
    const csv = (await app.inject({ url: '/stats/export.csv', headers: { cookie } })).body.trim().split('\r\n');
    expect(csv[0]!.split(',').at(-1)).toBe('achievements');
    expect(csv[1]!.split(',').at(-1)).toBe('first-win');
    expect(csv[2]!.split(',').at(-1)).toBe('first-clean-win');
    expect(csv[3]!.split(',').at(-1)).toBe('');
  });

  test('a transfer link moves the achievements with the stats', async () => {
    const app = await build({ now: clock.now });
    const { cookie } = await player(app);
    await win(app, cookie, { seed: 'mine' });
    const made = await app.inject({ method: 'POST', url: '/stats/transfer', headers: { cookie, ...SAME_ORIGIN } });
    const path = /value="(?:https?:\/\/[^/"]+)?(\/transfer\/[A-Za-z0-9_-]+)"/.exec(made.body)![1]!;
    const other = await newPlayer(app);
    const used = await app.inject({ method: 'POST', url: path, headers: { cookie: other, ...SAME_ORIGIN } });
    expect(used.statusCode).toBe(303);
    const moved = await achievements(app, playerCookie(used));
    expect(moved.get('first-win')).toMatchObject({ earned: true, game: { seed: 'mine' } });
    expect(moved.get('first-clean-win')?.earned).toBe(true);
  });

  test('two processes verifying two wins of one player at once: each achievement once, none lost', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mj-achievements-'));
    const path = join(dir, 'race.db'); // on PostgreSQL: one database for both
    const first = await build({ now: clock.now, databasePath: path });
    const second = await build({ now: clock.now, databasePath: path });
    try {
      const { cookie, id } = await player(first);
      // Every built-in layout won before but two; both are won at once, one on each process.
      const [a, b] = ['ring', 'fish'];
      const games = await Promise.all([
        createGame(first, cookie, { layout: a, seed: 'race' }),
        createGame(second, cookie, { layout: b, seed: 'race' }),
      ]);
      for (const game of games) await setBand(first, game.id, null); // the layouts' achievements only
      for (const layout of LAYOUTS.map((l) => l.id).filter((l) => l !== a && l !== b))
        await query(
          first,
          'INSERT INTO player_layouts (player_id, layout, played, won) VALUES (?, ?, 1, 1)',
          id,
          layout,
        );
      const answers = await Promise.all(
        [first, second].map((app, i) => postMoves(app, cookie, games[i]!.id, solutionMoves(games[i]!), { at: 0 })),
      );
      for (const res of answers) expect(res.statusCode).toBe(200);
      const rows = await query<{ achievement: string; game_id: string }>(
        first,
        'SELECT achievement, game_id FROM achievements WHERE player_id = ? ORDER BY achievement',
        id,
      );
      const once = rows.map((r) => r.achievement);
      expect(once).toEqual([...new Set(once)]);
      expect(once).toEqual(['every-family', 'every-layout', 'first-clean-win', 'first-win', 'wins-10']);
      // Each announced by the answer of the win that earned it, and by no other.
      const announced = answers.flatMap((res) => ids(res.json().achievements));
      expect(announced.sort()).toEqual([...once].sort());
    } finally {
      await Promise.all([first.close(), second.close()]);
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('wins from before: the migration gives the first, clean, classic, 10th and 10th clean wins to their games', async () => {
    const sqliteFiles = readMigrations(MIGRATIONS_DIR);
    const pgFiles = readMigrations(PG_MIGRATIONS_DIR);
    const split = (files: Migration[]) => {
      const at = files.findIndex((m) => m.name.includes('replays_achievements'));
      return [files.slice(0, at), files.slice(at)] as const;
    };
    // One statement runner over either backend, with `?` placeholders.
    let run: (sql: string, ...params: unknown[]) => Promise<Record<string, unknown>[]>;
    let finish: () => Promise<void>;
    let rest: () => Promise<void>;
    if (BACKEND === 'postgres') {
      const pool = createPool({ url: await freshDatabaseUrl() });
      const [before, after] = split(pgFiles);
      await migratePostgres(pool, before);
      run = async (sql, ...params) => {
        let n = 0;
        return (
          await pool.query(
            sql.replace(/\?/g, () => `$${++n}`),
            params,
          )
        ).rows as Record<string, unknown>[];
      };
      rest = async () => void (await migratePostgres(pool, [...before, ...after]));
      finish = () => pool.end();
    } else {
      const db = new Database(':memory:');
      const [before, after] = split(sqliteFiles);
      migrate(db, before);
      run = async (sql, ...params) => {
        const statement = db.prepare(sql);
        if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
        statement.run(...params);
        return [];
      };
      rest = async () => void migrate(db, [...before, ...after]);
      finish = async () => void db.close();
    }
    try {
      for (const player of ['old-player', 'no-wins'])
        await run('INSERT INTO players (id, created_at) VALUES (?, ?)', player, T0);
      await run(
        "INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES ('garden', 'r', 'relaxed', '1', '{}', ?), ('garden', 'c', 'classic', '1', '{}', ?)",
        T0,
        T0,
      );
      const [relaxed, classic] = (await run('SELECT id FROM deals ORDER BY id')).map((r) => Number(r.id));
      // Twelve wins a minute apart (the first with an undo, the fifth classic), then an unfinished game.
      for (let i = 1; i <= 13; i++)
        await run(
          `INSERT INTO games (id, player_id, deal_id, layout, status, result, tiles_left, undos, started_at, updated_at, finished_at, shown_at, paced_at)
           VALUES (?, 'old-player', ?, 'garden', ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          `old-${i}`,
          i === 5 ? classic : relaxed,
          i === 13 ? 'playing' : 'won',
          i === 13 ? null : 'won',
          i === 13 ? 40 : 0,
          i === 1 ? 1 : 0,
          T0 + i * 60_000,
          T0 + i * 60_000,
          i === 13 ? null : T0 + i * 60_000 + 30_000,
          T0 + i * 60_000,
          T0 + i * 60_000,
        );
      await run(
        "INSERT INTO games (id, player_id, deal_id, layout, status, tiles_left, started_at, updated_at, shown_at, paced_at) VALUES ('none-1', 'no-wins', ?, 'garden', 'playing', 40, ?, ?, ?, ?)",
        relaxed,
        T0,
        T0,
        T0,
        T0,
      );
      for (const [day, run_] of [
        ['2026-12-01', 1],
        ['2026-12-02', 2],
        ['2026-12-03', 3],
        ['2026-12-05', 1],
      ] as const)
        await run(
          "INSERT INTO player_days (player_id, day, wins, run, daily, daily_run) VALUES ('old-player', ?, 1, ?, 1, ?)",
          day,
          run_,
          run_,
        );
      await rest();
      const rows = await run(
        'SELECT player_id, achievement, game_id, earned_at FROM achievements ORDER BY earned_at, achievement',
      );
      expect(rows.map((r) => ({ ...r, earned_at: Number(r.earned_at) }))).toEqual([
        { player_id: 'old-player', achievement: 'first-win', game_id: 'old-1', earned_at: T0 + 90_000 },
        { player_id: 'old-player', achievement: 'first-clean-win', game_id: 'old-2', earned_at: T0 + 150_000 },
        { player_id: 'old-player', achievement: 'first-classic-win', game_id: 'old-5', earned_at: T0 + 330_000 },
        { player_id: 'old-player', achievement: 'wins-10', game_id: 'old-10', earned_at: T0 + 630_000 },
        { player_id: 'old-player', achievement: 'clean-10', game_id: 'old-11', earned_at: T0 + 690_000 },
      ]);
      const best = await run('SELECT id, best_daily_streak FROM players ORDER BY id');
      expect(best.map((r) => [r.id, Number(r.best_daily_streak)])).toEqual([
        ['no-wins', 0],
        ['old-player', 3],
      ]);
    } finally {
      await finish();
    }
  });
});
