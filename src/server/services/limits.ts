/**
 * Who a client is for rate limits, and the budgets of new deals (a GET of a new seed stores one) and layouts
 * (docs/server.md, "Who pays").
 */
import { isIPv6 } from 'node:net';
import { secondsOf, type Counters } from './counters.ts';

/** IPv4 as it is, IPv6 by its /64 (one holder's whole prefix), IPv4-mapped IPv6 as IPv4. */
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

/** IPv4 by /24 (one holder's neighbouring addresses). */
export function budgetGroup(key: string): string {
  const v4 = /^(\d{1,3}\.\d{1,3}\.\d{1,3})\.\d{1,3}$/.exec(key);
  return v4 ? `${v4[1]}.0/24` : key;
}

export interface NewDealLimits {
  perMinute: number; // per client (budgetGroup)
  perHour: number;
  globalPerMinute: number; // everyone, on seeds they chose
  chosenPerMinute?: number; // on seeds the server chose, so a crawl cannot switch "New game" off
}

export const NEW_DEAL_LIMITS: NewDealLimits = {
  perMinute: 60, // "New game" every second for a minute
  perHour: 600,
  globalPerMinute: 1200,
  chosenPerMinute: 1200,
};

/** New custom layouts stored in an hour; each is kept for ever, so this bounds what uploads add. */
export interface NewLayoutLimits {
  perHour: number; // per client (budgetGroup)
  globalPerHour: number;
}

export const NEW_LAYOUT_LIMITS: NewLayoutLimits = { perHour: 30, globalPerHour: 500 };

const MINUTE = 60_000; // ms
const HOUR = 3_600_000; // ms

export type Refusal = { readonly scope: 'client' | 'everyone'; readonly retryAfterS: number; readonly message: string };

export class NewDealBudget {
  constructor(
    private readonly limits: NewDealLimits,
    private readonly counters: Counters,
  ) {}

  /** The refusal (nothing taken), or undefined. */
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

/** `max` per `windowMs` per key. */
export class WindowBudget {
  constructor(
    private readonly name: string, // keeps its keys apart
    readonly max: number,
    readonly windowMs: number,
    private readonly counters: Counters,
  ) {}

  /** Spends `n`; undefined, or the seconds to wait (nothing spent). */
  async take(key: string, n = 1): Promise<number | undefined> {
    if (n <= 0) return undefined;
    const taken = await this.counters.take([{ key: `${this.name}:${key}`, max: this.max, windowMs: this.windowMs }], n);
    return taken.ok ? undefined : secondsOf(taken.retryAfterMs);
  }
}
