/**
 * The counters every limit and budget counts with (services/counters.ts) as `fastify.counters`:
 * in this process's memory, or, with `redisUrl` (REDIS_URL), in Redis, so that a client meets the
 * same limits on every process of a fleet (docs/operations.md, "A fleet").
 *
 * Redis helps the limits; serving never depends on it:
 * - While Redis cannot be reached (down, refusing, too slow), every count goes to the process's own
 *   counters instead: the limits still hold, per process. The log says so once when it happens and
 *   once when Redis is back, and /healthz?detail=1 shows the state (`limits`).
 * - No waiting on a dead Redis: connecting gives up after CONNECT_TIMEOUT_MS, a command after
 *   COMMAND_TIMEOUT_MS, and commands are never queued while disconnected (ioredis' offline queue is
 *   off), so a request pays at most one command timeout when Redis dies, then none until it is back.
 * - ioredis reconnects by itself; once connected a PING says Redis answers again, and counting goes
 *   back to Redis (its counts, not the process's: a window spent while apart starts afresh there).
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { LocalCounters, type CounterWindow, type Counters, type Taken } from '../services/counters.ts';

const CONNECT_TIMEOUT_MS = 1000; // a connection attempt that takes longer has failed
const COMMAND_TIMEOUT_MS = 300; // a count that takes longer fails over to the process's counters
const RECHECK_MS = 1000; // how often a connected but failing Redis is asked again (PING)
const START_WAIT_MS = 1500; // at start, how long the app waits for Redis before it serves with per-process counts
const PREFIX = 'mahjong:'; // every key this server writes

/**
 * Spends n from every window or from none (KEYS: the windows; ARGV: n, then max and window ms per key).
 * Returns {0, 0}, or {index (1-based), ms left} of the first full window.
 */
const TAKE_LUA = `
local n = tonumber(ARGV[1])
for i = 1, #KEYS do
  local current = tonumber(redis.call('GET', KEYS[i]) or '0')
  if current + n > tonumber(ARGV[2 * i]) then
    local ttl = redis.call('PTTL', KEYS[i])
    if ttl < 0 then ttl = tonumber(ARGV[2 * i + 1]) end
    return {i, ttl}
  end
end
for i = 1, #KEYS do
  redis.call('INCRBY', KEYS[i], n)
  if redis.call('PTTL', KEYS[i]) < 0 then redis.call('PEXPIRE', KEYS[i], ARGV[2 * i + 1]) end
end
return {0, 0}
`;

/** Counts one (KEYS[1]; ARGV[1]: window ms); returns {count, ms left}. */
const HIT_LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

/** Where the counts go now, for /healthz?detail=1. */
export interface CountersState {
  store: 'process' | 'redis'; // where counts go now
  configured: 'process' | 'redis'; // where they should go (REDIS_URL set)
  since: number | null; // ms epoch of the last change, null if none yet
  problem: string | null; // why not Redis, when it should be
}

type LimitsRedis = Redis & {
  takeWindows(...args: (string | number)[]): Promise<[number, number]>;
  hitWindow(key: string, windowMs: number): Promise<[number, number]>;
};

/** Counters in Redis, falling back to the process's own while Redis cannot be reached. */
export class SharedCounters implements Counters {
  private shared = false; // counting in Redis now
  private problem: string | null = 'not connected yet';
  private since: number | null = null;
  private checking = false;
  private closing = false;
  private readonly timer: NodeJS.Timeout;
  private readonly redis: LimitsRedis;

