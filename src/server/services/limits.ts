/**
 * Who a client is, for rate limits, and the budget of new deals.
 *
 * - `clientKey`: the address the limits count by. An IPv6 client usually holds a whole /64
 *   (2^64 addresses), so counting per address would give it an endless budget: IPv6 addresses
 *   count by their /64 prefix. IPv4-mapped IPv6 (`::ffff:1.2.3.4`) counts as the IPv4 address.
 * - `NewDealBudget`: a GET of a link with a new seed stores a deal row (about 5.5 KB for the
 *   turtle), so reads of new seeds are writes in disguise. Each client may make a limited
 *   number of new deals per minute and per hour, and all clients together a limited number per
 *   minute (a spread-out crawl from many addresses). Deals already stored cost nothing: shared
 *   links and today's deal always work. A client here is a /24 for IPv4 (`budgetGroup`): one
 *   holder of a few dozen neighbouring addresses is one client, so it takes 21 networks, not 21
 *   addresses, to spend everyone's budget. Seeds the server chose itself (the
 *   "New game" button, `/play/:layout`) pay from a pool of their own for everyone, so a crawl of
 *   made-up seeds cannot switch new games off.
 */
import { isIPv6 } from 'node:net';
import { secondsOf, type Counters } from './counters.ts';

/** The rate-limit key of an address: IPv4 as it is, IPv6 by its /64 prefix. */
export function clientKey(ip: string): string {
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  if (mapped) return mapped[1]!;
  if (!isIPv6(ip)) return ip;
  const [head = '', tail = ''] = ip.toLowerCase().split('%')[0]!.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') ? (tail ? tail.split(':') : []) : [];
  const groups = ip.includes('::')
    ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right]
    : left;
  return `${groups
    .slice(0, 4)
    .map((g) => g.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

/** The group a client's new deals count in: IPv4 by /24, IPv6 by /64 (clientKey does that already). */
export function budgetGroup(key: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(key);
  return v4 ? `${v4[1]}.0/24` : key;
}

export interface NewDealLimits {
  perMinute: number; // new deals one client (a /24 or /64) may make in a minute
  perHour: number; // … in an hour
  globalPerMinute: number; // … all clients together in a minute, on seeds they chose
  chosenPerMinute?: number; // … all clients together in a minute, on seeds the server chose (default globalPerMinute)
}

export const NEW_DEAL_LIMITS: NewDealLimits = {
  perMinute: 60, // a person pressing "new game" every second for a minute
  perHour: 600,
  globalPerMinute: 1200, // 20 a second: about what one deal worker makes of the largest layouts
  chosenPerMinute: 1200, // kept apart for the "New game" button
};

/**
 * New custom layouts (POST /layouts) stored in an hour: per client (a /24 or /64, budgetGroup) and for
 * everyone. A stored layout is at most ~15 KB and is kept for ever (its links must keep working), so
 * this bounds what uploads can add to the database: at most 24 × 500 × 15 KB = 180 MB a day in the
 * worst case, about 1.5 MB a day for a person who uploads a file a minute for an hour.
 */
export interface NewLayoutLimits {
  perHour: number; // new layouts one client may store in an hour
  globalPerHour: number; // … all clients together
}

export const NEW_LAYOUT_LIMITS: NewLayoutLimits = { perHour: 30, globalPerHour: 500 };

const MINUTE = 60_000; // ms
const HOUR = 3_600_000; // ms

export type Refusal = { readonly scope: 'client' | 'everyone'; readonly retryAfterS: number; readonly message: string };

/**
 * Fixed-window counters of new deals, per client and for everyone, on the server's counters (in
 * memory, or in Redis for a fleet: services/counters.ts).
 */
export class NewDealBudget {
  constructor(
    private readonly limits: NewDealLimits,
    private readonly counters: Counters,
  ) {}

  /**
   * Takes `n` new deals (one unless a band search pays for several seeds it deals at once) for `client` (a
   * clientKey; counted by its budgetGroup); `chosen`: the server chose the seeds. Undefined when it may, else
   * why not. Takes nothing when refused.
   */
  async take(key: string, chosen = false, n = 1): Promise<Refusal | undefined> {
    const client = budgetGroup(key);
    const poolMax = chosen ? (this.limits.chosenPerMinute ?? this.limits.globalPerMinute) : this.limits.globalPerMinute;
    const taken = await this.counters.take(
      [
        { key: `deals:minute:${client}`, max: this.limits.perMinute, windowMs: MINUTE },
        { key: `deals:hour:${client}`, max: this.limits.perHour, windowMs: HOUR },
        { key: chosen ? 'deals:chosen' : 'deals:everyone', max: poolMax, windowMs: MINUTE },
      ],
      n,
    );
    if (taken.ok) return undefined;
    const wait = secondsOf(taken.retryAfterMs);
    if (taken.index === 0) return this.refuse(wait, `at most ${this.limits.perMinute} new deals a minute`);
    if (taken.index === 1) return this.refuse(wait, `at most ${this.limits.perHour} new deals an hour`);
    return {
      scope: 'everyone',
      retryAfterS: wait,
      message: `the server is making too many new deals right now; try again in ${wait} s, or open a deal that was shared`,
    };
  }

  private refuse(retryAfterS: number, what: string): Refusal {
    return {
      scope: 'client',
      retryAfterS,
      message: `too many new deals from your address (${what}); try again in ${retryAfterS} s, or replay a deal you have`,
    };
  }
}

/**
 * Fixed-window counters of a cost per key (a player, a client), named `name` on the server's
 * counters: `take(key, n)` spends n of `max` per `windowMs`, or says how long until the window turns.
 */
export class WindowBudget {
  constructor(
    private readonly name: string, // keeps this budget's keys apart from the others'
    readonly max: number,
    readonly windowMs: number,
    private readonly counters: Counters,
  ) {}

  /** Spends `n` for `key`; undefined when it may, else the seconds to wait. Spends nothing when refused. */
  async take(key: string, n = 1): Promise<number | undefined> {
    if (n <= 0) return undefined;
    const taken = await this.counters.take([{ key: `${this.name}:${key}`, max: this.max, windowMs: this.windowMs }], n);
    return taken.ok ? undefined : secondsOf(taken.retryAfterMs);
  }
}
