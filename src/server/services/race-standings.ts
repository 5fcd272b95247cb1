/** A race's standings as the server decides them: each racer's status and place, and the order once it ends. */
import type { RaceMeta, RaceRoom } from './race-store.ts';

export const RACER_STATUSES = ['playing', 'won', 'stuck', 'gone'] as const;
export type RacerStatus = (typeof RACER_STATUSES)[number];

export interface Racer {
  readonly n: number; // seat: 1 for the room's maker
  readonly playerId: string;
  readonly name: string | null;
  readonly left: number;
  readonly status: RacerStatus;
  readonly finishedAt: number | null;
  readonly place: number | null;
}

export interface Standings {
  readonly meta: RaceMeta;
  readonly racers: readonly Racer[]; // by seat
  readonly order: readonly Racer[] | null; // once the race ended
  readonly startsAt: number | null; // ms epoch; null until started
}

/** The order the server gives: wins by their time, then the others by tiles left, those gone last. */
export function raceOrder(racers: readonly Racer[]): number[] {
  const rank = (r: Racer): number => (r.status === 'won' ? 0 : r.status === 'gone' ? 2 : 1);
  return [...racers]
    .sort(
      (a, b) =>
        rank(a) - rank(b) || (a.status === 'won' ? a.finishedAt! - b.finishedAt! : a.left - b.left) || a.n - b.n,
    )
    .map((r) => r.n);
}

/** A room as its viewers see it at `now`; `ending`: the order to record when the race has just ended. */
export function standingsOf(room: RaceRoom, now: number, graceMs: number): Standings & { ending: number[] | null } {
  const wins = room.seats
    .filter((s) => s.progress.status === 'won')
    .sort((a, b) => a.progress.finishedAt! - b.progress.finishedAt! || a.n - b.n)
    .map((s) => s.n);
  const racers: Racer[] = room.seats.map((s) => {
    const won = s.progress.status === 'won';
    const status: RacerStatus = won ? 'won' : now - s.seenAt > graceMs ? 'gone' : s.progress.status;
    const place = room.order ? room.order.indexOf(s.n) + 1 : won ? wins.indexOf(s.n) + 1 : 0;
    return {
      n: s.n,
      playerId: s.playerId,
      name: s.name,
      left: s.progress.left,
      status,
      finishedAt: s.progress.finishedAt,
      place: place > 0 ? place : null,
    };
  });
  const over =
    racers.length > 0 &&
    racers.some((r) => r.status === 'won') &&
    racers.every((r) => r.status === 'won' || r.status === 'gone');
  const ending = room.order === null && over ? raceOrder(racers) : null;
  const order = room.order ?? ending;
  const byN = new Map(racers.map((r) => [r.n, r]));
  const placed = order ? racers.map((r) => ({ ...r, place: order.indexOf(r.n) + 1 })) : racers;
  return {
    meta: room.meta,
    racers: placed,
    order: order ? order.map((n) => ({ ...byN.get(n)!, place: order.indexOf(n) + 1 })) : null,
    startsAt: room.startsAt,
    ending,
  };
}
