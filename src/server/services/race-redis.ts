/**
 * Race rooms in Redis (services/race-store.ts), shared by every process of a fleet. The keys and the channel:
 * docs/server.md, "Race rooms in Redis"; the fleet-wide stream counts: docs/operations.md, "Live races".
 */
import { Redis } from 'ioredis';
import { randomBytes } from 'node:crypto';
import {
  StreamCounts,
  type Joined,
  type RaceMeta,
  type RaceOfGame,
  type RaceProgress,
  type RaceRoom,
  type RaceSeat,
  type RaceStore,
  type StreamBounds,
} from './race-store.ts';

const PREFIX = 'mahjong:race:';
const GAME_PREFIX = 'mahjong:race-game:';
const CHANNEL = 'mahjong:races';
const STREAMS_PREFIX = 'mahjong:race-streams:';
const COMMAND_TIMEOUT_MS = 1000; // longer fails with 503

/** Takes a seat atomically (KEYS: room, game index; ARGV: player, seat, progress, max, idle ms, now, index value). */
const JOIN_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local mine = redis.call('HGET', KEYS[1], 'who:' .. ARGV[1])
if mine then return {tonumber(mine), 0} end
local n = tonumber(redis.call('HGET', KEYS[1], 'count') or '0')
if n >= tonumber(ARGV[4]) then return 0 end
n = n + 1
redis.call('HSET', KEYS[1], 'count', n, 'who:' .. ARGV[1], n, 'seat:' .. n, ARGV[2], 'prog:' .. n, ARGV[3], 'seen:' .. n, ARGV[6])
redis.call('PEXPIRE', KEYS[1], ARGV[5])
redis.call('SET', KEYS[2], ARGV[7] .. ' ' .. n, 'PX', ARGV[5])
return {n, 1}
`;

/** Stamps a present room's start once (KEYS: room; ARGV: start); answers the start that stands. */
const START_LUA = `
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
redis.call('HSETNX', KEYS[1], 'start', ARGV[1])
return redis.call('HGET', KEYS[1], 'start')
`;

/**
 * Counts a stream atomically (KEYS: player's, client's hash; ARGV: process, now, ttl ms, the two bounds, this
 * process's two counts after it). Answers 0 (counted), 1 (player full), 2 (client full); drops stale fields.
 */
const TAKE_STREAM_LUA = `
local now, ttl = tonumber(ARGV[2]), tonumber(ARGV[3])
local function live(key)
  local total = 0
  local all = redis.call('HGETALL', key)
  for i = 1, #all, 2 do
    local n, at = string.match(all[i + 1], '^(%d+)@(%d+)$')
    if n and tonumber(at) > now - ttl then total = total + tonumber(n) else redis.call('HDEL', key, all[i]) end
  end
  return total
end
if live(KEYS[1]) >= tonumber(ARGV[4]) then return 1 end
if live(KEYS[2]) >= tonumber(ARGV[5]) then return 2 end
for i = 1, 2 do
  redis.call('HSET', KEYS[i], ARGV[1], ARGV[5 + i] .. '@' .. ARGV[2])
  redis.call('PEXPIRE', KEYS[i], ttl)
