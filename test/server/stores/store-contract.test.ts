/**
 * The store contract: every behaviour of the stores in src/server/stores/types.ts, run
 * against SQLite and against a real PostgreSQL (test/support/postgres.ts), with the same expectations.
 * Races are real on PostgreSQL (several pooled connections); on SQLite they are interleaved promises.
 */
import { afterEach, describe, expect, test } from 'vitest';
import { layoutById } from '../../../src/engine/builtins.ts';
import { deal as makeDeal, type Band, type Deal } from '../../../src/engine/index.ts';
import { openDatabase } from '../../../src/server/plugins/database.ts';
import { openPostgres } from '../../../src/server/plugins/postgres.ts';
import { createPgStores, createSqliteStores } from '../../../src/server/stores/index.ts';
import { dealKey } from '../../../src/server/schemas/common.ts';
import type { SavedMoves, Stores } from '../../../src/server/stores/types.ts';
import { freshDatabaseUrl, postgresSkip } from '../../support/postgres.ts';
import {
  dealGrowth,
  layoutGrowth,
  layoutNameGrowth,
  nicknameGrowth,
  reviewGrowth,
  ROW_BYTES,
  textGrowth,
} from '../../../src/server/services/growth.ts';

/** One backend's stores (as the `stores` plugin makes them), with what the tests also need. */
interface TestStores extends Stores {
  size(): Promise<number>; // bytes of the database's files (SQLite: its pages; PostgreSQL: tables, indexes, TOAST)
  sql(text: string): Promise<Record<string, unknown>[]>; // a statement of the same text on either backend, its rows
  close(): Promise<void>;
}

const BACKENDS: [string, () => Promise<TestStores>][] = [
  [
    'sqlite',
    async () => {
      const { db } = openDatabase(':memory:');
      return {
        size: async () =>
          (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number),
        sql: async (text) => {
          const statement = db.prepare(text);
          return statement.reader ? (statement.all() as Record<string, unknown>[]) : (statement.run(), []);
        },
        ...createSqliteStores(db),
        close: async () => void db.close(),
      };
    },
  ],
  [
    'postgres',
    async () => {
      const { pool } = await openPostgres({ url: await freshDatabaseUrl({ migrated: true }), poolMax: 6 });
      return {
        size: async () =>
          Number(
            (
              await pool.query<{ n: string }>(
                `SELECT sum(pg_total_relation_size(c.oid)) AS n FROM pg_class c JOIN pg_namespace s ON s.oid = c.relnamespace
                 WHERE s.nspname = 'public' AND c.relkind = 'r'`,
              )
            ).rows[0]!.n,
          ),
        sql: async (text) => (await pool.query(text)).rows as Record<string, unknown>[],
        ...createPgStores(pool),
        close: () => pool.end(),
      };
    },
  ],
];

const DAY = 86_400_000;
const T0 = Date.parse('2026-03-10T12:00:00Z');
const dealJsons = new Map<string, string>();
const dealJson = (seed: string, layout = 'turtle'): string => {
  const key = `${layout}/${seed}`;
  if (!dealJsons.has(key)) {
    const made = makeDeal(layoutById(layout)!, seed);
    if (!made.ok) throw new Error(made.message);
    dealJsons.set(key, JSON.stringify(made.value.deal));
  }
  return dealJsons.get(key)!;
};

