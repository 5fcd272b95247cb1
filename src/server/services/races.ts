/**
 * Live races (docs/server.md, "Live races"): up to 8 players on one deal, each playing an ordinary game of it,
 * watching each other's progress over server-sent events. Progress is what the games service verified; the room
 * (services/race-store.ts) holds only membership, progress and presence. Updates to a room's viewers are coalesced
 * to one every `pushMs` and written without waiting, so a slow reader holds nobody up.
 */
import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Status } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import type { DealKey } from '../schemas/common.ts';
import { dealKey } from '../schemas/common.ts';
import type { Translator } from './i18n.ts';
import { clientKey, WindowBudget } from './limits.ts';
import { MemoryRaceStore, type RaceOfGame, type RaceRoom, type RaceStore } from './race-store.ts';
import { RedisRaceStore } from './race-redis.ts';
import { standingsOf, type Standings } from './race-standings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    races: ReturnType<typeof createRaces>;
  }
}

/** The bounds of live races (docs/operations.md, "Live races"). */
export interface RaceLimits {
  playersPerRoom: number; // racers in one room
  roomsPerHour: number; // per clientKey
  roomsPerHourAll: number;
  requestsPerSecond: number; // per player
  streamsPerPlayer: number; // on every process together
  streamsPerClient: number; // per clientKey, on every process together
  streamsAll: number; // on this process
  pushMs: number; // at most one update a room this often; ms
  heartbeatMs: number; // presence and keep-alive; ms
  graceMs: number; // a racer unseen for longer is `gone`; ms
  idleMs: number; // a room without a join or a move closes; ms
  countdownMs: number; // from the start asked for to the start; ms
}

export const RACE_LIMITS: RaceLimits = {
  playersPerRoom: 8,
  roomsPerHour: 20,
  roomsPerHourAll: 5000,
  requestsPerSecond: 5,
  streamsPerPlayer: 4,
  streamsPerClient: 64, // a school or an office behind one address
  streamsAll: 400, // half of connections.ts maxConnections
  pushMs: 250,
  heartbeatMs: 15_000, // under the proxy's idle timeout (deploy/haproxy.cfg)
  graceMs: 60_000,
  idleMs: 30 * 60_000,
  countdownMs: 3000,
};

/** One viewer's live stream of a room. */
interface Stream {
  readonly raw: ServerResponse;
  readonly playerId: string;
  readonly client: string;
  readonly i18n: Translator;
  last: string; // the last update written, to skip repeats
}

export type RaceView = (standings: Standings, playerId: string, i18n: Translator) => string;

