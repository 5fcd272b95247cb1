/**
 * The heavy-game attack, against the real server started as a small container would
 * run it: `node --max-old-space-size=256`. An attacker uploads 1,000-tile layouts, opens many deals of them
 * in every page variant (theme and prefs cookies), and plays games built to be heavy (many shuffles,
 * thousands of undo and redo), then asks for every game again so each is replayed from the database.
 * Before they were bounded by bytes, the caches were bounded by count (500 game states, 500 deals, 8 pages a deal), and
 * this took the process past its heap: "JavaScript heap out of memory", every player lost the service.
 *
 * Meanwhile another player plays a turtle game and opens its page, and every answer they get is timed.
 * The test checks that the process stays up, that the other player's every request is answered within
 * the goal docs/operations.md states for an attack (ATTACK_LATENCY_GOAL_MS), and that RSS, sampled from
 * /proc every 100 ms, stays under the documented bound (RSS_BOUND_MB).
 *
 * Loopback only; bounded (about 1,100 requests); the attacker's addresses come through TRUST_PROXY, as
 * ops/crash.test.ts does, so each /24 has its own budgets.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, test } from 'vitest';
import type { Deal } from '../../../src/engine/index.ts';
import { BOUNDARY, bigLayoutMap, heavyBatches, multipartFile, pacer } from '../../support/heavy.ts';
import { closeAgents, cookieOf, send, type Answer } from '../../support/http.ts';
import { FROM_DIST, startServer, type ServerProcess } from '../process.ts';

export const HEAP_MB = 256; // --max-old-space-size, as docs/capacity.md advises for a small container
export const RSS_BOUND_MB = 480; // docs/operations.md, "Memory": the process's RSS at HEAP_MB
export const ATTACK_LATENCY_GOAL_MS = 2_000; // docs/operations.md: every request of another player, during the attack

const LAYOUTS = 6; // uploaded 1,000-tile layouts
const PAGE_DEALS = 36; // deals of them opened, each in every variant below
const VARIANTS = ['', 'mj_prefs=timer-off', 'mj_prefs=paused', 'mj_prefs=timer-off.paused'].flatMap((prefs) =>
  ['theme=dark', 'theme=contrast'].map((theme) => [prefs, theme].filter(Boolean).join('; ')),
);
const GAMES = 60; // heavy games, one attacking player each (shuffles are budgeted per player)
const SHUFFLES = 50; // a game's shuffles (the per-player budget is 60 a minute)
const UNDO_REDO = 2000; // a game's undo and redo moves
const IN_FLIGHT = 4; // attacking requests at once
// The games' players, spread over this many /24s. The per-client CPU budget (3 s a minute a /24) is not what this
// test is about: on four /24s the attacker sat out minute windows (92 waits of up to a minute in one run); on
// sixteen it sends the same requests, four at a time, about as fast as the process's own window lets it.
const GAME_NETS = 16;
// The games' shuffles, 18 a batch (36 ms of estimated work on 1,000 tiles) and batches 130 ms apart: at most two in
// any quarter second, which this process's share of costly work (75 ms a quarter second) takes as they come. Twenty
// a batch were one a window, and the batches sent at once beside it were refused and sat out a whole second each.
const SHUFFLES_PER_BATCH = 18;
const SHUFFLE_GAP_MS = 130;

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-attack-'));
let server: ServerProcess | undefined;
afterAll(() => {
  closeAgents();
  if (server && server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Runs `tasks` with `n` at once; resolves when all are done. */
async function pool<T>(tasks: (() => Promise<T>)[], n: number): Promise<T[]> {
  const results: T[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        results[i] = await tasks[i]!();
      }
    }),
  );
  return results;
}

