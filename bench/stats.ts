/**
 * Stats cost at scale (issue 9, item 3): `npm run bench:stats`.
 *
 * One player with BENCH_STATS_GAMES games (default 60,000) on a file database with our pragmas:
 * the rows are written straight into the tables (through the games store, so the aggregates are
 * kept as the server keeps them), spread over six layouts, about two thirds won, a few unfinished.
 * Then GET /api/stats and GET /stats are asked BENCH_STATS_RUNS times each (default 200) through
 * app.inject, and the script prints p50/p99/max in ms (and the process's CPU time a request, which a busy
 * machine sways less), the answers' sizes in bytes, the achievements the wins earned on the way (awarded
 * by the store with each win, as the server does) and the load average. The targets: at most 10 ms median
 * at 60,000 games on an idle machine, under 100 ms with the achievements whatever the load, the page under 400 KB.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildApp } from '../src/server/app.ts';

const GAMES = Number(process.env.BENCH_STATS_GAMES ?? 60_000);
const RUNS = Number(process.env.BENCH_STATS_RUNS ?? 200);
const LAYOUTS = ['turtle', 'garden', 'pyramid', 'fortress', 'bridge', 'cross'];

const dir = mkdtempSync(join(tmpdir(), 'mj-bench-stats-'));
const app = buildApp({
  databasePath: join(dir, 'bench.db'),
  cookieSecret: 'bench-secret-'.repeat(4),
  rateLimit: false,
  dealer: { workers: 0 },
});
await app.ready();
try {
  const cookieRes = await app.inject({ url: '/api/stats' });
  const cookie = cookieRes.headers['set-cookie']!.toString().split(';')[0]!;
  const playerId = cookie.split('=')[1]!.split('.')[0]!;
  const db = app.db!;
  const dealIds = LAYOUTS.map((layout, i) =>
    Number(
      db
        .prepare(
          "INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES (?, ?, 'relaxed', '1', '{}', 0)",
        )
        .run(layout, `bench${i}`).lastInsertRowid,
    ),
  );
  const repo = app.gamesRepository;
  const fill = Date.now();
  let seed = 12345;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  const start = 1_700_000_000_000;
  db.exec('BEGIN');
  for (let i = 0; i < GAMES; i++) {
    const k = Math.floor(random() * LAYOUTS.length);
    const id = `b${String(i).padStart(15, '0')}`;
    const at = start + i * 60_000;
    await repo.create({
      id,
      playerId,
      dealId: dealIds[k]!,
      layout: LAYOUTS[k]!,
      status: 'playing',
      tilesLeft: 144,
      now: at,
      shownAt: at,
      pacedAt: at,
    });
    if (random() < 0.67) {
      const hints = random() < 0.5 ? 0 : 2;
      await repo.saveMoves({
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
        now: at + 60_000 + Math.floor(random() * 600_000),
        won: true,
        pacedAt: at,
        unranked: null,
        rankedMs: null,
        dailyDay: null,
        onTable: false,
        playMs: null,
        band: null,
      });
    }
  }
  db.exec('COMMIT');
  console.log(`filled ${GAMES} games in ${Date.now() - fill} ms`);

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
  rmSync(dir, { recursive: true, force: true });
}
