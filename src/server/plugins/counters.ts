/** Limit counters as `fastify.counters`: memory, or Redis with a per-process fallback (docs/operations.md, "Shared limits (Redis)"). */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
import { LocalCounters, type CounterWindow, type Counters, type Taken } from '../services/counters.ts';

const CONNECT_TIMEOUT_MS = 1000;
const COMMAND_TIMEOUT_MS = 300; // then the process's counters
const RECHECK_MS = 1000;
const START_WAIT_MS = 1500;
const PREFIX = 'mahjong:';

/** Spends n from every window or none; {0, 0} or {index, ms left} of a full one. */
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

const HIT_LUA = `
local current = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {current, ttl}
`;

export interface CountersState {
  store: 'process' | 'redis';
  configured: 'process' | 'redis';
  since: number | null;
  problem: string | null;
}

type LimitsRedis = Redis & {
  takeWindows(...args: (string | number)[]): Promise<[number, number]>;
  hitWindow(key: string, windowMs: number): Promise<[number, number]>;
};

export class SharedCounters implements Counters {
  private shared = false;
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
      enableOfflineQueue: false, // fail at once while disconnected
      maxRetriesPerRequest: 0,
      autoResendUnfulfilledCommands: false,
      retryStrategy: (times) => Math.min(200 * times, 2000),
    }) as LimitsRedis;
    this.redis.defineCommand('takeWindows', { lua: TAKE_LUA });
    this.redis.defineCommand('hitWindow', { numberOfKeys: 1, lua: HIT_LUA });
    this.redis.on('ready', () => void this.check());
    this.redis.on('error', (error: Error) => this.fail(error)); // unheard, it would end the process
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

  async connected(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    while (!this.shared && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    return this.shared;
  }

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

  private fail(error: Error): void {
    const problem = `Redis cannot be reached: ${error.message.slice(0, 200)}`;
    if (this.closing || (!this.shared && this.since !== null)) return;
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
    this.redis.disconnect(); // no QUIT: Redis may be gone
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    counters: Counters;
    countersState: () => CountersState;
  }
}

export interface CountersOptions {
  redisUrl?: string;
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
    await shared.connected(START_WAIT_MS);
  });
  fastify.addHook('onClose', () => shared.close());
}

export default fp(countersPlugin, { name: 'counters' });
