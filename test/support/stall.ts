/**
 * The stall tests' harness: one attack at the documented limits against the real server, while normal players
 * play, and the normal players' latency before it (quiet) and during it.
 *
 * The server is the build `npm start` runs (test/server/process.ts), with its two deal workers and
 * `TRUST_PROXY=loopback`. Normal players are test/support/players.ts's: eager players of whole games through
 * the page's own sync module (page views, new games, move batches), each from an X-Forwarded-For address of its
 * own /24; optionally one more who opens a new classic deal of a built-in every 1.2 s (the deal workers' lane).
 * Attackers send from 127.0.0.x source addresses (one client: budgets count by /24) or, to show the per-process
 * share holds, with X-Forwarded-For addresses on /24s of their own (test/support/http.ts `send`).
 *
 * A run: the players warm up, their quiet figures are taken, then the attack runs for a bounded time and stops by
 * itself; requests started during it (and a moment after, for a queue it leaves behind) are its figures. The goal
 * (docs/operations.md, "CPU budgets"): the attack's p99 within max(250 ms, 3 × the quiet p99). Loopback only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FROM_DIST, startServer, type ServerProcess } from '../server/process.ts';
import { closeAgents, cookieOf, send, type Answer } from './http.ts';
import { Crowd, percentile, type Outcome } from './players.ts';

export const STALL_FLOOR_MS = 250; // the goal: a normal player's p99 under attack within this,
export const STALL_FACTOR = 3; // or this many times its quiet p99, whichever is larger

const WARM_MS = 2_000; // the players' first games (the server's first deals, its code warming up): not measured
const QUIET_MS = 6_000;
const ATTACK_MS = 10_000;
const AFTER_MS = 2_000; // requests started this soon after the attack still count: a queue it left behind
const CLASSIC_EVERY_MS = 1_200; // the classic dealer's pace (new seeds are 60 a minute per client)
const ANSWER_MS = 20_000; // a normal request with no answer by then counts as this long, status 0

/**
 * The server for one stall test, on a database of its own; `close` stops it and removes the files. With
 * STALL_PROFILE=DIR in the environment the server writes its threads' CPU profiles there (`--cpu-prof`) when
 * it stops: what a slow path spends its time on.
 */