export function createRaces(fastify: FastifyInstance, store: RaceStore, limits: RaceLimits, now: () => number) {
  const rooms = new WindowBudget('races:client', limits.roomsPerHour, 3_600_000, fastify.counters);
  const roomsAll = new WindowBudget('races:all', limits.roomsPerHourAll, 3_600_000, fastify.counters);
  const requests = new WindowBudget('races:requests', limits.requestsPerSecond, 1000, fastify.counters);
  const streams = new Map<string, Set<Stream>>(); // room id → its viewers on this process
  let open = 0;
  const pending = new Map<string, NodeJS.Timeout>();
  const pushedAt = new Map<string, number>();
  let view: RaceView = () => '';
  let closing = false;

  const noRace = (): Refusal => ({
    ok: false,
    code: 'ERR_NO_RACE',
    message: `there is no such race: races close after ${Math.round(limits.idleMs / 1000)} s without a move`,
  });

  /** Writes one event without waiting for a slow reader. */
  const write = (stream: Stream, text: string): void => {
    if (!stream.raw.writableEnded && !stream.raw.destroyed) stream.raw.write(text);
  };

  /** Sends a room's changed standings to its viewers on this process. */
  async function pushNow(id: string): Promise<void> {
    pending.delete(id);
    pushedAt.set(id, now());
    try {
      await update(id);
    } catch (error) {
      fastify.log.warn({ err: error, race: id }, 'races: a room not updated; its viewers wait for the next update');
    }
  }

  async function update(id: string): Promise<void> {
    const viewers = streams.get(id);
    if (!viewers || viewers.size === 0) return;
    const room = await store.read(id);
    if (!room) {
      for (const stream of viewers) {
        write(stream, 'event: closed\ndata: {}\n\n');
        stream.raw.end();
      }
      return;
    }
    let standings = standingsOf(room, now(), limits.graceMs);
    if (standings.ending) {
      const order = await store.end(id, standings.ending);
      standings = standingsOf({ ...room, order }, now(), limits.graceMs);
      void store.publish(id).catch(() => undefined);
    }
    const { startsAt } = standings;
    const startsIn = startsAt === null ? null : startsAt - now();
    for (const stream of viewers) {
      const html = view(standings, stream.playerId, stream.i18n);
      if (`${startsAt} ${html}` === stream.last) continue;
      stream.last = `${startsAt} ${html}`;
      const ended = standings.order !== null;
      write(stream, `event: race\ndata: ${JSON.stringify({ html, ended, startsAt, startsIn })}\n\n`);
    }
  }

  /** Sends a room's standings soon: at most one update every pushMs. */
  function push(id: string): void {
    if (pending.has(id) || !streams.has(id) || closing) return;
    const wait = Math.max(0, (pushedAt.get(id) ?? 0) + limits.pushMs - now());
    const timer = setTimeout(() => void pushNow(id), wait);
    timer.unref();
    pending.set(id, timer);
  }

  store.subscribe(push);

  // Presence and keep-alive; renewing this process's stream counts lets a dead process's counts lapse.
  const heartbeat = setInterval(() => {
    void store.keepStreams().catch((error: unknown) => fastify.log.warn({ err: error }, 'races: streams not renewed'));
    for (const [id, viewers] of streams) {
      const players = new Set([...viewers].map((s) => s.playerId));
      void store
        .read(id)
        .then(async (room) => {
          if (!room) return push(id);
          const seats = room.seats.filter((s) => players.has(s.playerId)).map((s) => s.n);
          await store.seen(id, seats, now());
          for (const stream of viewers) write(stream, ': still here\n\n');
          push(id);
        })
        .catch((error: unknown) => fastify.log.warn({ err: error, race: id }, 'races: presence not marked'));
    }
  }, limits.heartbeatMs);
  heartbeat.unref();

  return {
    store,
    limits,
    now,

    /** Sets how a viewer's standings are rendered. */
    setView(render: RaceView): void {
      view = render;
    },

    /** A refusal when `playerKey` made too many race requests this second. */
    async charge(playerKey: string): Promise<Refusal | undefined> {
      const wait = await requests.take(playerKey);
      return wait === undefined
        ? undefined
        : {
            ok: false,
            code: 'ERR_RATE_LIMITED',
            retryAfterS: wait,
            message: `at most ${limits.requestsPerSecond} race requests a second; try again in ${wait} s`,
          };
    },

    /** Opens a room on a deal with its maker as the first racer. */
    async create(playerId: string, client: string, key: DealKey): Promise<{ id: string } | Refusal> {
      const found = await fastify.dealer.get(key, client);
      if (!found.ok) return found;
      for (const [budget, by, who] of [
        [rooms, client, 'you'],
        [roomsAll, 'all', 'everyone'],
      ] as const) {
        const wait = await budget.take(by);
        if (wait !== undefined)
          return {
            ok: false,
            code: 'ERR_RATE_LIMITED',
            retryAfterS: wait,
            message: `${who} opened as many races this hour as may be (${budget.max}); try again in ${Math.ceil(wait / 60)} min`,
          };
      }
      const id = randomBytes(9).toString('base64url');
      await store.create({ id, layout: key.layout, seed: key.seed, mode: key.mode, createdAt: now() });
      const joined = await this.join(playerId, client, id);
      return 'ok' in joined ? joined : { id };
    },

    /** Seats a player in a room with a new game of its deal; a seated player keeps their seat. */
    async join(playerId: string, client: string, id: string): Promise<{ seat: number } | Refusal> {
      const room = await store.read(id);
      if (!room) return noRace();
      const mine = room.seats.find((s) => s.playerId === playerId);
      if (mine) return { seat: mine.n };
      if (room.order) return { ok: false, code: 'ERR_RACE_OVER', message: 'this race is over; open a new one' };
      if (room.seats.length >= limits.playersPerRoom)
        return { ok: false, code: 'ERR_RACE_FULL', message: `this race has ${limits.playersPerRoom} players already` };
      const found = await fastify.dealer.get(dealKey(room.meta.layout, room.meta.seed, room.meta.mode), client);
      if (!found.ok) return found;
      const created = await fastify.games.create(playerId, found.value, { client, fresh: true });
      if ('ok' in created) return created;
      const name = (await fastify.playersStore.find(playerId))?.nickname ?? null;
      const joined = await store.join(
        id,
        { playerId, gameId: created.id, name, joinedAt: now() },
        { left: found.value.deal.tiles.length, status: 'playing', finishedAt: null },
        limits.playersPerRoom,
      );
      if (joined === 'missing') return noRace();
      if (joined === 'full')
        return { ok: false, code: 'ERR_RACE_FULL', message: `this race has ${limits.playersPerRoom} players already` };
      // A full room starts by itself.
      if (joined.fresh && joined.seat >= limits.playersPerRoom) await store.start(id, now() + limits.countdownMs);
      await store.publish(id);
      return { seat: joined.seat };
    },

    /** Starts the race `countdownMs` from now: by its maker, or any racer once the maker is gone. */
    async start(playerId: string, id: string): Promise<{ startsAt: number } | Refusal> {
      const room = await store.read(id);
      if (!room) return noRace();
      if (room.startsAt !== null) return { startsAt: room.startsAt };
      const standings = standingsOf(room, now(), limits.graceMs);
      const me = standings.racers.find((r) => r.playerId === playerId);
      const host = standings.racers.find((r) => r.n === 1);
      if (!me || (me.n !== 1 && host?.status !== 'gone'))
        return { ok: false, code: 'ERR_NOT_RACE_HOST', message: 'only the player who opened this race may start it' };
      const startsAt = await store.start(id, now() + limits.countdownMs);
      if (startsAt === null) return noRace();
      await store.publish(id);
      return { startsAt };
    },

    /** Before a batch: the game's race, if any, or a refusal before its start. Redis away, moves go on. */
    async gate(gameId: string): Promise<RaceOfGame | Refusal | undefined> {
      let found: RaceOfGame | undefined;
      try {
        found = await store.raceOf(gameId);
      } catch (error) {
        fastify.log.warn({ err: error, game: gameId }, 'races: the race of a game not known');
        return undefined;
      }
      if (!found || (found.startsAt !== null && found.startsAt <= now())) return found;
      const wait = found.startsAt === null ? null : Math.ceil((found.startsAt - now()) / 1000);
      return {
        ok: false,
        code: 'ERR_RACE_NOT_STARTED',
        message:
          wait === null
            ? 'this race has not started: its maker starts it for everyone at once'
            : `this race starts in ${wait} s: moves count from its start`,
      };
    },

    /** The room and the viewer's seat in it (with its game's id), if the room is there. */
    async find(id: string, playerId: string) {
      let room = await store.read(id);
      if (!room) return undefined;
      const seat = room.seats.find((s) => s.playerId === playerId);
      let standings = standingsOf(room, now(), limits.graceMs);
      if (standings.ending) {
        // Ended just now: whoever sees it first records the order.
        room = { ...room, order: await store.end(id, standings.ending) };
        standings = standingsOf(room, now(), limits.graceMs);
        await store.publish(id);
      }
      return { room, seat, standings };
    },

    /** After a verified batch (`found`: gate's answer): the race hears of the game's new state. */
    async moved(
      found: RaceOfGame,
      gameId: string,
      left: number,
      status: Status,
      finishedAt: number | null,
    ): Promise<void> {
      try {
        await store.setProgress(found.id, found.n, { left, status, finishedAt });
        await store.publish(found.id);
      } catch (error) {
        // The move is stored: `mend` catches the room up.
        fastify.log.warn({ err: error, game: gameId }, 'races: progress not recorded');
      }
    },

    /** Mends a room's progress from its games in the database. */
    async mend(room: RaceRoom): Promise<void> {
      let changed = false;
      for (const seat of room.seats) {
        const row = await fastify.gamesStore.findById(seat.gameId);
        if (!row) continue;
        const { left, status, finishedAt } = seat.progress;
        if (row.tiles_left === left && row.status === status && row.finished_at === finishedAt) continue;
        await store.setProgress(room.meta.id, seat.n, {
          left: row.tiles_left,
          status: row.status,
          finishedAt: row.finished_at,
        });
        changed = true;
      }
      if (changed) await store.publish(room.meta.id);
    },

    /** Answers with the room's live stream until either side closes, or a refusal when streams are at their bounds. */
    async stream(request: FastifyRequest, reply: FastifyReply, room: RaceRoom): Promise<Refusal | undefined> {
      const id = room.meta.id;
      const client = clientKey(request.ip);
      const refuse = (message: string): Refusal => ({ ok: false, code: 'ERR_RACE_STREAMS', retryAfterS: 10, message });
      if (open >= limits.streamsAll)
        return refuse('this server follows as many races as it can; try again in a moment');
      const full = await store.takeStream(request.playerId, client, {
        player: limits.streamsPerPlayer,
        client: limits.streamsPerClient,
      });
      if (full === 'player') return refuse(`a player may follow ${limits.streamsPerPlayer} races at once (one a tab)`);
      if (full === 'client') return refuse(`one network may follow ${limits.streamsPerClient} races at once`);
      const stream: Stream = { raw: reply.raw, playerId: request.playerId, client, i18n: request.i18n, last: '' };
      reply.hijack();
      reply.raw.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-content-type-options': 'nosniff',
        'x-accel-buffering': 'no', // a buffering proxy would hold the events back
        connection: 'keep-alive',
      });
      reply.raw.write('retry: 2000\n\n'); // the browser comes back in 2 s after a drop
      const viewers = streams.get(id) ?? new Set<Stream>();
      streams.set(id, viewers.add(stream));
      open++;
      reply.raw.on('close', () => {
        viewers.delete(stream);
        if (viewers.size === 0) {
          streams.delete(id);
          pushedAt.delete(id);
          clearTimeout(pending.get(id));
          pending.delete(id);
        }
        open--;
        void store
          .dropStream(stream.playerId, client)
          .catch((error: unknown) => fastify.log.warn({ err: error }, 'races: a closed stream not counted off'));
      });
      const seat = room.seats.find((s) => s.playerId === stream.playerId);
      if (seat) await store.seen(id, [seat.n], now());
      await store.publish(id);
      void pushNow(id);
      return undefined;
    },

    /** Streams open on this process. */
    openStreams: (): number => open,

    /** Ends every stream and stops the timers. */
    async close(): Promise<void> {
      closing = true;
      clearInterval(heartbeat);
      for (const timer of pending.values()) clearTimeout(timer);
      for (const viewers of streams.values()) for (const stream of viewers) stream.raw.end();
      streams.clear();
      await store.close();
    },
  };
}

export default fp(
  async (fastify: FastifyInstance, opts: { redisUrl?: string; limits?: Partial<RaceLimits>; now: () => number }) => {
    const limits = { ...RACE_LIMITS, ...opts.limits };
    const store: RaceStore = opts.redisUrl
      ? new RedisRaceStore(
          opts.redisUrl,
          limits.idleMs,
          opts.now,
          (error) => fastify.log.warn({ err: error }, 'races: Redis error'),
          3 * limits.heartbeatMs, // two heartbeats may be late
        )
      : new MemoryRaceStore(limits.idleMs, opts.now);
    const races = createRaces(fastify, store, limits, opts.now);
    fastify.decorate('races', races);
    fastify.addHook('preClose', async () => races.close()); // open streams would hold the close for ever
  },
  { name: 'races', dependencies: ['stores', 'dealer', 'games', 'counters'] },
);
