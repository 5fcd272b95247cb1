/**
 * A band search (`/play/:layout?difficulty=BAND`): deals new seeds the server chooses until one's deal is in the
 * band (each deal measures its difficulty, engine difficulty.ts), BAND_CHUNK seeds at a time as one task of the
 * deal makers, at most MAX_BAND_SEEDS seeds in all. The seeds are paid, chunk by chunk before they are dealt,
 * from the server's own budget of band seeds (BAND_SEED_LIMITS: a pool for everyone, of which one client may
 * take a share), not from the player's new deals (a search stores nothing: the deal found is kept as a shown
 * deal, so the redirect's page view deals nothing again); each chunk is also charged to the client's CPU budget
 * (services/costs.ts), a whole search at most one burst window of it.
 */
import type { FastifyInstance } from 'fastify';
import { layoutById } from '../../engine/builtins.ts';
import type { Band, Mode } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import { dealKey, type DealKey } from '../schemas/common.ts';
import type { ClientTasks } from './client-tasks.ts';
import { seedCostMs } from './costs.ts';
import { secondsOf } from './counters.ts';
import type { BandTask } from './deal-worker.ts';
import { refusalCode, type DealMakers } from './deal-makers.ts';
import { keyOf, type DealMemory } from './deal-memory.ts';
import { budgetGroup } from './limits.ts';
import { randomSeed } from './seeds.ts';
import { isCustomId } from './upload.ts';

/** Seeds band searches may deal in a minute: all clients together, and one client's share of that. */
export interface BandSeedLimits {
  perMinute: number; // seeds all searches together may deal in a minute
  perClientPerMinute: number; // … one client (a /24 or /64)
}

// 1,200 turtle seeds are ~15 s of one worker's minute; a client's share is four fruitless searches a minute.
export const BAND_SEED_LIMITS: BandSeedLimits = { perMinute: 1200, perClientPerMinute: 4 * 32 };
export const BAND_CHUNK = 4; // seeds a band search deals per worker task (and pays for at once)
export const MAX_BAND_SEEDS = 64; // seeds a band search deals at most before it says the layout has none in the band

/** A band search's answer: the key of a new deal in the band, or why there is none (ERR_NO_DEAL_IN_BAND: `seen`). */
export type BandLookup =
  { readonly ok: true; readonly value: DealKey } | (Refusal & { readonly seen?: Readonly<Record<Band, number>> });

export interface BandSearchDeps {
  readonly fastify: FastifyInstance; // its custom layouts, counters and CPU budget
  readonly makers: DealMakers;
  readonly tasks: ClientTasks;
  readonly memory: DealMemory;
  readonly limits: BandSeedLimits | undefined; // none: unlimited (benchmarks)
}

/** Takes `n` seeds of the band-seed budget for `client`; undefined when it may, else the refusal. */
async function takeBandSeeds(deps: BandSearchDeps, client: string, n: number): Promise<Refusal | undefined> {
  const { limits } = deps;
  if (!limits) return undefined;
  const taken = await deps.fastify.counters.take(
    [
      { key: `band:minute:${budgetGroup(client)}`, max: limits.perClientPerMinute, windowMs: 60_000 },
      { key: 'band:everyone', max: limits.perMinute, windowMs: 60_000 },
    ],
    n,
  );
  if (taken.ok) return undefined;
  const wait = secondsOf(taken.retryAfterMs);
  return taken.index === 0
    ? {
        ok: false,
        code: 'ERR_QUEUE',
        retryAfterS: wait,
        message: `your network has searched ${limits.perClientPerMinute} deals by difficulty this minute, as many as one may; try again in ${wait} s`,
      }
    : {
        ok: false,
        code: 'ERR_BUSY',
        retryAfterS: wait,
        message: `the server is searching deals by difficulty for many people right now; try again in ${wait} s, or start any deal`,
      };
}

/** A new seed of `layout` whose deal in `mode` is in `band`; the deal found is kept to be shown. */
export async function findInBand(
  deps: BandSearchDeps,
  layout: string,
  mode: Mode,
  band: Band,
  client: string,
): Promise<BandLookup> {
  let slots: BandTask['slots'];
  if (isCustomId(layout)) {
    const row = await deps.fastify.customLayoutsStore.find(layout);
    if (!row) return { ok: false, code: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${layout}` };
    slots = JSON.parse(row.slots) as [number, number, number][];
  }
  return deps.tasks.run(client, () => search(deps, { layout, mode, band, slots }, client));
}

async function search(
  deps: BandSearchDeps,
  { layout, mode, band, slots }: Omit<BandTask, 'seeds'>,
  client: string,
): Promise<BandLookup> {
  const seen: Record<Band, number> = { easy: 0, medium: 0, hard: 0, expert: 0 };
  const tiles = slots?.length ?? layoutById(layout)?.slots.length ?? 0; // an unknown layout is refused by the worker
  // The chunks are charged as dealt, a whole search at most one burst of the client's CPU budget: like any one
  // request, a search of a large layout passes an empty window instead of never reaching its answer.
  const cpu = deps.fastify.cpuBudget;
  let unpaid = cpu.limits ? Math.min(cpu.limits.clientBurstMs, cpu.limits.clientPerMinuteMs) : 0; // ms
  for (let dealt = 0; dealt < MAX_BAND_SEEDS; dealt += BAND_CHUNK) {
    const cost = Math.min(unpaid, Math.ceil(BAND_CHUNK * seedCostMs(tiles, mode)));
    unpaid -= cost;
    const refused =
      (await takeBandSeeds(deps, client, BAND_CHUNK)) ?? (await cpu.charge(client, cost, 'band', 'worker'));
    if (refused) return refused;
    const seeds = Array.from({ length: BAND_CHUNK }, randomSeed);
    const result = await deps.makers.search({ layout, mode, band, seeds, slots });
    if (!result.ok) {
      const code = refusalCode(result.error, slots !== undefined);
      if (!code) throw new Error(`searching ${layout} (${mode}) for ${band} failed: ${result.message}`); // our bug
      return {
        ok: false,
        code,
        message: result.message,
        ...(code === 'ERR_BUSY' || code === 'ERR_WORKER' ? { retryAfterS: 5 } : {}),
      };
    }
    for (const b of Object.keys(seen) as Band[]) seen[b] += result.seen[b];
    if (result.found) {
      const key = dealKey(layout, result.found.seed, mode);
      deps.memory.keepUnstored(keyOf(key), result.found.json);
      return { ok: true, value: key };
    }
  }
  return {
    ok: false,
    code: 'ERR_NO_DEAL_IN_BAND',
    message: `none of ${MAX_BAND_SEEDS} new ${mode} deals of this layout was ${band}`,
    seen,
  };
}
