/**
 * Simulated players at a human pace, for the fleet's restart tests and `npm run bench:fleet`.
 *
 * Each plays whole games (of the turtle, or `layout`) as a person in a browser does:
 * - it opens the deal's page (the first one sets its cookie) and reads `#deal-data`, the deal and the
 *   player's unfinished game of it, as the page's script does;
 * - it plays the deal's solution one pair at a time, with a hint every dozen pairs, pausing between moves
 *   as a person does (`paceMs` on average, uniformly from half to one and a half times it);
 * - it hands every move to the page's own sync module (src/client/sync.ts), which does what it does in the
 *   browser: the first move at once (it makes the game), then a batch at most BATCH_MS (8 s) after the
 *   first waiting move, the win at once; failures tried again after Retry-After (429, 503) or a growing
 *   delay with jitter (other 5xx, no answer); the server's log taken on a conflict;
 * - after a win it pauses (two moves' time) and opens the next deal: half of them links many people share
 *   (the first one too: most people arrive by a link), half new deals of its own.
 *
 * Every player has an address of its own (X-Forwarded-For, trusted from loopback; a /24 each), so the
 * rate limits and budgets count each as the one person it is. `eager` players play fast (a move every
 * `paceMs`, half a second, say: the limit of move requests one client may send is 120 a minute) and send every
 * move as its own request once the last is answered (the sync's `sendNow`): not human, but they keep requests
 * arriving all the time, which is what a test of a restart needs to catch one that fails.
 *
 * Every request's outcome goes to `onOutcome`: which kind, when, how long, the status (0 for no answer)
 * and the Retry-After it carried. Every game keeps what the server acknowledged (the sync's `acked`, the
 * server's `moves`, and whether it said "won"), which `lostMoves` checks against the database afterwards.
 * Requests go through one keep-alive `http.Agent`, as a balancer or a browser keeps its connections.
 */
import http from 'node:http';
import pg from 'pg';
import { isBoardMove, isSameMove, type Deal, type Move, type Status } from '../../src/engine/index.ts';
import { openSync, record, sendNow, type Sync, type SyncEnv, type SyncHooks } from '../../src/client/sync.ts';

export type RequestKind = 'page' | 'new game' | 'moves';

export interface Outcome {
  readonly kind: RequestKind;
  readonly player: number;
  readonly start: number; // ms epoch the request was sent
  readonly ms: number; // until its whole answer arrived
  readonly status: number; // 0: no answer (refused, reset, timed out)
  readonly retryAfter: string | null;
  readonly by: string | null; // X-Served-By: which process answered, through the balancer
  readonly error?: string; // why there was no answer, or the start of a failed answer's body
}

/** A game as its player saw it: what the server acknowledged of its log. */
export interface PlayedGame {
  id: string | null; // null until the server made it
  readonly seed: string;
  log: readonly Move[]; // the player's whole log (the server's, after a conflict)
  acked: number; // moves of `log` the server acknowledged (answered 200 for)
  serverMoves: number; // the server's move count in its latest 200 (hints included)
  won: boolean; // the server answered "won"
  conflicts: number; // 409s whose log the sync adopted
}

export interface PlayersOptions {
  base: string; // http://127.0.0.1:PORT: the balancer, or one process
  paceMs: number; // mean ms between a player's moves
  agent: http.Agent;
  sharedSeeds: readonly string[]; // links many people open; the other half of the games are new deals
  onOutcome: (outcome: Outcome) => void;
  eager?: boolean; // every move its own request, sent when the last is answered, `paceMs` apart (see the module notes)
  tag?: string; // put in new seeds, so several crowds on one database do not meet
  layout?: string; // the layout played (default turtle, 144 tiles; a small one makes quick games)
  requestTimeoutMs?: number; // a request with no answer by then counts as none (default 30 s)
}

const SERVED_BY = 'x-served-by';
const DEAL_DATA = /<script type="application\/json" id="deal-data">([^<]*)<\/script>/;

/** The address of player `i`: a /24 of its own under 10.0.0.0/8. */
const addressOf = (i: number): string => `10.${(i >> 8) & 255}.${i & 255}.${1 + ((i >> 16) & 127)}`;

/** One response: status, headers we read, body, and the player's cookie if it set one. */
interface Answer {
  status: number;
  body: Buffer;
  retryAfter: string | null;
  by: string | null;
}

/** Sends one request through `agent`; rejects when no answer came (refused, reset, timed out). */
function send(
  agent: http.Agent,
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: string | undefined,
  timeoutMs: number,
): Promise<Answer & { setCookie: string[] }> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers, agent }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body: Buffer.concat(chunks),
          retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
          by: (res.headers[SERVED_BY] as string | undefined) ?? null,
          setCookie: res.headers['set-cookie'] ?? [],
        }),
      );
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/** The moves of a whole game of `deal`: its solution's pairs, with a hint every dozen. */
function plan(deal: Deal): Move[] {
  const moves: Move[] = [];
  deal.solution.forEach(([a, b], i) => {
    if (i % 12 === 11) moves.push({ type: 'hint' });
    moves.push({ type: 'match', a, b });
  });
  return moves;
}