end
return 0
`;

/** Redis cannot answer: a 503 with Retry-After (errors.ts), never a 500. */
async function answered<T>(command: Promise<T>): Promise<T> {
  try {
    return await command;
  } catch (error) {
    throw Object.assign(new Error(`live races cannot reach Redis now: ${(error as Error).message}`), {
      statusCode: 503,
      code: 'ERR_UNAVAILABLE',
    });
  }
}

type RaceRedis = Redis & {
  joinRace(room: string, game: string, ...args: (string | number)[]): Promise<number | [number, number]>;
  startRace(room: string, at: number): Promise<string | null>;
  takeStream(player: string, client: string, ...args: (string | number)[]): Promise<number>;
};

const options = { commandTimeout: COMMAND_TIMEOUT_MS, maxRetriesPerRequest: 1, connectTimeout: 1000 } as const;

export class RedisRaceStore implements RaceStore {
  readonly shared = true;
  private readonly redis: RaceRedis;
  private readonly subscriber: Redis;
  private readonly listeners: ((id: string) => void)[] = [];
  private readonly process = randomBytes(6).toString('base64url'); // its field in the stream counts
  private readonly streams = new StreamCounts();
  // The last change of this process's stream counts: they change one at a time, so a heartbeat never writes a count
  // that a take in flight has already written higher, nor a close a count that misses it.
  private counting: Promise<unknown> = Promise.resolve();

  constructor(
    url: string,
    private readonly idleMs: number,
    private readonly now: () => number,
    onError: (error: Error) => void,
    private readonly streamTtlMs: number, // stream counts not renewed for this long lapse; ms
  ) {
    this.redis = new Redis(url, options) as RaceRedis;
    this.redis.defineCommand('joinRace', { numberOfKeys: 2, lua: JOIN_LUA });
    this.redis.defineCommand('startRace', { numberOfKeys: 1, lua: START_LUA });
    this.redis.defineCommand('takeStream', { numberOfKeys: 2, lua: TAKE_STREAM_LUA });
    this.subscriber = new Redis(url, { ...options, commandTimeout: undefined });
    this.redis.on('error', onError); // without a listener an error would end the process
    this.subscriber.on('error', onError);
    this.subscriber.on('message', (_channel: string, id: string) => {
      for (const listener of this.listeners) listener(id);
    });
    void this.subscriber.subscribe(CHANNEL).catch(onError); // ioredis resubscribes after a reconnect
  }

  async create(meta: RaceMeta): Promise<void> {
    await answered(
      this.redis
        .multi()
        .hset(PREFIX + meta.id, 'meta', JSON.stringify(meta), 'count', 0)
        .pexpire(PREFIX + meta.id, this.idleMs)
        .exec(),
    );
  }

  async read(id: string): Promise<RaceRoom | undefined> {
    const hash = await answered(this.redis.hgetall(PREFIX + id));
    if (!hash.meta) return undefined;
    const seats: RaceRoom['seats'][number][] = [];
    const count = Number(hash.count ?? 0);
    for (let n = 1; n <= count; n++) {
      const seat = hash[`seat:${n}`];
      const progress = hash[`prog:${n}`];
      if (!seat || !progress) continue;
      seats.push({
        ...(JSON.parse(seat) as Omit<RaceSeat, 'n'>),
        n,
        progress: JSON.parse(progress) as RaceProgress,
        seenAt: Number(hash[`seen:${n}`] ?? 0),
      });
    }
    const order = hash.order ? (JSON.parse(hash.order) as number[]) : null;
    const startsAt = hash.start ? Number(hash.start) : null;
    return { meta: JSON.parse(hash.meta) as RaceMeta, seats, order, startsAt };
  }

  async join(id: string, seat: Omit<RaceSeat, 'n'>, progress: RaceProgress, max: number): Promise<Joined> {
    const answer = await answered(
      this.redis.joinRace(
        PREFIX + id,
        GAME_PREFIX + seat.gameId,
        seat.playerId,
        JSON.stringify(seat),
        JSON.stringify(progress),
        max,
        this.idleMs,
        this.now(),
        id,
      ),
    );
    if (answer === -1) return 'missing';
    if (answer === 0) return 'full';
    const [n, fresh] = answer as [number, number];
    return { seat: n, fresh: fresh === 1 };
  }

  async raceOf(gameId: string): Promise<RaceOfGame | undefined> {
    // Asked before every move batch: with Redis away it answers at once.
    if (this.redis.status !== 'ready') return undefined;
    const value = await this.redis.get(GAME_PREFIX + gameId);
    if (!value) return undefined;
    const [id, n] = value.split(' ');
    if (!id || !n) return undefined;
    const start = await this.redis.hget(PREFIX + id, 'start');
    return { id, n: Number(n), startsAt: start ? Number(start) : null };
  }

  async start(id: string, at: number): Promise<number | null> {
    const stands = await answered(this.redis.startRace(PREFIX + id, at));
    return stands ? Number(stands) : null;
  }

  async setProgress(id: string, n: number, progress: RaceProgress): Promise<void> {
    // HSET on a gone key would make a room that never expires.
    const seat = await this.redis.hget(PREFIX + id, `seat:${n}`);
    if (!seat) return;
    const { gameId } = JSON.parse(seat) as RaceSeat;
    await this.redis
      .multi()
      .hset(PREFIX + id, `prog:${n}`, JSON.stringify(progress))
      .pexpire(PREFIX + id, this.idleMs)
      .pexpire(GAME_PREFIX + gameId, this.idleMs)
      .exec();
  }

  async seen(id: string, seats: readonly number[], at: number): Promise<void> {
    if (seats.length === 0 || !(await this.redis.exists(PREFIX + id))) return;
    await this.redis.hset(PREFIX + id, ...seats.flatMap((n) => [`seen:${n}`, at]));
  }

  async end(id: string, order: readonly number[]): Promise<readonly number[]> {
    if (!(await this.redis.exists(PREFIX + id))) return order;
    await this.redis.hsetnx(PREFIX + id, 'order', JSON.stringify(order));
    const stands = await this.redis.hget(PREFIX + id, 'order');
    return stands ? (JSON.parse(stands) as number[]) : order;
  }

  /** Runs a change of the stream counts after the ones before it. */
  private inTurn<T>(change: () => Promise<T>): Promise<T> {
    const run = this.counting.then(change, change);
    this.counting = run.catch(() => undefined);
    return run;
  }

  takeStream(player: string, client: string, max: StreamBounds): Promise<'player' | 'client' | undefined> {
    return this.inTurn(() => this.take(player, client, max));
  }

  private async take(player: string, client: string, max: StreamBounds): Promise<'player' | 'client' | undefined> {
    const mine = (map: Map<string, number>, key: string): number => (map.get(key) ?? 0) + 1;
    const answer = await answered(
      this.redis.takeStream(
        `${STREAMS_PREFIX}player:${player}`,
        `${STREAMS_PREFIX}client:${client}`,
        this.process,
        this.now(),
        this.streamTtlMs,
        max.player,
        max.client,
        mine(this.streams.player, player),
        mine(this.streams.client, client),
      ),
    );
    if (answer === 1) return 'player';
    if (answer === 2) return 'client';
    this.streams.add(player, client, 1);
    return undefined;
  }

  dropStream(player: string, client: string): Promise<void> {
    return this.inTurn(async () => {
      this.streams.add(player, client, -1);
      await this.write([
        ['player', player, this.streams.player.get(player) ?? 0],
        ['client', client, this.streams.client.get(client) ?? 0],
      ]);
    });
  }

  keepStreams(): Promise<void> {
    return this.inTurn(() =>
      this.write([
        ...[...this.streams.player].map(([key, n]) => ['player', key, n] as const),
        ...[...this.streams.client].map(([key, n]) => ['client', key, n] as const),
      ]),
    );
  }

  /** Writes this process's stream counts, stamped now. */
  private async write(counts: readonly (readonly ['player' | 'client', string, number])[]): Promise<void> {
    if (counts.length === 0) return;
    const batch = this.redis.multi();
    for (const [kind, key, n] of counts) {
      const hash = `${STREAMS_PREFIX}${kind}:${key}`;
      if (n > 0) batch.hset(hash, this.process, `${n}@${this.now()}`).pexpire(hash, this.streamTtlMs);
      else batch.hdel(hash, this.process);
    }
    await batch.exec();
  }

  async publish(id: string): Promise<void> {
    await this.redis.publish(CHANNEL, id);
  }

  subscribe(changed: (id: string) => void): void {
    this.listeners.push(changed);
  }

  async close(): Promise<void> {
    this.subscriber.disconnect();
    this.redis.disconnect();
  }
}
