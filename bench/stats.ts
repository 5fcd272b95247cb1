/**
 * Stats cost at scale, achievements included: `npm run bench:stats`.
 *
 * One player with BENCH_STATS_GAMES games (default 60,000), spread over six layouts, about two thirds won, a few
 * unfinished. On SQLite (the default: a file database with our pragmas) every game is written through the games
 * store, so the aggregates and the achievements are kept as the server keeps them, win by win. With
 * BENCH_STATS_BACKEND=postgres (a throwaway cluster, test/support/postgres.ts) the games are written in bulk by
 * SQL with the aggregates the store keeps (per-layout and per-band totals, the days and their runs, the best streak), and the
 * last 20 games are started and won through the store, which then awards the achievements their standing earns.
 * Then GET /api/stats and GET /stats are asked BENCH_STATS_RUNS times each (default 200) through app.inject, and
 * the script prints p50/p99/max in ms (and the process's CPU time a request, which a busy machine sways less),
 * the answers' sizes in bytes, the achievements held and the load average. The targets: at most 10 ms median at
 * 60,000 games on an idle machine, under 100 ms with the achievements whatever the load, the page under 400 KB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../src/server/app.ts';
import type { SavedMoves } from '../src/server/stores/types.ts';
import { createDatabase, startPostgres, type RunningPostgres } from '../test/support/postgres.ts';

const GAMES = Number(process.env.BENCH_STATS_GAMES ?? 60_000);
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 200);
const BACKEND = process.env.BENCH_STATS_BACKEND === 'postgres' ? 'postgres' : 'sqlite';
const LAYOUTS = ['turtle', 'garden', 'pyramid', 'fortress', 'bridge', 'cross'];
const START = 1_700_000_000_000;
const THROUGH_STORE = 20; // on PostgreSQL, the last games written through the store

let seed = 12345;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;

/** Game i: its id, layout, start, and (two thirds of them) its win's hints and finish. */
function gameOf(i: number) {
  const k = Math.floor(random() * LAYOUTS.length);
  const won = random() < 0.67;
  const hints = won && random() >= 0.5 ? 2 : 0;
  const at = START + i * 60_000;
  return {
    id: `b${String(i).padStart(15, '0')}`,
    k,
    layout: LAYOUTS[k]!,
    at,
    win: won ? { hints, finished: at + 60_000 + Math.floor(random() * 600_000) } : null,
  };
}

const winOf = (id: string, at: number, hints: number, finished: number): SavedMoves => ({
  id,
  expectedCount: 0,
  movesJson: '[]',
  boards: '',
  moveCount: 72,
  status: 'won',
  tilesLeft: 0,
  hints,
  checks: 0,
  checksNo: 0,
  shuffles: 0,
  undos: 0,
  now: finished,
  won: true,
  pacedAt: at,
  unranked: null,
  rankedMs: null,
  dailyDay: null,
  onTable: false,
  playMs: null,
});

/** Starts (and wins) game i through the store, as the server does. */
async function throughStore(app: FastifyInstance, playerId: string, dealIds: number[], i: number): Promise<void> {
  const g = gameOf(i);
  const repo = app.gamesStore;
  await repo.create({
    id: g.id,
    playerId,
    dealId: dealIds[g.k]!,
    layout: g.layout,
    band: 'medium',
    status: 'playing',
    tilesLeft: 144,
    now: g.at,
    shownAt: g.at,
    pacedAt: g.at,
  });
  if (g.win) await repo.saveMoves(winOf(g.id, g.at, g.win.hints, g.win.finished));
}

/** PostgreSQL: games 0 … n−1 written by SQL with the aggregates the store would keep for them. */
async function bulkFill(app: FastifyInstance, playerId: string, dealIds: number[], n: number): Promise<void> {
  const games = Array.from({ length: n }, (_, i) => gameOf(i));
  const pool = app.pg!;
  await pool.query('INSERT INTO players (id, created_at) VALUES ($1, $2) ON CONFLICT DO NOTHING', [playerId, START]);
  for (let from = 0; from < n; from += 5000) {
    const part = games.slice(from, from + 5000);
    await pool.query(
      `INSERT INTO games (id, player_id, deal_id, layout, band, status, result, move_count, tiles_left, hints,
         started_at, updated_at, finished_at, shown_at, paced_at)
       SELECT g.id, $1, g.deal_id, g.layout, 'medium', CASE WHEN g.won THEN 'won' ELSE 'playing' END,
              CASE WHEN g.won THEN 'won' END, CASE WHEN g.won THEN 72 ELSE 0 END, CASE WHEN g.won THEN 0 ELSE 144 END,
              g.hints, g.at, g.at, g.finished, g.at, g.at
       FROM unnest($2::text[], $3::int[], $4::text[], $5::boolean[], $6::int[], $7::bigint[], $8::bigint[])
         AS g (id, deal_id, layout, won, hints, at, finished)`,
      [
        playerId,
        part.map((g) => g.id),
        part.map((g) => dealIds[g.k]!),
        part.map((g) => g.layout),
        part.map((g) => g.win !== null),
        part.map((g) => g.win?.hints ?? 0),
        part.map((g) => g.at),
        part.map((g) => g.win?.finished ?? null),
      ],
    );
  }
  await pool.query(
    `INSERT INTO player_layouts (player_id, layout, played, won, clean_wins, best_ms)
     SELECT player_id, layout, COUNT(*), COUNT(result), COUNT(*) FILTER (WHERE result = 'won' AND hints = 0),
            MIN(own_ms) FILTER (WHERE result = 'won')
     FROM games WHERE player_id = $1 GROUP BY player_id, layout`,
    [playerId],
  );
  await pool.query(
    `INSERT INTO player_bands (player_id, band, played, won, clean_wins)
     SELECT player_id, band, COUNT(*), COUNT(result), COUNT(*) FILTER (WHERE result = 'won' AND hints = 0)
     FROM games WHERE player_id = $1 GROUP BY player_id, band`,
    [playerId],
  );
  // Every day from the first win to the last has a win (a game a minute): runs of days 1, 2, 3, …
  await pool.query(
    `INSERT INTO player_days (player_id, day, wins, run)
     SELECT $1, day, wins, ROW_NUMBER() OVER (ORDER BY day) FROM (
       SELECT to_char(to_timestamp(finished_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, COUNT(*) AS wins
       FROM games WHERE player_id = $1 AND result = 'won' GROUP BY 1) AS d`,
    [playerId],
  );
  await pool.query(
    'UPDATE players SET best_streak = (SELECT MAX(run) FROM player_days WHERE player_id = $1) WHERE id = $1',
    [playerId],
  );
  await pool.query('VACUUM ANALYZE'); // as autovacuum would soon after: the planner's statistics, the visibility map
}

