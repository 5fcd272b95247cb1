/**
 * How much one client may make the database grow in a day, and what each write costs.
 *
 * Everything a visitor can make us store is counted against its client (an IPv4 /24 or an IPv6 /64,
 * budgetGroup: one holder of neighbouring addresses is one client): a new deal, a view of a deal (the
 * start of a ranked time), a new game (with its player's first rows), the growth of a game's move log
 * and shuffle boards, an uploaded layout, a nickname, a transfer link. At most `perClient` bytes (default
 * GROWTH_PER_CLIENT, 64 MB) in a day: a window of 24 hours from the client's first counted write, on the
 * server's counters (in Redis for a fleet, so the bound holds across processes). Past it: new deals,
 * games, moves, uploads, names and links are refused (429 `ERR_GROWTH`, Retry-After until the window
 * turns); a page still shows its deal, without storing it or the view.
 *
 * The costs are upper bounds of what each write adds to the database files, indexes included:
 * test/server/ops/growth.test.ts stores thousands of each on SQLite and PostgreSQL and checks that the
 * files grew by no more than these figures say. A person playing all day stores well under 1 MB (a
 * finished turtle game is about 2.5 KB); 64 MB is room for a school or an office behind one address.
 */
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

export const GROWTH_PER_CLIENT = 64 * 1024 * 1024; // bytes one client may add to the database in a day
export const GROWTH_WINDOW_MS = 24 * 3600_000;

/**
 * Bytes a write adds at most, besides the text it stores (measured, see above): a row's header, its
 * integers, and its entries in every index of its table, on either backend.
 */
export const ROW_BYTES = {
  deal: 480, // a deals row: key, generator, the shape's id (its compact faces and solution counted apart)
  firstShown: 480, // a first_shown row, and the deal's record row the first time it is shown
  game: 1600, // a games row (eight indexes), its player's row, per-layout and per-band totals the first time
  win: 2300, // a win's rows: the player's day and its runs, the deal's record, the totals, the game row again, and the achievements it earns (up to five rows, on a player's first wins)
  layout: 400, // a custom_layouts row, and again its shape's row (their slots counted apart)
  nickname: 120, // a nickname and its lookalike key on the player's row (their characters counted apart)
  transfer: 520, // a transfer token's row
  layoutName: 480, // a player's name of a custom layout (layout_names), and its player's row the first time (the name's characters counted apart)
  challenge: 400, // a challenge link's row: two ids, a time, the sender and two index entries (a game's answer row rides with the game)
  replay: 480, // a replay link's row, up to 451 B a write measured on PostgreSQL (its review, kept once made, is counted apart: reviewGrowth, up to ~60 KB)
} as const;

/**
 * Bytes a stored text of n characters takes at most: SQLite keeps a long row in overflow pages, the last
 * of them part empty (PostgreSQL compresses it), so a row's text is counted a quarter more.
 */
export const textGrowth = (characters: number): number => Math.ceil(1.25 * characters);

/** Bytes a new stored deal adds: its row and its compact faces and solution (4 characters a tile). */
export const dealGrowth = (tiles: number): number => ROW_BYTES.deal + textGrowth(4 * tiles);

/** Bytes a finished game's review adds to its replay row, kept as JSON of `characters` (services/replays.ts). */
export const reviewGrowth = (characters: number): number => textGrowth(characters);

/** Bytes an uploaded layout adds: its row and its shape's, each holding the slots' JSON (and its name). */
export const layoutGrowth = (slotsJsonLength: number, name: string): number =>
  2 * (ROW_BYTES.layout + textGrowth(slotsJsonLength) + 4 * name.length);

/** Bytes a player's name of a layout adds: its row, and up to 4 bytes a character of UTF-8. */
export const layoutNameGrowth = (name: string): number => ROW_BYTES.layoutName + 4 * name.length;

/** Bytes a nickname adds: at most 4 bytes a character of UTF-8, for the name and its key. */
export const nicknameGrowth = (name: string): number => ROW_BYTES.nickname + 8 * name.length;

/** The budget of bytes per client and day, on the server's counters (a fleet's in Redis). */
export class GrowthBudget {
  constructor(
    readonly perClient: number | false, // false: unlimited (benchmarks)
    private readonly counters: Counters,
  ) {}

  /**
   * Spends `bytes` of the client's day (`client`: a clientKey, counted by its budgetGroup); undefined
   * when it may, else the refusal. Spends nothing when refused.
   */
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
