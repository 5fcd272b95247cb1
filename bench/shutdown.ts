/**
 * Shutdown timing (docs/operations.md): `npm run bench:shutdown`. The tests check what a shutdown does
 * (test/server/ops/shutdown.test.ts, the drain on a fake clock); this measures how long it takes on this machine.
 *
 * 1. The drain's own clock (readiness.ts waitForDrain on a real loopback server): a quiet drain of 200 ms
 *    (goal: over before 1 s), requests every 30 ms for 900 ms then only health checks with quietMs 400 (goal:
 *    over within 2 s of the last request), and requests that never stop with maxExtraMs 400 (goal: over with
 *    the last request under 150 ms old, so the cap and not a quiet spell ended it).
 * 2. The real server from source (`node --import tsx src/server/server.ts`): SIGTERM on an idle server to its
 *    exit, and with a balancer watching (DRAIN_MS 1500) SIGTERM to `drained` and to the exit.
 *
 * Options (environment): BENCH_RUNS (default 3). Prints each run, the medians against the goals, and the
 * machine's load average (timers fire late on a busy machine: read the figures with it).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { waitForDrain } from '../src/server/readiness.ts';
import { startServer } from '../test/server/process.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const FROM_SOURCE = ['--import', 'tsx', 'src/server/server.ts'];

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2);
};
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface DrainRun {
  quietMs: number; // a quiet 200 ms drain: drainedMs
  afterLastMs: number; // requests until 900 ms: from the last request's answer to the end
  floodQuietMs: number; // requests that never stop: how old the last request was at the end
}

async function drainRun(): Promise<DrainRun> {
  const http = createServer((_req, res) => res.end('ok'));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const base = `http://127.0.0.1:${(http.address() as { port: number }).port}`;
  try {
    const quiet = await waitForDrain(http, 200, { quietMs: 150, maxExtraMs: 5000 }).done;
    const drain = waitForDrain(http, 200, { quietMs: 400, maxExtraMs: 5000 });
    const until = Date.now() + 900;
    while (Date.now() < until) {
      await fetch(`${base}/api/layouts`);
      await pause(30);
    }
    const lastAt = Date.now();
    const checks = setInterval(() => void fetch(`${base}/healthz`).catch(() => {}), 20);
    await drain.done;
    const afterLastMs = Date.now() - lastAt;
    clearInterval(checks);
    const flood = waitForDrain(http, 100, { quietMs: 150, maxExtraMs: 400 });
    let going = true;
    const requests = (async () => {
      while (going) {
        await fetch(`${base}/x`);
        await pause(20);
      }
    })();
    const flooded = await flood.done;
    going = false;
    await requests;
    return { quietMs: quiet.drainedMs, afterLastMs, floodQuietMs: flooded.quietMs };
  } finally {
    http.closeAllConnections();
    await new Promise((resolve) => http.close(resolve));
  }
}

interface ServerRun {
  idleExitMs: number; // SIGTERM to exit, nobody watching
  drainedMs: number; // watched, DRAIN_MS 1500: SIGTERM to the end of the drain (the server's own figure)
  drainExitMs: number; // watched: SIGTERM to exit
}

async function serverRun(dir: string, i: number): Promise<ServerRun> {
  const idle = await startServer(path.join(dir, `idle-${i}.db`), {}, FROM_SOURCE);
  let at = performance.now();
  idle.child.kill('SIGTERM');
  await idle.exited;
  const idleExitMs = performance.now() - at;
  const watched = await startServer(path.join(dir, `drain-${i}.db`), { DRAIN_MS: '1500' }, FROM_SOURCE);
  for (let k = 0; k < 2; k++) await fetch(`${watched.base}/healthz`); // a balancer's checks
  at = performance.now();
  watched.child.kill('SIGTERM');
  const drained = await watched.waitForLog((l) => l.msg === 'drained');
  await watched.exited;
  return { idleExitMs, drainedMs: Number(drained.drainedMs), drainExitMs: performance.now() - at };
}

const loadBefore = loadavg()[0]!;
const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-bench-shutdown-'));
try {
  const drains: DrainRun[] = [];
  const servers: ServerRun[] = [];
  for (let i = 0; i < RUNS; i++) {
    drains.push(await drainRun());
    servers.push(await serverRun(dir, i));
    console.log(
      `run ${i + 1}: ${JSON.stringify({ ...drains[i], ...servers[i] }, (_k, v: unknown) => (typeof v === 'number' ? Math.round(v) : v))}`,
    );
  }
  const m = {
    quietMs: median(drains.map((d) => d.quietMs)),
    afterLastMs: median(drains.map((d) => d.afterLastMs)),
    floodQuietMs: median(drains.map((d) => d.floodQuietMs)),
    idleExitMs: median(servers.map((s) => s.idleExitMs)),
    drainedMs: median(servers.map((s) => s.drainedMs)),
    drainExitMs: median(servers.map((s) => s.drainExitMs)),
  };
  const load = `load average ${loadBefore.toFixed(1)} at start, ${loadavg()[0]!.toFixed(1)} at end, ${availableParallelism()} CPUs`;
  console.log(`\nShutdown timing, medians of ${RUNS} (${load})\n`);
  console.log(
    `waitForDrain: quiet 200 ms drain over after ${m.quietMs} ms; ${m.afterLastMs} ms after the last request (quietMs 400); a flood's drain ended with the last request ${m.floodQuietMs} ms old`,
  );
  console.log(
    `server: idle SIGTERM to exit ${m.idleExitMs} ms; watched (DRAIN_MS 1500): drained after ${m.drainedMs} ms, exit after ${m.drainExitMs} ms`,
  );
  const goals = [
    ['a quiet 200 ms drain is over before 1000 ms', m.quietMs < 1000],
    ['a drain ends within 2000 ms of the last request (quietMs 400)', m.afterLastMs < 2000],
    ['a flood ends at the cap, its last request under 150 ms old', m.floodQuietMs < 150],
  ] as const;
  for (const [goal, met] of goals) console.log(`${met ? 'met   ' : 'MISSED'} ${goal}`);
  console.log(JSON.stringify({ ...m, load: [loadBefore, loadavg()[0]!].map((l) => Math.round(l * 10) / 10) }));
  process.exitCode = goals.every(([, met]) => met) ? 0 : 1;
} finally {
  rmSync(dir, { recursive: true, force: true });
}