test(
  `heavy games and pages: the process stays up, answers others within ${ATTACK_LATENCY_GOAL_MS} ms, RSS under ${RSS_BOUND_MB} MB`,
  { timeout: 240_000 },
  async () => {
    server = await startServer(path.join(dir, 'attack.db'), { TRUST_PROXY: 'loopback' }, [
      `--max-old-space-size=${HEAP_MB}`,
      ...FROM_DIST,
    ]);
    const { base, child } = server;
    let exited: string | undefined;
    void server.exited.then(({ code, signal }) => {
      const stderr = server!.stderr();
      exited = `exited with ${code ?? signal}: ${/FATAL ERROR[^\n]*/.exec(stderr)?.[0] ?? stderr.slice(-300)}`;
    });
    let rssMb = 0;
    const sampler = setInterval(() => {
      try {
        const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
        if (kb) rssMb = Math.max(rssMb, Number(kb) / 1024);
      } catch {
        // gone: `exited` says why
      }
    }, 100);

    /**
     * A request of the attacker, from a /24 of its own for each `net` (the budgets count per /24). Within the
     * limits: a refusal by the CPU budget (services/cpu-budget.ts) is asked again after its Retry-After.
     */
    const failed: string[] = []; // requests that got no answer (the process went away)
    let waits = 0; // refusals by the CPU budget, each waited out
    const attack = async (
      net: number,
      method: string,
      url: string,
      headers: Record<string, string> = {},
      body?: string | Buffer,
    ): Promise<Answer> => {
      for (;;) {
        const answer = await send(base, method, url, {
          headers: { 'x-forwarded-for': `10.24.${net}.7`, ...headers },
          body,
          timeoutMs: 60_000,
        }).catch((error: Error): Answer => {
          failed.push(`${method} ${url}: ${error.message}`);
          return { status: -1, headers: {}, body: '', ms: 0 };
        });
        const cpu = /more work than one network may|busy with other people(?:'|&#39;)s heavy requests/.test(
          answer.body,
        );
        if (!cpu || (answer.status !== 429 && answer.status !== 503)) return answer;
        waits++;
        await new Promise((r) => setTimeout(r, Number(answer.headers['retry-after'] ?? 1) * 1000));
      }
    };
    const player = async (net: number): Promise<string> =>
      cookieOf(await attack(net, 'GET', '/api/stats'), 'mj_player')!;
    const json = (headers: Record<string, string>) => ({ ...headers, 'content-type': 'application/json' });

    // The other player: a turtle game and its page, from an address of their own, timed.
    const other = { 'x-forwarded-for': '192.0.2.50' };
    const otherCookie = cookieOf(await send(base, 'GET', '/api/stats', { headers: other }), 'mj_player')!;
    const started = await send(base, 'POST', '/api/games', {
      headers: json({ ...other, cookie: otherCookie }),
      body: JSON.stringify({ layout: 'turtle', seed: 'bystander' }),
    });
    expect(started.status).toBe(201);
    const game = JSON.parse(started.body) as Deal & { id: string };
    const timings: { what: string; ms: number; status: number }[] = [];
    let attacking = true;
    const bystander = (async () => {
      let pair = 0;
      while (attacking && exited === undefined) {
        const page = await send(base, 'GET', '/play/turtle/bystander', { headers: { ...other, cookie: otherCookie } });
        timings.push({ what: 'page', ms: page.ms, status: page.status });
        if (pair < game.solution.length - 1) {
          const [a, b] = game.solution[pair++]!;
          const moved = await send(base, 'POST', `/api/games/${game.id}/moves`, {
            headers: json({ ...other, cookie: otherCookie }),
            body: JSON.stringify({ at: pair - 1, moves: [{ type: 'match', a, b }] }),
          });
          timings.push({ what: 'moves', ms: moved.ms, status: moved.status });
        }
        await new Promise((r) => setTimeout(r, 150));
      }
    })().catch((error: Error) => failed.push(`the other player: ${error.message}`));

    // The attack. Uploads: 1,000-tile layouts.
    const uploader = await player(0);
    const ids: string[] = [];
    for (let i = 0; i < LAYOUTS; i++) {
      const up = await attack(
        0,
        'POST',
        '/layouts',
        { cookie: uploader, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        multipartFile(bigLayoutMap(100 + i), `big-${i}.map`),
      );
      expect(up.status, exited ?? up.body.slice(0, 300)).toBe(303);
      ids.push(/c-[0-9a-f]{12}/.exec(String(up.headers.location))![0]);
    }
    // Pages: many deals of them, each in every variant, without a cookie (no writes, all in memory).
    const pages = Array.from({ length: PAGE_DEALS }, (_, d) =>
      VARIANTS.map(
        (cookie) => () => attack(1 + (d % 3), 'GET', `/play/${ids[d % LAYOUTS]}/page${d}`, cookie ? { cookie } : {}),
      ),
    ).flat();
    // Games: many shuffles and thousands of undo/redo each, one player each.
    const played: { id: string; cookie: string; net: number }[] = []; // each game, to ask for again later
    const slot = pacer(SHUFFLE_GAP_MS);
    const games = Array.from({ length: GAMES }, (_, g) => async (): Promise<Answer[]> => {
      const net = 4 + (g % GAME_NETS);
      const cookie = await player(net);
      const made = await attack(
        net,
        'POST',
        '/api/games',
        json({ cookie }),
        JSON.stringify({ layout: ids[g % LAYOUTS], seed: `game${g % 12}` }),
      );
      if (made.status !== 201) return [made];
      const id = (JSON.parse(made.body) as { id: string }).id;
      const answers: Answer[] = [];
      for (const moves of heavyBatches(SHUFFLES, UNDO_REDO, SHUFFLES_PER_BATCH)) {
        if (moves[0]!.type === 'shuffle') await slot();
        answers.push(await attack(net, 'POST', `/api/games/${id}/moves`, json({ cookie }), JSON.stringify({ moves })));
      }
      played.push({ id, cookie, net });
      return answers;
    });
    const answers = await pool<Answer | Answer[]>([...pages, ...games], IN_FLIGHT);
    // Again, now that others have pushed each game out of memory: a replay from the stored log and boards.
    const again = await pool(
      played.map(
        ({ id, cookie, net }) =>
          () =>
            attack(
              net,
              'POST',
              `/api/games/${id}/moves`,
              json({ cookie }),
              JSON.stringify({ moves: [{ type: 'hint' }] }),
            ),
      ),
      IN_FLIGHT,
    );
    attacking = false;
    await bystander;
    clearInterval(sampler);

    await new Promise((r) => setTimeout(r, 500)); // a dying process has said why by now
    expect(exited).toBeUndefined();
    expect(failed).toEqual([]);
    const health = await send(base, 'GET', '/healthz?detail=1');
    const detail = JSON.parse(health.body) as { memory: { cachesMb: number; heapLimitMb: number } };
    const attackStatuses = [...answers.flat(), ...again].map((a) => a.status);
    const times = timings.map((t) => t.ms).sort((a, b) => a - b);
    const slowest = times[times.length - 1] ?? 0;
    const median = times[times.length >> 1] ?? 0;
    console.log(
      `attack: ${attackStatuses.length} requests (${waits} waits for the CPU budget); the other player's ${times.length} answered in at most ` +
        `${slowest.toFixed(0)} ms (median ${median.toFixed(0)} ms); peak RSS ${rssMb.toFixed(0)} MB; ` +
        `caches ${detail.memory.cachesMb} MB of a ${detail.memory.heapLimitMb} MB heap`,
    );
    expect(health.status).toBe(200);
    expect([...answers.flat(), ...again].filter((a) => a.status !== 200).map((a) => a.body.slice(0, 200))).toEqual([]); // every attacking request was served, within the caps
    expect(timings.filter((t) => t.status !== 200)).toEqual([]);
    expect(slowest).toBeLessThan(ATTACK_LATENCY_GOAL_MS);
    expect(rssMb).toBeLessThan(RSS_BOUND_MB);
    expect(detail.memory.cachesMb).toBeLessThanOrEqual(128);
  },
);
