import { startPostgres, createDatabase } from './test/support/postgres.ts';
import { buildApp } from './src/server/app.ts';
import { execFileSync, spawnSync } from 'node:child_process';
const cluster = await startPostgres();
try {
  const a = await createDatabase(cluster.url);
  const app = buildApp({ databasePath: ':memory:', databaseUrl: a, cookieSecret: 'x'.repeat(10) + 'abcdefghijklmnopqrstuvwxyz012345', dealer: { workers: 0 } });
  await app.ready();
  const first = await app.inject({ url: '/api/stats' });
  const cookie = `mj_player=${first.cookies.find((c) => c.name === 'mj_player')!.value}`;
  const g = await app.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: { layout: 'turtle', seed: 'pg1' } });
  const game = g.json();
  const moves = game.solution.map(([x, y]: number[]) => ({ type: 'match', a: x, b: y }));
  console.log((await app.inject({ method: 'POST', url: `/api/games/${game.id}/moves`, headers: { cookie }, payload: { moves } })).json().status);
  await app.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: { layout: 'turtle', seed: 'pg2' } });
  await app.close();
  const run = (args: string[], env: Record<string, string>) => spawnSync(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', ...args], { env: { PATH: process.env.PATH!, ...env }, encoding: 'utf8' });
  let r = run(['backup', '/tmp/pgb.jsonl.gz', '--force'], { DATABASE_URL: a });
  console.log(r.status, r.stdout, r.stderr);
  const b = await createDatabase(cluster.url);
  r = run(['restore', '/tmp/pgb.jsonl.gz'], { DATABASE_URL: b });
  console.log(r.status, r.stdout, r.stderr);
  r = run(['restore', '/tmp/pgb.jsonl.gz'], { DATABASE_URL: b });
  console.log(r.status, r.stdout, r.stderr);
  const app2 = buildApp({ databasePath: ':memory:', databaseUrl: b, cookieSecret: 'x'.repeat(10) + 'abcdefghijklmnopqrstuvwxyz012345', dealer: { workers: 0 } });
  await app2.ready();
  console.log((await app2.inject({ url: '/api/stats', headers: { cookie } })).json().played);
  console.log((await app2.inject({ method: 'POST', url: '/api/games', headers: { cookie }, payload: { layout: 'turtle', seed: 'pg3' } })).statusCode);
  console.log((await app2.pg!.query('SELECT max(seq) FROM games')).rows, (await app2.pg!.query('SELECT count(*) FROM deals')).rows);
  await app2.close();
  execFileSync('sh', ['-c', 'zcat /tmp/pgb.jsonl.gz | cut -c1-200 | head -30']), console.log(execFileSync('sh', ['-c', 'zcat /tmp/pgb.jsonl.gz | cut -c1-150 | head -12; zcat /tmp/pgb.jsonl.gz | tail -1']).toString());
} finally {
  await cluster.stop();
}