export async function startStallServer(
  env: Record<string, string> = {},
): Promise<{ server: ServerProcess; close: () => Promise<void> }> {
  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-stall-'));
  const profile = process.env.STALL_PROFILE;
  const server = await startServer(
    path.join(dir, 'stall.db'),
    { TRUST_PROXY: 'loopback', DEAL_WORKERS: '2', ...env },
    profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, ...FROM_DIST] : FROM_DIST,
    () => false, // no log line kept: thousands of request lines
  );
  return {
    server,
    close: async () => {
      closeAgents();
      if (server.child.exitCode === null && server.child.signalCode === null) {
        server.child.kill(profile ? 'SIGTERM' : 'SIGKILL'); // a profile is written at a clean exit
        await Promise.race([server.exited, new Promise((r) => setTimeout(r, 15_000))]);
        if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill('SIGKILL');
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Latency figures of a set of requests, in ms. */
export interface Figures {
  readonly n: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
  readonly failed: readonly string[]; // requests answered 5xx or not at all: "kind status"
  readonly slowest: readonly string[]; // the three slowest: "kind status ms"
}

function figuresOf(outcomes: readonly { kind: string; ms: number; status: number }[]): Figures {
  const times = outcomes.map((o) => o.ms).sort((a, b) => a - b);
  return {
    n: times.length,
    p50: percentile(times, 50),
    p99: percentile(times, 99),
    max: times[times.length - 1] ?? NaN,
    failed: outcomes.filter((o) => o.status === 0 || o.status >= 500).map((o) => `${o.kind} ${o.status}`),
    slowest: [...outcomes]
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 3)
      .map((o) => `${o.kind} ${o.status} ${o.ms.toFixed(0)}`),
  };
}

/** The attacker's side: its answers counted by what and status (`none`: no answer). */
export class Attack {
  readonly statuses = new Map<string, number>();
  sent = 0;
  skipped = 0; // sends due while `inFlight` were still unanswered: the attack could not keep its pace

  constructor(readonly base: string) {}

  count(what: string, status: number | 'none', code?: string): void {
    const key = `${what} ${status}${code ? ` ${code}` : ''}`;
    this.statuses.set(key, (this.statuses.get(key) ?? 0) + 1);
  }

  /** One request, counted as `what`; its answer, or undefined when none came. */
  async send(what: string, method: string, url: string, opts: Parameters<typeof send>[3]): Promise<Answer | undefined> {
    this.sent++;
    try {
      const answer = await send(this.base, method, url, { timeoutMs: ANSWER_MS, ...opts });
      this.count(what, answer.status, answer.status >= 400 ? /ERR_[A-Z_]+/.exec(answer.body)?.[0] : undefined);
      return answer;
    } catch {
      this.count(what, 'none');
      return undefined;
    }
  }

  /**
   * A setup request, sent again while refused by the CPU budgets (`ERR_CPU`, `ERR_CPU_FULL`), after its
   * Retry-After (at most 5 s), at most 20 times: the attack's setup may meet the budgets the attack is about.
   * Its last answer.
   */
  async retried(
    what: string,
    method: string,
    url: string,
    opts: Parameters<typeof send>[3],
  ): Promise<Answer | undefined> {
    for (let attempt = 1; ; attempt++) {
      const answer = await this.send(what, method, url, opts);
      if (!answer || !/ERR_CPU(_FULL)?\b/.test(answer.body) || answer.status < 429 || attempt === 20) return answer;
      await new Promise((r) => setTimeout(r, 1000 * Math.min(5, Number(answer.headers['retry-after'] ?? 1))));
    }
  }

  /** A new player's cookie, as a browser gets one: a page view from `from` (and `headers`). */
  async cookie(url: string, opts: Parameters<typeof send>[3]): Promise<string | undefined> {
    const answer = await this.send('cookie', 'GET', url, opts);
    return answer && cookieOf(answer, 'mj_player');
  }

  /**
   * Starts `task` `perSecond` times a second, on time whatever the answers (an open loop, as independent
   * clients send), at most `inFlight` at once, while `running()`; resolves once every task has ended.
   */
  async paced(perSecond: number, inFlight: number, running: () => boolean, task: (i: number) => Promise<unknown>) {
    const started = performance.now();
    const open = new Set<Promise<unknown>>();
    for (let i = 0; running(); i++) {
      const due = started + (i * 1000) / perSecond;
      const wait = due - performance.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (!running()) break;
      if (open.size >= inFlight) {
        this.skipped++;
        continue;
      }
      const run: Promise<unknown> = task(i)
        .catch(() => undefined)
        .finally(() => open.delete(run));
      open.add(run);
    }
    await Promise.all(open);
  }

  /** The statuses, as `what status ×n` sorted. */
  summary(): string {
    return [...this.statuses]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([key, n]) => `${key} ×${n}`)
      .join(', ');
  }
}

export interface StallReport {
  readonly name: string;
  readonly quiet: Figures; // the normal players' pages, new games and move batches, before the attack
  readonly attack: Figures; // the same, started during the attack (and AFTER_MS after it)
  readonly classicQuiet?: Figures; // the classic dealer's new deals, when it played
  readonly classicAttack?: Figures;
  readonly limitMs: number; // max(STALL_FLOOR_MS, STALL_FACTOR × quiet p99)
  readonly classicLimitMs?: number;
  readonly attacker: Attack;
  readonly attackSeconds: number;
}

export interface StallOptions {
  readonly name: string; // printed with the figures
  readonly base: string;
  /**
   * The attack: runs while `running()` and ends by itself once it is false (its last requests answered).
   * Counts its answers on `attack`.
   */
  readonly attack: (running: () => boolean, attack: Attack) => Promise<void>;
  readonly classicDeals?: boolean; // a normal player also opens new classic deals of built-ins
  readonly attackMs?: number;
}

/** Opens a new classic turtle deal every CLASSIC_EVERY_MS while `running()`, from an address of its own. */
async function classicDealer(base: string, running: () => boolean, onOutcome: (o: Outcome) => void): Promise<void> {
  const headers: Record<string, string> = { 'x-forwarded-for': '10.250.0.9' };
  for (let n = 0; running(); n++) {
    const start = Date.now();
    const at = performance.now();
    let status = 0;
    try {
      const answer = await send(base, 'GET', `/play/turtle/classic${n}?mode=classic`, {
        headers,
        timeoutMs: ANSWER_MS,
      });
      status = answer.status;
      headers.cookie ??= cookieOf(answer, 'mj_player') ?? '';
    } catch {
      // no answer: status 0
    }
    const ms = performance.now() - at;
    onOutcome({
      kind: 'page',
      player: -1,
      start,
      ms: status === 0 ? ANSWER_MS : ms,
      status,
      retryAfter: null,
      by: null,
    });
    await new Promise((r) => setTimeout(r, Math.max(0, CLASSIC_EVERY_MS - ms)));
  }
}

const fmt = (f: Figures | undefined): string =>
  f
    ? `p50 ${f.p50.toFixed(1)} / p99 ${f.p99.toFixed(1)} ms (n ${f.n}${f.failed.length ? `, failed: ${f.failed.join(', ')}` : ''})`
    : '-';

/** Runs one attack against normal players; prints and returns the figures. */
export async function runStall(opts: StallOptions): Promise<StallReport> {
  const outcomes: Outcome[] = [];
  const classic: Outcome[] = [];
  const agent = new http.Agent({ keepAlive: true });
  const crowd = new Crowd({
    base: opts.base,
    paceMs: 700, // a move request every ~0.7 s each: under the 120 batches a minute a player may send
    agent,
    sharedSeeds: ['stall1', 'stall2'],
    onOutcome: (o) => outcomes.push(o),
    eager: true,
    requestTimeoutMs: ANSWER_MS,
  });
  crowd.add(2, 500, { layout: 'turtle' });
  crowd.add(2, 500, { layout: 'kite' }); // 40 tiles: a game every ~20 s, so pages and new games come often
  let playing = true;
  const dealer = opts.classicDeals
    ? classicDealer(
        opts.base,
        () => playing,
        (o) => classic.push(o),
      )
    : Promise.resolve();

  const attacker = new Attack(opts.base);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await sleep(WARM_MS);
    const quietFrom = Date.now();
    await sleep(QUIET_MS);
    const attackFrom = Date.now();
    const attackMs = opts.attackMs ?? ATTACK_MS;
    await opts.attack(() => Date.now() - attackFrom < attackMs, attacker);
    const attackSeconds = (Date.now() - attackFrom) / 1000;
    const attackTo = Math.max(Date.now(), attackFrom + attackMs) + AFTER_MS;
    await sleep(Math.max(0, attackTo - Date.now()));
    playing = false;
    await Promise.all([crowd.stop(), dealer]);

    const within = (list: Outcome[], from: number, to: number) =>
      list.filter((o) => o.start >= from && o.start < to).map((o) => ({ ...o, ms: o.status === 0 ? ANSWER_MS : o.ms }));
    const quiet = figuresOf(within(outcomes, quietFrom, attackFrom));
    const attack = figuresOf(within(outcomes, attackFrom, attackTo));
    const limitMs = Math.max(STALL_FLOOR_MS, STALL_FACTOR * quiet.p99);
    const report: StallReport = {
      name: opts.name,
      quiet,
      attack,
      limitMs,
      attacker,
      attackSeconds,
      ...(opts.classicDeals
        ? (() => {
            const classicQuiet = figuresOf(within(classic, quietFrom, attackFrom));
            return {
              classicQuiet,
              classicAttack: figuresOf(within(classic, attackFrom, attackTo)),
              classicLimitMs: Math.max(STALL_FLOOR_MS, STALL_FACTOR * classicQuiet.p99),
            };
          })()
        : {}),
    };
    console.log(
      `stall ${opts.name}: quiet ${fmt(quiet)}; attack ${fmt(attack)}, slowest ${attack.slowest.join(', ')} ms; limit ${limitMs.toFixed(0)} ms` +
        (opts.classicDeals
          ? `; classic deals quiet ${fmt(report.classicQuiet)}, attack ${fmt(report.classicAttack)}`
          : '') +
        `; attacker: ${attacker.sent} requests in ${attackSeconds.toFixed(1)} s (${attacker.skipped} skipped at its in-flight cap): ${attacker.summary()}`,
    );
    return report;
  } finally {
    playing = false;
    await Promise.all([crowd.stop(), dealer]);
    agent.destroy();
  }
}
