/**
 * Requests a player sends per minute: `npm run bench:sync`.
 *
 * Plays whole turtle games through the page's real sync module (src/client/sync.ts) on a simulated
 * clock, against a stub server that answers every request at once, at several human paces (a move
 * every N seconds, with a hint now and then), and counts the requests. "Before" is the sync this
 * replaced: every move its own request unless one was still in flight, which at human pace is never.
 * Then what that makes of players per process, from the mixed-workload capacity of docs/capacity.md
 * (BENCH_CAPACITY requests a second at saturation, planned at 60%).
 */
import { deal, layoutById, type Move } from '../src/engine/index.ts';
import { openSync, record, type SyncEnv } from '../src/client/sync.ts';

const CAPACITY = Number(process.env.BENCH_CAPACITY ?? 2400); // req/s one process serves (docs/capacity.md)
const PLANNED = 0.6; // share of saturation planned for

interface Timer {
  at: number;
  run: () => void;
}

async function simulate(paceS: number, games: number): Promise<{ minutes: number; requests: number; moves: number }> {
  let played = 0; // ms of play: from a game's first move to its last
  const layout = layoutById('turtle')!;
  let now = 0;
  let requests = 0;
  let moves = 0;
  const timers = new Map<number, Timer>();
  let nextTimer = 1;
  const runDue = async (until: number): Promise<void> => {
    for (;;) {
      const due = [...timers.entries()].sort((a, b) => a[1].at - b[1].at)[0];
      if (!due || due[1].at > until) break;
      timers.delete(due[0]);
      now = due[1].at;
      due[1].run();
      await new Promise((r) => setImmediate(r)); // the request's promise chain
    }
    now = until;
  };
  for (let g = 0; g < games; g++) {
    const made = deal(layout, `pace-${g}`);
    if (!made.ok) throw new Error(made.message);
    const d = made.value.deal;
    let count = 0;
    const env: SyncEnv = {
      fetch: (async (url: string) => {
        requests++;
        const body =
          url === '/api/games' ? { id: `g${g}` } : { status: 'playing', faces: [], moves: count, timeMs: null };
        return new Response(JSON.stringify(body), { status: url === '/api/games' ? 201 : 200 });
      }) as typeof fetch,
      store: null,
      now: () => now,
      random: () => 0.5,
      online: () => true,
      setTimer: (run, ms) => {
        const id = nextTimer++;
        timers.set(id, { at: now + ms, run });
        return id;
      },
      clearTimer: (id) => void timers.delete(id as number),
    };
    const sync = openSync(d, null, { created() {}, status() {}, saved() {}, conflict() {} }, env);
    requests++; // the page itself
    const log: Move[] = [];
    const start = now;
    d.solution.forEach(([a, b], i) => {
      if (i % 12 === 11) log.push({ type: 'hint' }); // a hint every dozen pairs
      log.push({ type: 'match', a, b });
    });
    for (let i = 0; i < log.length; i++) {
      await runDue(start + i * paceS * 1000);
      count = i + 1;
      record(sync, log.slice(0, i + 1), i === log.length - 1 ? 'won' : 'playing', i * 3000);
      await new Promise((r) => setImmediate(r));
    }
    played += now - start;
    await runDue(now + 60_000); // the last batch goes; the next game starts later
    moves += log.length;
  }
  return { minutes: played / 60_000, requests, moves };
}

const rows: string[][] = [];
for (const pace of [3, 6, 10]) {
  const { minutes, requests, moves } = await simulate(pace, 5);
  const movesPerMinute = moves / minutes;
  const before = movesPerMinute + (5 * 2) / minutes; // one request a move, plus each game's page and creation
  const after = requests / minutes;
  rows.push([
    `${pace} s`,
    movesPerMinute.toFixed(1),
    before.toFixed(1),
    after.toFixed(1),
    `${Math.round(((CAPACITY * PLANNED) / before) * 60).toLocaleString('en')}`,
    `${Math.round(((CAPACITY * PLANNED) / after) * 60).toLocaleString('en')}`,
  ]);
}
console.log(`Requests per player-minute, whole turtle games through src/client/sync.ts (BATCH_MS batching):`);
console.log(
  ['pace (a move every)', 'moves/min', 'requests/min before', 'after', 'players/process before', 'after'].join(' | '),
);
for (const r of rows) console.log(r.join(' | '));
console.log(
  `(players per process at ${CAPACITY} req/s × ${PLANNED} planned; set BENCH_CAPACITY from npm run bench:http)`,
);