let postgres: RunningPostgres | undefined;
const dir = mkdtempSync(join(tmpdir(), 'mj-bench-stats-'));
if (BACKEND === 'postgres') postgres = await startPostgres();
const app = buildApp({
  databasePath: join(dir, 'bench.db'),
  ...(postgres ? { databaseUrl: await createDatabase(postgres.url) } : {}),
  cookieSecret: 'bench-secret-'.repeat(4),
  rateLimit: false,
  dealer: { workers: 0 },
});
await app.ready();
try {
  const cookieRes = await app.inject({ url: '/api/stats' });
  const cookie = cookieRes.headers['set-cookie']!.toString().split(';')[0]!;
  const playerId = cookie.split('=')[1]!.split('.')[0]!;
  const dealIds: number[] = [];
  for (const [i, layout] of LAYOUTS.entries())
    dealIds.push(
      Number(
        (
          await app.dealsStore.store(
            { layout, seed: `bench${i}`, mode: 'relaxed' } as Parameters<typeof app.dealsStore.store>[0],
            '1',
            JSON.stringify({
              layout,
              seed: `bench${i}`,
              mode: 'relaxed',
              generator: '1',
              difficulty: { band: 'easy', score: 0 }, // stored with the deal since measured difficulty
              tiles: [],
              solution: [],
            }),
            0,
          )
        ).id,
      ),
    );
  const fill = Date.now();
  if (BACKEND === 'postgres') {
    await bulkFill(app, playerId, dealIds, GAMES - THROUGH_STORE);
    for (let i = GAMES - THROUGH_STORE; i < GAMES; i++) await throughStore(app, playerId, dealIds, i);
  } else {
    const db = app.db!;
    db.exec('BEGIN');
    for (let i = 0; i < GAMES; i++) await throughStore(app, playerId, dealIds, i);
    db.exec('COMMIT');
  }
  console.log(`${BACKEND}: filled ${GAMES} games in ${Date.now() - fill} ms`);

  const time = async (url: string) => {
    const times: number[] = [];
    const cpu: number[] = []; // the process's CPU time per request: less swayed by a busy machine than the wall clock
    let bytes = 0;
    let status = 0;
    for (let i = 0; i < RUNS; i++) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      const res = await app.inject({ url, headers: { cookie } });
      times.push(performance.now() - t0);
      const used = process.cpuUsage(c0);
      cpu.push((used.user + used.system) / 1000);
      bytes = res.rawPayload.length;
      status = res.statusCode;
    }
    times.sort((a, b) => a - b);
    cpu.sort((a, b) => a - b);
    const at = (list: number[], q: number) =>
      Number(list[Math.min(list.length - 1, Math.floor(q * list.length))]!.toFixed(2));
    console.log(
      JSON.stringify({
        backend: BACKEND,
        url,
        games: GAMES,
        runs: RUNS,
        status,
        p50_ms: at(times, 0.5),
        p99_ms: at(times, 0.99),
        max_ms: at(times, 1),
        cpu_p50_ms: at(cpu, 0.5),
        cpu_p99_ms: at(cpu, 0.99),
        bytes,
        achievements: (await app.inject({ url: '/api/stats', headers: { cookie } }))
          .json<{ achievements: { earned: boolean }[] }>()
          .achievements.filter((a) => a.earned).length,
        load: Number(loadavg()[0]!.toFixed(1)),
      }),
    );
  };
  await time('/api/stats');
  await time('/stats');
  await time('/api/stats?page=600');
} finally {
  await app.close();
  await postgres?.stop();
  rmSync(dir, { recursive: true, force: true });
}
