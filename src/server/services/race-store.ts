/**
 * Where live races keep their rooms (docs/server.md, "Live races"): in memory, or in Redis with REDIS_URL
 * (services/race-redis.ts). A room holds membership and progress only, its keys live `idleMs` past its last
 * change, and each field has one writer, so no write overwrites another's.
 */
import type { Mode } from '../../engine/index.ts';

export type RaceProgressStatus = 'playing' | 'won' | 'stuck';

export interface RaceMeta {
  readonly id: string;
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
  readonly createdAt: number;
}

/** A racer; `n` is the seat, 1 for the room's maker. */
export interface RaceSeat {
  readonly n: number;
  readonly playerId: string;
  readonly gameId: string;
  readonly name: string | null;
  readonly joinedAt: number;
}

/** A racer's game as the server last verified it. */
export interface RaceProgress {
  readonly left: number;
  readonly status: RaceProgressStatus;
  readonly finishedAt: number | null;
}

export interface RaceRoom {
  readonly meta: RaceMeta;
  readonly seats: readonly (RaceSeat & { progress: RaceProgress; seenAt: number })[]; // by seat
  readonly order: readonly number[] | null; // seats in final order
  readonly startsAt: number | null; // ms epoch; null until stamped
}

export interface StreamBounds {
  readonly player: number;
  readonly client: number; // per clientKey
}

/** This process's streams, counted by player and by client. */
export class StreamCounts {
  readonly player = new Map<string, number>();
  readonly client = new Map<string, number>();

  add(player: string, client: string, by: number): void {
    for (const [map, key] of [
      [this.player, player],
      [this.client, client],
    ] as const) {
      const n = (map.get(key) ?? 0) + by;
      if (n > 0) map.set(key, n);
      else map.delete(key);
    }
  }
}

export interface RaceOfGame {
  readonly id: string;
  readonly n: number;
  readonly startsAt: number | null;
}

export type Joined = { readonly seat: number; readonly fresh: boolean } | 'full' | 'missing';

export interface RaceStore {
  readonly shared: boolean; // Redis
  create(meta: RaceMeta): Promise<void>;
  read(id: string): Promise<RaceRoom | undefined>;
  /** Takes the next seat (at most `max`), or answers the player's seat. */
  join(id: string, seat: Omit<RaceSeat, 'n'>, progress: RaceProgress, max: number): Promise<Joined>;
  /** The race and seat a game plays in, if any, with the room's start. */
  raceOf(gameId: string): Promise<RaceOfGame | undefined>;
  /** Stamps the room's start once; answers the one that stands (null: no room). */
  start(id: string, at: number): Promise<number | null>;
  setProgress(id: string, n: number, progress: RaceProgress): Promise<void>;
  seen(id: string, seats: readonly number[], at: number): Promise<void>;
  /** Records the final order once; answers the order that stands. */
  end(id: string, order: readonly number[]): Promise<readonly number[]>;
  /** Counts a stream, or answers which bound is full (counting nothing). */
  takeStream(player: string, client: string, max: StreamBounds): Promise<'player' | 'client' | undefined>;
  dropStream(player: string, client: string): Promise<void>;
  /** Renews this process's stream counts. */
  keepStreams(): Promise<void>;
  publish(id: string): Promise<void>;
  /** Calls `changed` with each room that changes anywhere. */
  subscribe(changed: (id: string) => void): void;
  close(): Promise<void>;
}

interface MemoryRoom {
  meta: RaceMeta;
  seats: Map<number, RaceSeat & { progress: RaceProgress; seenAt: number }>;
  order: readonly number[] | null;
  startsAt: number | null;
  touchedAt: number;
}

/** Rooms in this process's memory: the embedded default. */
export class MemoryRaceStore implements RaceStore {
  readonly shared = false;
  private readonly rooms = new Map<string, MemoryRoom>();
  private readonly games = new Map<string, { id: string; n: number }>(); // game id → race and seat
  private readonly listeners: ((id: string) => void)[] = [];
  private readonly timer: NodeJS.Timeout;
  private readonly streams = new StreamCounts();