describe.each(BACKENDS)('%s stores', (backend, open) => {
  const skip = backend === 'postgres' ? postgresSkip() : '';
  const opened: TestStores[] = [];
  afterEach(async () => {
    await Promise.all(opened.splice(0).map((s) => s.close()));
  });
  const stores = async (): Promise<TestStores> => {
    const s = await open();
    opened.push(s);
    return s;
  };
  const storeDeal = (s: Stores, seed: string, now = T0, layout = 'turtle') =>
    s.deals.store(dealKey(layout, seed, 'relaxed'), '1', dealJson(seed, layout), now);

  let gameNo = 0;
  /** Starts a game of `seed` for `player` at `at`; returns its id. */
  async function start(
    s: Stores,
    player: string,
    seed: string,
    at: number,
    layout = 'turtle',
    band: Band = 'medium',
  ): Promise<string> {
    const d = await storeDeal(s, seed, at, layout);
    const shownAt = await s.games.recordFirstShown(player, d.id, at);
    const id = `g${++gameNo}-${backend}`;
    await s.games.create({
      id,
      playerId: player,
      dealId: d.id,
      layout,
      band,
      status: 'playing',
      tilesLeft: 144,
      now: at,
      shownAt,
      pacedAt: shownAt - 4200,
    });
    return id;
  }
  const saved = (id: string, fields: Partial<SavedMoves> = {}): SavedMoves => ({
    id,
    expectedCount: 0,
    movesJson: '[{"type":"match","a":0,"b":1}]',
    boards: '',
    moveCount: 1,
    status: 'playing',
    tilesLeft: 142,
    hints: 0,
    checks: 0,
    checksNo: 0,
    shuffles: 0,
    undos: 0,
    now: T0,
    won: false,
    pacedAt: T0,
    unranked: null,
    rankedMs: null,
    dailyDay: null,
    onTable: false,
    playMs: null,
    ...fields,
  });
  /** Wins game `id` at `at` (ranked with the given time, on a daily table when `dailyDay`). */
  const win = (s: Stores, id: string, at: number, fields: Partial<SavedMoves> = {}) =>
    s.games.saveMoves(
      saved(id, { status: 'won', tilesLeft: 0, moveCount: 72, won: true, now: at, rankedMs: null, ...fields }),
    );

  describe.skipIf(skip)('growth: what each write adds to the files (services/growth.ts)', () => {
    const N = 400; // writes of each kind: enough that a page more or less (4 or 8 KB) is a few bytes a write
    /** Bytes per write that `write` adds, run N times. */
    async function perWrite(s: TestStores, write: (i: number) => Promise<unknown>): Promise<number> {
      const before = await s.size();
      for (let i = 0; i < N; i++) await write(i);
      return ((await s.size()) - before) / N;
    }

    test('a new deal, a view, a game, a move log, an upload, a name, a transfer link, a replay link and its review: each within its figure', async () => {
      const s = await stores();
      const measured: Record<string, [number, number]> = {}; // kind → [bytes a write, the figure charged]
      measured.deal = [await perWrite(s, (i) => storeDeal(s, `grow-${i}`)), dealGrowth(144)];
      const deals = await Promise.all(Array.from({ length: N }, (_, i) => storeDeal(s, `grow-${i}`)));
      // A view of a deal nobody saw yet: its row and the deal's record.
      measured.view = [
        await perWrite(s, (i) => s.games.recordFirstShown(`view-player-${i}`, deals[i]!.id, T0)),
        ROW_BYTES.firstShown,
      ];
      // A player's first game: the game, the player's row, their totals on the layout.
      const ids: string[] = [];
      const game = ROW_BYTES.game;
      measured.game = [
        await perWrite(s, async (i) => {
          ids.push(`grow-game-${i}`);
          await s.games.create({
            id: `grow-game-${i}`,
            playerId: `view-player-${i}`,
            dealId: deals[i]!.id,
            layout: 'turtle',
            band: 'medium',
            status: 'playing',
            tilesLeft: 144,
            now: T0,
            shownAt: T0,
            pacedAt: T0 - 4200,
          });
        }),
        game,
      ];
      // A game's log and boards: what a 100-move game with two shuffles stores, counted by its characters.
      const log = JSON.stringify(Array.from({ length: 100 }, (_, k) => ({ type: 'match', a: k, b: k + 1 })));
      const boards = 'b1'.repeat(144 * 2);
      measured.moves = [
        await perWrite(s, (i) => s.games.saveMoves(saved(ids[i]!, { movesJson: log, boards, moveCount: 100 }))),
        textGrowth(log.length + boards.length),
      ];
      measured.win = [
        await perWrite(s, (i) =>
          win(s, ids[i]!, T0 + 60_000, {
            expectedCount: 100,
            movesJson: log,
            boards,
            moveCount: 172,
            rankedMs: 60_000,
          }),
        ),
        ROW_BYTES.win,
      ];
      const slots = JSON.stringify(Array.from({ length: 144 }, (_, k) => [2 * (k % 12), 2 * Math.floor(k / 12), 0]));
      measured.upload = [
        await perWrite(s, (i) =>
          s.customLayouts.store({
            id: `c-${i.toString(16).padStart(12, '0')}`,
            name: 'A layout of mine',
            format: 'gnome',
            tiles: 144,
            slots,
            created_at: T0,
          }),
        ),
        layoutGrowth(slots.length, 'A layout of mine') / 2, // its shape's row comes with its first deal
      ];
      // A player's first name of a layout: its row and the player's own row.
      const ownName = 'Forty characters of a player’s own name!';
      measured.layoutName = [
        await perWrite(s, (i) =>
          s.customLayouts.keepName(`namer-${i}`, `c-${i.toString(16).padStart(12, '0')}`, ownName, T0, 200),
        ),
        layoutNameGrowth(ownName),
      ];
      measured.nickname = [
        await perWrite(s, (i) =>
          s.players.setNickname(`view-player-${i}`, `Player ${i} the Great`, `player${i}thegreat`),
        ),
        nicknameGrowth(`Player ${N} the Great`),
      ];
      measured.transfer = [
        await perWrite(s, (i) =>
          s.players.createTransfer(`${'h'.repeat(40)}${i}`.padEnd(64, 'x'), `view-player-${i}`, T0, T0 + 900_000),
        ),
        ROW_BYTES.transfer,
      ];
      measured.replay = [
        await perWrite(s, (i) => s.replays.tokenFor(ids[i]!, `replay-token-${i}`.padEnd(22, 'x'), T0)),
        ROW_BYTES.replay,
      ];
      // A finished game's review kept with its replay: one as large as a 5,000-move log's can be (~57 KB).
      const lost = Array.from({ length: 2450 }, (_, k) => ({ from: 2 * k, to: 2 * k }));
      const review = JSON.stringify({ moves: 4998, lost, firstLost: 0, settled: 4998, complete: true, nodes: 399_999 });
      measured.review = [
        await perWrite(s, (i) => s.replays.keepReview(`replay-token-${i}`.padEnd(22, 'x'), review)),
        reviewGrowth(review.length),
      ];
      const over = Object.entries(measured).filter(([, [bytes, figure]]) => bytes > figure);
      expect(over, JSON.stringify(measured)).toEqual([]);
    });
  });

  describe.skipIf(skip)('deals', () => {
    test('first writer wins, also when writers race; find and findById give the stored row', async () => {
      const s = await stores();
      const json = dealJson('race');
      const rows = await Promise.all(
        ['1', '2', '3', '4'].map((g) => s.deals.store(dealKey('turtle', 'race', 'relaxed'), g, json, T0)),
      );
      expect(new Set(rows.map((r) => r.id)).size).toBe(1);
      expect(new Set(rows.map((r) => r.generator)).size).toBe(1);
      const again = await s.deals.store(dealKey('turtle', 'race', 'relaxed'), '9', json, T0 + 1);
      expect(again).toEqual(rows[0]);
      expect(again.deal_json).toBe(json.replace(/"generator":"[^"]*"/, `"generator":"${again.generator}"`)); // rebuilt byte for byte
      expect(await s.deals.find(dealKey('turtle', 'race', 'relaxed'))).toEqual(again);
      expect(await s.deals.findById(again.id)).toEqual(again);
      expect(await s.deals.find(dealKey('turtle', 'race', 'classic'))).toBeUndefined();
      expect(await s.deals.findById(again.id + 1000)).toBeUndefined();
    });

    test('a deal keeps the difficulty it was stored with; a row stored without one is measured once and kept', async () => {
      const s = await stores();
      const json = dealJson('banded');
      const made = JSON.parse(json) as Deal;
      const stored = await s.deals.store(dealKey('turtle', 'banded', 'relaxed'), '1', json, T0);
      expect((JSON.parse(stored.deal_json) as Deal).difficulty).toEqual(made.difficulty);
      expect(await s.sql(`SELECT band, score FROM deals WHERE id = ${stored.id}`)).toEqual([made.difficulty]);
      // Whatever the measure says now, the stored band is served (a link shows the same band forever).
      await s.sql(`UPDATE deals SET band = 'expert', score = 99.5 WHERE id = ${stored.id}`);
      const kept = await s.deals.findById(stored.id);
      expect((JSON.parse(kept!.deal_json) as Deal).difficulty).toEqual({ band: 'expert', score: 99.5 });
      // A row from before difficulties were stored: measured on its first read, the same bytes the generator made.
      await s.sql(`UPDATE deals SET band = NULL, score = NULL WHERE id = ${stored.id}`);
      const measured = await s.deals.find(dealKey('turtle', 'banded', 'relaxed'));
      expect(measured!.deal_json).toBe(json.replace(/"generator":"[^"]*"/, '"generator":"1"'));
      expect(await s.sql(`SELECT band, score FROM deals WHERE id = ${stored.id}`)).toEqual([made.difficulty]);
      // A row from before compact rows (its whole JSON, without a difficulty): the same.
      const { difficulty: _, ...legacy } = made;
      await s.sql(
        `INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at)
         VALUES ('turtle', 'legacy', 'relaxed', '0', '${JSON.stringify({ ...legacy, seed: 'legacy', generator: '0' })}', 0)`,
      );
      const old = await s.deals.find(dealKey('turtle', 'legacy', 'relaxed'));
      const oldDeal = JSON.parse(old!.deal_json) as Deal;
      expect(Object.keys(oldDeal)).toEqual(['layout', 'seed', 'mode', 'generator', 'difficulty', 'tiles', 'solution']);
      expect(oldDeal.difficulty).toEqual(made.difficulty); // the same faces: the same measure
      expect(await s.sql(`SELECT band, score FROM deals WHERE seed = 'legacy'`)).toEqual([made.difficulty]);
    });

    test('prune deletes old and surplus unplayed deals, never played, daily or kept ones', async () => {
      const s = await stores();
      const old = await storeDeal(s, 'old', T0);
      const kept = await storeDeal(s, 'kept', T0);
      const daily = await storeDeal(s, 'daily-2026-03-10', T0);
      await start(s, 'p1', 'played', T0);
      // One after another: "newest" is by id, and concurrent inserts on PostgreSQL take ids in any order.
      const newer = [];
      for (const [i, seed] of ['n1', 'n2', 'n3'].entries()) newer.push(await storeDeal(s, seed, T0 + DAY + i));
      const pruned = await s.deals.pruneUnplayed({ before: T0 + 1, max: 2, keep: [kept.id], limit: 10 });
      expect(pruned).toBe(2); // 'old' by age, then 'n1' over the newest two
      expect(await s.deals.findById(old.id)).toBeUndefined();
      expect(await s.deals.findById(kept.id)).toBeDefined();
      expect(await s.deals.findById(daily.id)).toBeDefined();
      expect(await s.deals.find(dealKey('turtle', 'played', 'relaxed'))).toBeDefined();
      const left = await Promise.all(newer.map((d) => s.deals.findById(d.id)));
      expect(left.map((d) => d?.seed)).toEqual([undefined, 'n2', 'n3']);
      expect(await s.deals.pruneUnplayed({ before: T0 + 1, max: 2, keep: [kept.id], limit: 10 })).toBe(0);
    });
  });

  describe.skipIf(skip)('games', () => {
    test('create writes the game and its player; saveMoves writes only on the version read', async () => {
      const s = await stores();
      const id = await start(s, 'p1', 's1', T0);
      expect(await s.players.find('p1')).toEqual({ id: 'p1', nickname: null, created_at: T0 });
      const row = (await s.games.findById(id))!;
      expect(row).toMatchObject({
        id,
        player_id: 'p1',
        status: 'playing',
        result: null,
        moves_json: '[]',
        move_count: 0,
        tiles_left: 144,
        started_at: T0,
        shown_at: T0,
        paced_at: T0 - 4200,
        finished_at: null,
        layout: 'turtle',
        seed: 's1',
        mode: 'relaxed',
        daily: 0,
      });
      expect(await s.games.saveMoves(saved(id, { expectedCount: 0, now: T0 + 5, checks: 2, checksNo: 1 }))).toBe(true);
      expect(await s.games.saveMoves(saved(id, { expectedCount: 0, movesJson: '[]' }))).toBe(false); // stale version
      expect((await s.games.findById(id))!).toMatchObject({
        move_count: 1,
        updated_at: T0 + 5,
        tiles_left: 142,
        checks: 2,
        checks_no: 1,
      });
      const race = await Promise.all(
        [1, 2, 3].map((n) => s.games.saveMoves(saved(id, { expectedCount: 1, moveCount: 2, hints: n }))),
      );
      expect(race.filter(Boolean)).toHaveLength(1); // one writer wins, the others wrote nothing
      expect(await win(s, id, T0 + 60_000, { expectedCount: 2 })).toBe(true);
      expect(await s.games.saveMoves(saved(id, { expectedCount: 72, moveCount: 73 }))).toBe(false); // finished
      expect((await s.games.findById(id))!).toMatchObject({
        result: 'won',
        status: 'won',
        finished_at: T0 + 60_000,
        move_count: 72,
      });
      expect(await s.games.saveMoves(saved('nope'))).toBe(false);
    });

    test('latest and unfinished games, games started since, hasWon and bestWinTime', async () => {
      const s = await stores();
      const a = await start(s, 'p1', 'a', T0);
      const b = await start(s, 'p1', 'b', T0 + 1000);
      const a2 = await start(s, 'p1', 'a', T0 + 2000);
      expect((await s.games.latestUnfinished('p1'))!.id).toBe(a2);
      expect((await s.games.unfinishedOfDeal('p1', (await s.games.findById(a))!.deal_id))!.id).toBe(a2);
      expect(await s.games.countStartedSince('p1', T0 + 1000)).toBe(2);
      expect(await s.games.latestUnfinished('nobody')).toBeUndefined();
      await win(s, a2, T0 + 62_000);
      await win(s, b, T0 + 100_000);
      expect((await s.games.latestUnfinished('p1'))!.id).toBe(a);
      expect(await s.games.hasWon('p1', (await s.games.findById(a))!.deal_id)).toBe(true);
      expect(await s.games.bestWinTime('p1', 'turtle', 'relaxed', 'none')).toBe(62_000); // from the first view of 'a'
      expect(await s.games.bestWinTime('p1', 'turtle', 'relaxed', a2)).toBe(99_000);
      expect(await s.games.bestWinTime('p1', 'turtle', 'classic', 'none')).toBeNull();
    });

    test('stats: per-layout totals and medians, streaks of days, history pages and the latest wins', async () => {
      const s = await stores();
      const times = [30_000, 10_000, 20_000, 40_000];
      for (const [i, t] of times.entries()) {
        const day = T0 + i * DAY;
        const id = await start(s, 'p1', `st${i}`, day);
        await win(s, id, day + t, { hints: i === 0 ? 1 : 0 });
      }
      await start(s, 'p1', 'open', T0 + 5 * DAY);
      const g = await start(s, 'p1', 'garden1', T0, 'garden');
      await win(s, g, T0 + 5000);
      const today = new Date(T0 + 4 * DAY).toISOString().slice(0, 10);
      const yesterday = new Date(T0 + 3 * DAY).toISOString().slice(0, 10);
      const stats = await s.games.statsOf('p1', { historyOffset: 1, historyLimit: 2, winsLimit: 3, today, yesterday });
      expect(stats.layouts).toEqual([
        { layout: 'garden', played: 1, won: 1, clean_wins: 1, best_ms: 5000, median_ms: 5000 },
        { layout: 'turtle', played: 5, won: 4, clean_wins: 3, best_ms: 10_000, median_ms: 25_000 },
      ]);
      expect(stats.streak).toBe(4);
      expect(stats.bestStreak).toBe(4);
      expect(stats.dailyStreak).toBe(0);
      expect(stats.history.map((h) => h.seed)).toEqual(['st3', 'st2']);
      expect(stats.history[0]).toMatchObject({ result: 'won', layout: 'turtle', mode: 'relaxed', daily: 0 });
      expect(stats.wins).toEqual([
        { layout: 'turtle', finished_at: T0 + 3 * DAY + 40_000, time_ms: 40_000, clean: 1 },
        { layout: 'turtle', finished_at: T0 + 2 * DAY + 20_000, time_ms: 20_000, clean: 1 },
        { layout: 'turtle', finished_at: T0 + DAY + 10_000, time_ms: 10_000, clean: 1 },
      ]);
      expect(await s.games.layoutTotals('p1')).toEqual(stats.layouts.map((l) => ({ ...l, median_ms: null })));
      const later = await s.games.statsOf('p1', {
        historyOffset: 0,
        historyLimit: 10,
        winsLimit: 10,
        today: '2026-04-01',
        yesterday: '2026-03-31',
      });
      expect([later.streak, later.bestStreak]).toEqual([0, 4]);
      const none = await s.games.statsOf('nobody', {
        historyOffset: 0,
        historyLimit: 5,
        winsLimit: 5,
        today,
        yesterday,
      });
      expect(none).toEqual({
        layouts: [],
        bands: [],
        streak: 0,
        bestStreak: 0,
        dailyStreak: 0,
        history: [],
        wins: [],
        achievements: [],
        bestDailyStreak: 0,
      });
    });

    test('stats by band: games started and won per band, clean wins; games without a band count in none', async () => {
      const s = await stores();
      const bands: [Band, boolean, number][] = [
        ['easy', true, 0],
        ['easy', true, 1],
        ['easy', false, 0],
        ['hard', true, 0],
        ['expert', false, 0],
      ]; // band, won, hints
      for (const [i, [band, won, hints]] of bands.entries()) {
        const id = await start(s, 'pb', `band${i}`, T0 + i * 1000, 'turtle', band);
        if (won) await win(s, id, T0 + i * 1000 + 500, { hints });
      }
      // A game begun before bands (its band NULL): counted in its layout, in no band, also when won.
      const before = await start(s, 'pb', 'unbanded', T0 + 9000);
      await s.sql(`UPDATE games SET band = NULL WHERE id = '${before}'`);
      await win(s, before, T0 + 9500);
      const q = { historyOffset: 0, historyLimit: 10, winsLimit: 10, today: '2026-03-10', yesterday: '2026-03-09' };
      const stats = await s.games.statsOf('pb', q);
      expect(stats.bands).toEqual([
        { band: 'easy', played: 3, won: 2, clean_wins: 1 },
        { band: 'medium', played: 1, won: 0, clean_wins: 0 }, // 'unbanded' started as medium; its band went after
        { band: 'hard', played: 1, won: 1, clean_wins: 1 },
        { band: 'expert', played: 1, won: 0, clean_wins: 0 },
      ]);
      expect(stats.history.map((h) => [h.seed, h.band])).toEqual([
        ['unbanded', null],
        ['band4', 'expert'],
        ['band3', 'hard'],
        ['band2', 'easy'],
        ['band1', 'easy'],
        ['band0', 'easy'],
      ]);
      expect((await s.games.findById(before))!.band).toBeNull();
      expect((await s.games.statsOf('nobody', q)).bands).toEqual([]);
    });

    test('a win sent late joins the runs of days after it', async () => {
      const s = await stores();
      const late = await start(s, 'p1', 'late', T0);
      for (const i of [1, 2]) await win(s, await start(s, 'p1', `d${i}`, T0 + i * DAY), T0 + i * DAY + 1000);
      await win(s, late, T0 + 1000);
      const q = { historyOffset: 0, historyLimit: 1, winsLimit: 1, today: '2026-03-12', yesterday: '2026-03-11' };
      expect((await s.games.statsOf('p1', q)).streak).toBe(3);
      expect((await s.games.statsOf('p1', q)).bestStreak).toBe(3);
    });

    test('recordFirstShown keeps the first view, also under a race, and counts it in the deal record once', async () => {
      const s = await stores();
      const d = await storeDeal(s, 'view');
      const firsts = await Promise.all([1, 2, 3].map((n) => s.games.recordFirstShown('p1', d.id, T0 + n)));
      expect(new Set(firsts).size).toBe(1);
      expect(await s.games.recordFirstShown('p1', d.id, T0 + 99)).toBe(firsts[0]);
      await s.games.recordFirstShown('p2', d.id, T0 + 5);
      expect(await s.games.dealRecord(d.id)).toEqual({ opened: 2, won: 0 });
      expect(await s.games.dealRecord(d.id + 1000)).toEqual({ opened: 0, won: 0 });
    });

    test('a view proved earlier moves the stored one back, never forward; findFirstShown reads without writing', async () => {
      const s = await stores();
      const d = await storeDeal(s, 'stamped-view');
      expect(await s.games.findFirstShown('p1', d.id)).toBeUndefined();
      expect(await s.games.recordFirstShown('p1', d.id, T0 + 500)).toBe(T0 + 500);
      expect(await s.games.recordFirstShown('p1', d.id, T0 + 100)).toBe(T0 + 100); // a stamp of an earlier page
      expect(await s.games.recordFirstShown('p1', d.id, T0 + 900)).toBe(T0 + 100);
      expect(await s.games.findFirstShown('p1', d.id)).toBe(T0 + 100);
      expect(await s.games.findFirstShown('p2', d.id)).toBeUndefined();
      expect(await s.games.dealRecord(d.id)).toEqual({ opened: 1, won: 0 }); // still one player
    });

    test('daily tables: best times once per player, ranks, results, streaks and the right to a name', async () => {
      const s = await stores();
      const day = Date.parse('2026-03-10T00:00:00Z');
      const seed = 'daily-2026-03-10';
      const play = async (player: string, t: number, startAt = day + 1000, onTable = true) => {
        const id = await start(s, player, seed, startAt);
        await win(s, id, startAt + t, { rankedMs: t, onTable, dailyDay: onTable ? '2026-03-10' : null });
        return id;
      };
      await play('a', 50_000);
      await play('b', 40_000);
      await play('a', 30_000, day + 2000); // a's second, faster win
      await play('c', 20_000, day + DAY + 1000, false); // started the day after: ranked, not on the table
      const d = (await s.deals.find(dealKey('turtle', seed, 'relaxed')))!;
      const table = await s.games.bestTimes(d.id, 10, true);
      expect(table.map((r) => [r.player_id, r.time_ms])).toEqual([
        ['a', 30_000],
        ['b', 40_000],
      ]);
      expect((await s.games.bestTimes(d.id, 10)).map((r) => r.player_id)).toEqual(['c', 'a', 'b']);
      expect((await s.games.bestTimes(d.id, 1)).map((r) => r.player_id)).toEqual(['c']);
      expect(table[0]).toMatchObject({ nickname: null, hints: 0, shuffles: 0, undos: 0 });
      expect(await s.games.dailyRank(d.id, 'b', 40_000)).toBe(2);
      expect(await s.games.dailyRank(d.id, 'b', 10_000)).toBe(1);
      expect(await s.games.dailyRank(d.id, 'a', 45_000)).toBe(1); // a's own best stands
      expect(await s.games.dealRecord(d.id)).toEqual({ opened: 3, won: 3 });
      // The same seed won on another layout is a row of its own: the caller keeps the layout of the day.
      const other = await start(s, 'a', 'daily-2026-03-11', day + DAY + 5000, 'heart');
      await win(s, other, day + DAY + 60_000);
      expect(await s.games.dailyResults('a', 'relaxed', 'daily-2026-03-01', 'daily-2026-03-31')).toEqual([
        { layout: 'turtle', day: '2026-03-10', onDay: true, clean: true },
        { layout: 'heart', day: '2026-03-11', onDay: true, clean: true },
      ]);
      expect(await s.games.dailyResults('c', 'relaxed', 'daily-2026-03-01', 'daily-2026-03-31')).toEqual([
        { layout: 'turtle', day: '2026-03-10', onDay: false, clean: true },
      ]);
      expect(await s.games.dailyResults('a', 'relaxed', 'daily-2026-04-01', 'daily-2026-04-30')).toEqual([]);
      expect(await s.games.dailyResults('a', 'classic', 'daily-2026-03-01', 'daily-2026-03-31')).toEqual([]);
      expect(await s.games.dailyStreak('a', '2026-03-10', '2026-03-09')).toBe(1);
      expect(await s.games.dailyStreak('a', '2026-03-12', '2026-03-11')).toBe(0);
      expect(await s.games.hasDailyWin('a')).toBe(true);
      expect(await s.games.hasDailyWin('c')).toBe(false);
    });

    test('exportPage reads a player’s games in start order, a page at a time', async () => {
      const s = await stores();
      const ids = [];
      for (let i = 0; i < 5; i++) ids.push(await start(s, 'p1', `e${i}`, T0 + i));
      await start(s, 'p2', 'other', T0);
      const first = await s.games.exportPage('p1', 0, 2);
      expect(first.map((r) => r.id)).toEqual(ids.slice(0, 2));
      const rest = await s.games.exportPage('p1', first[1]!.rowid, 10);
      expect(rest.map((r) => r.id)).toEqual(ids.slice(2));
      expect(rest[0]).toMatchObject({ seed: 'e2', layout: 'turtle', status: 'playing' });
      expect(await s.games.exportPage('p1', rest[2]!.rowid, 10)).toEqual([]);
    });
  });

  describe.skipIf(skip)('players and transfers', () => {
    test('nicknames: set, taken by a lookalike key, missing player', async () => {
      const s = await stores();
      await start(s, 'p1', 'n', T0);
      await start(s, 'p2', 'n', T0);
      expect(await s.players.setNickname('p1', 'Ann', 'ann')).toBe('ok');
      expect(await s.players.setNickname('p2', 'ANN', 'ann')).toBe('taken');
      expect(await s.players.setNickname('p3', 'Bo', 'bo')).toBe('missing');
      expect((await s.players.find('p1'))!.nickname).toBe('Ann');
      expect(await s.players.setNickname('p1', null, null)).toBe('ok');
      expect(await s.players.setNickname('p2', 'ANN', 'ann')).toBe('ok');
    });

    test('a transfer token is used once, also under a race; expired, used and missing are told apart', async () => {
      const s = await stores();
      await start(s, 'p1', 't', T0);
      await s.players.createTransfer('h1', 'p1', T0, T0 + 900_000);
      await s.players.createTransfer('h2', 'p1', T0, T0 + 10);
      expect(await s.players.findTransfer('h1', T0 + 1)).toEqual({
        state: 'valid',
        playerId: 'p1',
        expiresAt: T0 + 900_000,
      });
      expect(await s.players.findTransfer('h2', T0 + 10)).toEqual({ state: 'expired' });
      expect(await s.players.findTransfer('nope', T0)).toEqual({ state: 'missing' });
      const takes = await Promise.all([1, 2, 3].map(() => s.players.takeTransfer('h1', T0 + 2)));
      expect(takes.filter((t) => t.state === 'valid')).toHaveLength(1);
      expect(takes.filter((t) => t.state === 'used')).toHaveLength(2);
      expect(await s.players.takeTransfer('h2', T0 + 20)).toEqual({ state: 'expired' });
      // A day later a new token forgets the old ones.
      await s.players.createTransfer('h3', 'p1', T0 + 2 * DAY, T0 + 2 * DAY + 900_000);
      expect(await s.players.findTransfer('h1', T0 + 2 * DAY)).toEqual({ state: 'missing' });
    });
  });

  describe.skipIf(skip)('custom layouts and settings', () => {
    test('a custom layout is stored once (first writer wins, also racing); names of stored ids', async () => {
      const s = await stores();
      const row = (name: string) => ({
        id: 'c-0123456789ab',
        name,
        format: 'kmahjongg' as const,
        tiles: 2,
        slots: '[[0,0,0],[2,0,0]]',
        created_at: T0,
      });
      const results = await Promise.all(['A', 'B', 'C'].map((n) => s.customLayouts.store(row(n))));
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.row.name)).size).toBe(1);
      expect(await s.customLayouts.find('c-0123456789ab')).toEqual(results.find((r) => r.created)!.row);
      expect(await s.customLayouts.find('c-ffffffffffff')).toBeUndefined();
      expect(await s.customLayouts.names(['c-0123456789ab', 'c-ffffffffffff'])).toEqual(
        new Map([['c-0123456789ab', results[0]!.row.name]]),
      );
      expect(await s.customLayouts.names([])).toEqual(new Map());
    });

    test("players' own names: one row per player and layout, a rename changes it, at most `max` a player", async () => {
      const s = await stores();
      const ids = ['c-00000000000a', 'c-00000000000b', 'c-00000000000c'];
      for (const id of ids)
        await s.customLayouts.store({
          id,
          name: 'file',
          format: 'gnome',
          tiles: 2,
          slots: '[[0,0,0],[2,0,0]]',
          created_at: T0,
        });
      expect(await s.customLayouts.keepName('ann', ids[0]!, 'Ann’s', T0, 2)).toBe('set');
      expect(await s.customLayouts.keepName('bob', ids[0]!, 'Bob’s', T0 + 1, 2)).toBe('set');
      expect(await s.customLayouts.keepName('ann', ids[1]!, 'Second', T0 + 2, 2)).toBe('set');
      expect(await s.customLayouts.keepName('ann', ids[2]!, 'Third', T0 + 3, 2)).toBe('full'); // nothing written
      expect(await s.customLayouts.keepName('ann', ids[0]!, 'Renamed', T0 + 4, 2)).toBe('set'); // a rename: no new row
      expect(await s.customLayouts.playerNames('ann', ids)).toEqual(
        new Map([
          [ids[0]!, 'Renamed'],
          [ids[1]!, 'Second'],
        ]),
      );
      expect(await s.customLayouts.playerNames('bob', ids)).toEqual(new Map([[ids[0]!, 'Bob’s']]));
      expect(await s.customLayouts.playerNames('nobody', ids)).toEqual(new Map());
      expect(await s.customLayouts.playerLayouts('ann', 10)).toEqual([
        { layout: ids[0], name: 'Renamed', tiles: 2, named_at: T0 + 4 },
        { layout: ids[1], name: 'Second', tiles: 2, named_at: T0 + 2 },
      ]);
      expect(await s.customLayouts.playerLayouts('ann', 1)).toHaveLength(1);
      // Racing new names of one player never pass the bound.
      const raced = await Promise.all(ids.map((id, k) => s.customLayouts.keepName('cy', id, `n${k}`, T0, 2)));
      expect(raced.filter((r) => r === 'set')).toHaveLength(2);
      expect(await s.customLayouts.playerLayouts('cy', 10)).toHaveLength(2);
    });

    test('settings: getOrCreate agrees on one value when racing; get and delete', async () => {
      const s = await stores();
      const values = await Promise.all(['x', 'y', 'z'].map((v) => s.settings.getOrCreate('k', () => v)));
      expect(new Set(values).size).toBe(1);
      expect(await s.settings.get('k')).toBe(values[0]);
      expect(await s.settings.getOrCreate('k', () => 'later')).toBe(values[0]);
      await s.settings.delete('k');
      expect(await s.settings.get('k')).toBeUndefined();
    });
  });
});