/** One simulated player. */
export class SimulatedPlayer {
  readonly games: PlayedGame[] = [];
  private cookie: string | undefined;
  private stopped = false;
  private readonly timers = new Set<NodeJS.Timeout>();
  private sync: Sync | undefined;
  private running: Promise<void> | undefined;
  private played = 0;
  private wake = new Set<() => void>(); // pauses in progress, ended at once by stop()

  constructor(
    readonly index: number,
    private readonly opts: PlayersOptions,
  ) {}

  /** Starts playing (after `delayMs`, to spread a crowd's first requests). */
  start(delayMs = 0): void {
    this.running = this.pause(delayMs).then(() => this.loop());
  }

  /** Waits `ms`, or until stop(). */
  private pause(ms: number): Promise<void> {
    if (this.stopped) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wake.delete(done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wake.add(done);
    });
  }

  /** Stops after the move in hand; resolves once its requests in flight are answered. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
    for (const done of [...this.wake]) done();
    await this.running;
    await this.sync?.flight;
  }

  /** A request as the browser sends it: the player's cookie and address, its outcome reported. */
  private async request(kind: RequestKind, url: string, method: string, body?: string): Promise<Answer> {
    const headers: Record<string, string> = { 'x-forwarded-for': addressOf(this.index), accept: '*/*' };
    if (this.cookie) headers.cookie = this.cookie;
    if (body !== undefined) headers['content-type'] = 'application/json';
    const start = Date.now();
    const at = performance.now();
    const report = (status: number, answer?: Answer, error?: string) =>
      this.opts.onOutcome({
        kind,
        player: this.index,
        start,
        ms: performance.now() - at,
        status,
        retryAfter: answer?.retryAfter ?? null,
        by: answer?.by ?? null,
        ...(error === undefined ? {} : { error }),
      });
    let answer: Answer & { setCookie: string[] };
    try {
      answer = await send(
        this.opts.agent,
        new URL(url, this.opts.base),
        method,
        headers,
        body,
        this.opts.requestTimeoutMs ?? 30_000,
      );
    } catch (error) {
      report(0, undefined, (error as Error).message);
      throw new TypeError('fetch failed', { cause: error }); // what fetch throws with no answer
    }
    for (const line of answer.setCookie) {
      const match = /^mj_player=[^;]+/.exec(line);
      if (match) this.cookie = match[0];
    }
    const failed = answer.status < 200 || answer.status >= 300;
    report(answer.status, answer, failed ? answer.body.toString().slice(0, 160) : undefined);
    return answer;
  }

  /** The sync's view of the browser: fetch through `request`, no storage, real timers (cleared on stop). */
  private env(): SyncEnv {
    return {
      fetch: (async (input: string, init?: RequestInit) => {
        const kind: RequestKind = input === '/api/games' ? 'new game' : 'moves';
        const answer = await this.request(kind, input, init?.method ?? 'GET', init?.body as string | undefined);
        const headers = new Headers({ 'content-type': 'application/json' });
        if (answer.retryAfter !== null) headers.set('retry-after', answer.retryAfter);
        return new Response(new Uint8Array(answer.body), { status: answer.status, headers });
      }) as typeof fetch,
      store: null,
      now: Date.now,
      random: Math.random,
      online: () => true,
      setTimer: (run, ms) => {
        if (this.stopped) return null;
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          if (!this.stopped) run();
        }, ms);
        this.timers.add(timer);
        return timer;
      },
      clearTimer: (timer) => {
        clearTimeout(timer as NodeJS.Timeout);
        this.timers.delete(timer as NodeJS.Timeout);
      },
    };
  }

  /** Opens a deal's page as a browser does, reloading after a failure; its `#deal-data`. */
  private async open(seed: string): Promise<{ deal: Deal; game: { id: string; log: Move[] } | null } | null> {
    for (let attempt = 0; !this.stopped; attempt++) {
      let answer: Answer | undefined;
      try {
        answer = await this.request('page', `/play/${this.opts.layout ?? 'turtle'}/${seed}`, 'GET');
      } catch {
        answer = undefined;
      }
      if (answer?.status === 200) {
        const json = DEAL_DATA.exec(answer.body.toString())?.[1];
        if (!json) throw new Error(`the page of ${seed} has no #deal-data`);
        return JSON.parse(json) as { deal: Deal; game: { id: string; log: Move[] } | null };
      }
      if (answer && answer.status < 500 && answer.status !== 429)
        throw new Error(`the page of ${seed} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`);
      // A person reloads: after Retry-After, or a couple of seconds.
      await this.pause(answer?.retryAfter ? Number(answer.retryAfter) * 1000 : Math.min(8000, 1000 * 2 ** attempt));
    }
    return null;
  }

  private nextSeed(): string {
    const { sharedSeeds, tag = 'p' } = this.opts;
    this.played++;
    return this.played % 2 === 1 && sharedSeeds.length > 0 // the first game a shared link, as most arrive
      ? sharedSeeds[(this.index + this.played) % sharedSeeds.length]!
      : `${tag}${this.index}x${this.played}`;
  }

  private async loop(): Promise<void> {
    const { paceMs, eager } = this.opts;
    const think = () => paceMs * (0.5 + Math.random());
    while (!this.stopped) {
      const seed = this.nextSeed();
      const data = await this.open(seed);
      if (!data) return;
      if (data.game && data.game.log.length > 0) continue; // an unfinished game of this deal: play another one
      const game: PlayedGame = { id: null, seed, log: [], acked: 0, serverMoves: 0, won: false, conflicts: 0 };
      this.games.push(game);
      let sync!: Sync;
      const hooks: SyncHooks = {
        created: (id) => void (game.id = id),
        status: () => {},
        saved: (answer) => {
          game.acked = sync.acked;
          game.log = sync.log;
          game.serverMoves = Math.max(game.serverMoves, answer.moves);
          if (answer.status === 'won') game.won = true;
        },
        conflict: (log) => {
          game.conflicts++;
          game.log = log;
          game.acked = log.length;
        },
      };
      sync = openSync(data.deal, data.game, hooks, this.env());
      this.sync = sync;
      const moves = plan(data.deal);
      const started = Date.now();
      for (let i = 0; i < moves.length && !this.stopped; i++) {
        await this.pause(think());
        if (this.stopped) break;
        const log = [...sync.log, moves[i]!];
        const status: Status = i === moves.length - 1 ? 'won' : 'playing';
        record(sync, log, status, Date.now() - started);
        if (eager) {
          sendNow(sync);
          await sync.flight;
          while (sync.acked < sync.log.length && !this.stopped) await this.pause(50); // being retried
        }
      }
      // The win goes at once; a failed send is being retried by the sync: wait for it, as the page shows "Saving…".
      while (!this.stopped && sync.acked < sync.log.length) await this.pause(100);
      await this.pause(2 * think());
    }
  }
}

