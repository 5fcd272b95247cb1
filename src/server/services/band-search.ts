/**
 * A band search (`/play/:layout?difficulty=BAND`): new seeds dealt in chunks in the workers until one's deal is in
 * the band, paid from the server's own band-seed budget (docs/server.md, "Deals and links").
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

export interface BandSeedLimits {
  perMinute: number; // everyone's seeds
  perClientPerMinute: number; // one client's (budgetGroup)
}

// 1,200 turtle seeds are ~15 s of one worker's minute; a client's share is four fruitless searches.
export const BAND_SEED_LIMITS: BandSeedLimits = { perMinute: 1200, perClientPerMinute: 4 * 32 };
export const BAND_CHUNK = 4; // seeds per worker task, paid at once
export const MAX_BAND_SEEDS = 64;

/** ERR_NO_DEAL_IN_BAND carries the bands `seen`. */
export type BandLookup =
  { readonly ok: true; readonly value: DealKey } | (Refusal & { readonly seen?: Readonly<Record<Band, number>> });

export interface BandSearchDeps {
  readonly fastify: FastifyInstance;
  readonly makers: DealMakers;
  readonly tasks: ClientTasks;
  readonly memory: DealMemory;
  readonly limits: BandSeedLimits | undefined; // none: unlimited (benchmarks)
}

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

/** The deal found is kept to be shown, so the redirect's page deals nothing again. */
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
  const tiles = slots?.length ?? layoutById(layout)?.slots.length ?? 0; // the worker refuses an unknown one
  // At most one CPU burst for a whole search, so a large layout's search still reaches its answer.
  const cpu = deps.fastify.cpuBudget;
  let unpaid = cpu.limits ? Math.min(cpu.limits.clientBurstMs, cpu.limits.clientPerMinuteMs) : 0;
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
