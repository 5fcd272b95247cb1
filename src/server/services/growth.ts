/** How much one client may make the database grow in a day, and each write's cost (docs/operations.md, "Growth"). */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Refusal } from '../errors.ts';
import { secondsOf, type Counters } from './counters.ts';
import { budgetGroup } from './limits.ts';

declare module 'fastify' {
  interface FastifyInstance {
    growth: GrowthBudget;
  }
}

export const GROWTH_PER_CLIENT = 64 * 1024 * 1024; // bytes a day
export const GROWTH_WINDOW_MS = 24 * 3600_000;

/** Bytes at most, indexes included, besides the text stored. */
export const ROW_BYTES = {
  deal: 480,
  firstShown: 480, // and the deal's record row on its first view
  game: 1600, // eight indexes; the player's rows the first time
  win: 2300, // the rows a win's bookkeeping writes
  layout: 400, // and again its shape's row
  nickname: 120, // and its lookalike key
  transfer: 520,
  layoutName: 480, // and its player's row the first time
  challenge: 400,
  replay: 480, // its review is counted apart (reviewGrowth)
} as const;

/** A stored text's bytes at most: SQLite's last overflow page may be part empty, so a quarter more. */
export const textGrowth = (characters: number): number => Math.ceil(1.25 * characters);

/** Its faces and solution take 4 characters a tile. */
export const dealGrowth = (tiles: number): number => ROW_BYTES.deal + textGrowth(4 * tiles);

export const reviewGrowth = (characters: number): number => textGrowth(characters);

export const layoutGrowth = (slotsJsonLength: number, name: string): number =>
  2 * (ROW_BYTES.layout + textGrowth(slotsJsonLength) + 4 * name.length);

export const layoutNameGrowth = (name: string): number => ROW_BYTES.layoutName + 4 * name.length;

export const nicknameGrowth = (name: string): number => ROW_BYTES.nickname + 8 * name.length;

export class GrowthBudget {
  constructor(
    readonly perClient: number | false, // false: unlimited (benchmarks)
    private readonly counters: Counters,
  ) {}

  /** The refusal (nothing spent), or undefined. */
  async take(client: string, bytes: number): Promise<Refusal | undefined> {
    if (this.perClient === false || bytes <= 0) return undefined;
    const group = budgetGroup(client);
    const taken = await this.counters.take(
      [{ key: `growth:${group}`, max: this.perClient, windowMs: GROWTH_WINDOW_MS }],
      Math.ceil(bytes),
    );
    if (taken.ok) return undefined;
    const wait = secondsOf(taken.retryAfterMs);
    const hours = Math.max(1, Math.round(wait / 3600));
    return {
      ok: false,
      code: 'ERR_GROWTH',
      retryAfterS: wait,
      message: `your network has stored as much as one network may in a day (${Math.round(this.perClient / 1024 / 1024)} MB); try again in about ${hours} h`,
    };
  }
}

export default fp(
  async (fastify: FastifyInstance, opts: { perClient?: number | false }) => {
    fastify.decorate('growth', new GrowthBudget(opts.perClient ?? GROWTH_PER_CLIENT, fastify.counters));
  },
  { name: 'growth', dependencies: ['counters'] },
);