  constructor(
    private readonly idleMs: number,
    private readonly now: () => number,
  ) {
    this.timer = setInterval(() => this.sweep(), Math.min(60_000, idleMs));
    this.timer.unref();
  }

  /** Forgets rooms idle past `idleMs`. */
  sweep(): void {
    const cutoff = this.now() - this.idleMs;
    for (const [id, room] of this.rooms) {
      if (room.touchedAt > cutoff) continue;
      this.rooms.delete(id);
      for (const seat of room.seats.values()) this.games.delete(seat.gameId);
    }
  }

  private live(id: string): MemoryRoom | undefined {
    const room = this.rooms.get(id);
    if (room && room.touchedAt <= this.now() - this.idleMs) {
      this.sweep();
      return undefined;
    }
    return room;
  }

  async create(meta: RaceMeta): Promise<void> {
    this.rooms.set(meta.id, { meta, seats: new Map(), order: null, startsAt: null, touchedAt: this.now() });
  }

  async read(id: string): Promise<RaceRoom | undefined> {
    const room = this.live(id);
    if (!room) return undefined;
    const seats = [...room.seats.values()].sort((a, b) => a.n - b.n);
    return { meta: room.meta, seats: seats.map((s) => ({ ...s })), order: room.order, startsAt: room.startsAt };
  }

  async join(id: string, seat: Omit<RaceSeat, 'n'>, progress: RaceProgress, max: number): Promise<Joined> {
    const room = this.live(id);
    if (!room) return 'missing';
    const mine = [...room.seats.values()].find((s) => s.playerId === seat.playerId);
    if (mine) return { seat: mine.n, fresh: false };
    if (room.seats.size >= max) return 'full';
    const n = room.seats.size + 1;
    room.seats.set(n, { ...seat, n, progress, seenAt: this.now() });
    this.games.set(seat.gameId, { id, n });
    room.touchedAt = this.now();
    return { seat: n, fresh: true };
  }

  async raceOf(gameId: string): Promise<RaceOfGame | undefined> {
    const found = this.games.get(gameId);
    const room = found && this.live(found.id);
    return found && room ? { ...found, startsAt: room.startsAt } : undefined;
  }

  async start(id: string, at: number): Promise<number | null> {
    const room = this.live(id);
    if (!room) return null;
    room.startsAt ??= at;
    return room.startsAt;
  }

  async setProgress(id: string, n: number, progress: RaceProgress): Promise<void> {
    const room = this.live(id);
    const seat = room?.seats.get(n);
    if (!room || !seat) return;
    seat.progress = progress;
    room.touchedAt = this.now();
  }

  async seen(id: string, seats: readonly number[], at: number): Promise<void> {
    const room = this.live(id);
    for (const n of seats) {
      const seat = room?.seats.get(n);
      if (seat) seat.seenAt = Math.max(seat.seenAt, at);
    }
  }

  async end(id: string, order: readonly number[]): Promise<readonly number[]> {
    const room = this.live(id);
    if (!room) return order;
    room.order ??= order;
    return room.order;
  }

  async takeStream(player: string, client: string, max: StreamBounds): Promise<'player' | 'client' | undefined> {
    if ((this.streams.player.get(player) ?? 0) >= max.player) return 'player';
    if ((this.streams.client.get(client) ?? 0) >= max.client) return 'client';
    this.streams.add(player, client, 1);
    return undefined;
  }

  async dropStream(player: string, client: string): Promise<void> {
    this.streams.add(player, client, -1);
  }

  async keepStreams(): Promise<void> {}

  async publish(id: string): Promise<void> {
    for (const listener of this.listeners) listener(id);
  }

  subscribe(changed: (id: string) => void): void {
    this.listeners.push(changed);
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    this.rooms.clear();
    this.games.clear();
  }
}