  constructor(
    url: string,
    private readonly local: LocalCounters,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number,
  ) {
    this.redis = new Redis(url, {
      connectTimeout: CONNECT_TIMEOUT_MS,
      commandTimeout: COMMAND_TIMEOUT_MS,
      enableOfflineQueue: false, // a command while disconnected fails at once instead of piling up
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (times) => Math.min(200 * times, 2000), // reconnect for ever, at most every 2 s
    }) as LimitsRedis;
    this.redis.defineCommand('takeWindows', { lua: TAKE_LUA });
    this.redis.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_LUA });
    this.redis.on('ready', () => void this.check());
    this.redis.on('error', (error: Error) => this.fail(error)); // without a listener an error would end the process
    this.redis.on('close', () => this.fail(new Error('the connection closed')));
    this.timer = setInterval(() => void this.check(), RECHECK_MS);
    this.timer.unref();
  }

  state(): CountersState {
    return {
      store: this.shared ? 'redis' : 'process',
      configured: 'redis',
      since: this.since,
      problem: this.shared ? null : this.problem,
    };
  }

  /** Resolves once counting is in Redis, or after `timeoutMs` (then it carries on per process). */
  async connected(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.shared && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.shared;
  }

  /** Back to Redis if it answers a PING. */
  private async check(): Promise<void> {
    if (this.shared || this.checking || this.redis.status !== 'ready') return;
    this.checking = true;
    try {
      await this.redis.ping();
      this.shared = true;
      this.problem = null;
      this.since = this.now();
      this.log.info('limits: counting in Redis, shared by every process');
    } catch (error) {
      this.fail(error as Error);
    } finally {
      this.checking = false;
    }
  }

  /** Counting goes to the process's counters; logged once per change. */
  private fail(error: Error): void {
    const problem = `Redis cannot be reached: ${error.message.slice(0, 200)}`;
    if (this.closing || (!this.shared && this.since !== null)) return; // said already, or closing
    this.shared = false;
    this.problem = problem;
    this.since = this.now();
    this.log.warn({ problem }, 'limits: Redis cannot be reached; counting per process until it is back');
  }

  async take(windows: readonly CounterWindow[], n = 1): Promise<Taken> {
    if (n <= 0) return { ok: true };
    if (this.shared)
      try {
        const args: (string | number)[] = [windows.length, ...windows.map((w) => PREFIX + w.key), n];
        for (const w of windows) args.push(w.max, w.windowMs);
        const [index, ttl] = await this.redis.takeWindows(...args);
        return index === 0 ? { ok: true } : { ok: false, index: index - 1, retryAfterMs: ttl };
      } catch (error) {
        this.fail(error as Error);
      }
    return this.local.takeNow(windows, n);
  }

  async hit(key: string, windowMs: number): Promise<{ current: number; ttl: number }> {
    if (this.shared)
      try {
        const [current, ttl] = await this.redis.hitWindow(PREFIX + key, windowMs);
        return { current, ttl };
      } catch (error) {
        this.fail(error as Error);
      }
    return this.local.hit(key, windowMs);
  }

  async peek(key: string): Promise<{ current: number; ttl: number }> {
    if (this.shared)
      try {
        const [current, ttl] = await Promise.all([this.redis.get(PREFIX + key), this.redis.pttl(PREFIX + key)]);
        return { current: Number(current ?? 0), ttl: Math.max(0, ttl) };
      } catch (error) {
        this.fail(error as Error);
      }
    return this.local.peek(key);
  }

  close(): void {
    this.closing = true;
    clearInterval(this.timer);
    this.redis.disconnect(); // no QUIT round trip: Redis may be gone
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    counters: Counters;
    countersState: () => CountersState;
  }
}

export interface CountersOptions {
  redisUrl?: string; // redis://host:port[/db]; unset: counters in memory
  now: () => number;
}

async function countersPlugin(fastify: FastifyInstance, opts: CountersOptions): Promise<void> {
  const local = new LocalCounters(opts.now);
  fastify.caches.push(local.windows);
  if (!opts.redisUrl) {
    fastify.decorate('counters', local);
    fastify.decorate('countersState', (): CountersState => ({
      store: 'process',
      configured: 'process',
      since: null,
      problem: null,
    }));
    return;
  }
  const shared = new SharedCounters(opts.redisUrl, local, fastify.log, opts.now);
  fastify.decorate('counters', shared);
  fastify.decorate('countersState', () => shared.state());
  fastify.addHook('onReady', async () => {
    await shared.connected(START_WAIT_MS); // the first requests count in Redis too, when it is there
  });
  fastify.addHook('onClose', () => shared.close());
}

export default fp(countersPlugin, { name: 'counters' });