/** A crowd of players on one base. */
export class Crowd {
  readonly players: SimulatedPlayer[] = [];
  constructor(private readonly opts: PlayersOptions) {}

  /** Adds `count` players, their first requests spread over `spreadMs`. */
  add(count: number, spreadMs = 0, opts: Partial<PlayersOptions> = {}): void {
    for (let i = 0; i < count; i++) {
      const player = new SimulatedPlayer(this.players.length, { ...this.opts, ...opts });
      this.players.push(player);
      player.start(Math.random() * spreadMs);
    }
  }

  async stop(): Promise<void> {
    await Promise.all(this.players.map((p) => p.stop()));
  }

  games(): PlayedGame[] {
    return this.players.flatMap((p) => p.games);
  }
}

/** A game as stored: its move count, log (board moves only: hints and checks are counted, not logged) and result. */
export interface StoredGame {
  readonly moveCount: number;
  readonly log: readonly Move[];
  readonly result: string | null;
}

/**
 * What the database lost of what the server acknowledged: per game, the acknowledged board moves missing
 * from the stored log (or differing from it), a win answered and not stored, an acknowledged game not stored.
 */
export function lostMoves(
  games: readonly PlayedGame[],
  stored: ReadonlyMap<string, StoredGame>,
): { moves: number; wins: number; games: number; acknowledged: number; details: string[] } {
  let moves = 0;
  let wins = 0;
  let missingGames = 0;
  let acknowledged = 0;
  const details: string[] = [];
  for (const game of games) {
    if (game.id === null || game.acked === 0) continue;
    const mine = game.log.slice(0, game.acked).filter(isBoardMove);
    acknowledged += mine.length;
    const row = stored.get(game.id);
    if (!row) {
      missingGames++;
      moves += mine.length;
      details.push(`game ${game.id}: not stored (${mine.length} moves acknowledged)`);
      continue;
    }
    let same = 0;
    while (same < mine.length && same < row.log.length && isSameMove(mine[same]!, row.log[same]!)) same++;
    if (same < mine.length || row.moveCount < game.serverMoves) {
      moves += mine.length - same;
      details.push(
        `game ${game.id}: ${same} of ${mine.length} acknowledged moves stored (move_count ${row.moveCount}, answered ${game.serverMoves})`,
      );
    }
    if (game.won && row.result !== 'won') {
      wins++;
      details.push(`game ${game.id}: answered "won", stored ${row.result}`);
    }
  }
  return { moves, wins, games: missingGames, acknowledged, details };
}

/** Percentile `p` (0–100) of ascending `sorted`. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

/** Every game in the PostgreSQL database at `url`, as stored. */
export async function readStoredGames(url: string): Promise<Map<string, StoredGame>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string; move_count: number; moves_json: string; result: string | null }>(
      'SELECT id, move_count, moves_json, result FROM games',
    );
    return new Map(
      rows.map((r) => [
        r.id,
        { moveCount: Number(r.move_count), log: JSON.parse(r.moves_json) as Move[], result: r.result },
      ]),
    );
  } finally {
    await client.end();
  }
}
