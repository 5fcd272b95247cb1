/**
 * The deal worker: deals one (layout, seed, mode) per message, off the main
 * thread. A classic deal of a hard layout can take seconds of solver time; in a
 * worker it cannot stall the server, and the pool can stop it at its deadline.
 * A band search (`BandTask`) deals a few seeds in turn until one is in the band
 * asked for (each deal measures its difficulty: a few milliseconds even when
 * relaxed, so searches never run on the main thread when there are workers).
 * It also reviews a game's log for its replay (where the win was lost: the engine's
 * reviewLog, a solver question per run of moves), which is solver work of the same kind.
 *
 * Started as a file (compiled to dist/, or through tsx from source: see
 * worker-pool.ts); it imports only the engine, Node built-ins and the byte-bounded map (lru.ts, sizes.ts).
 */
import type { MessagePort } from 'node:worker_threads';
import { layoutById } from '../../engine/builtins.ts';
import {
  BANDS,
  deal,
  makeLayout,
  parseBoards,
  reviewLog,
  type Band,
  type Deal,
  type Layout,
  type Mode,
  type Move,
  type Review,
} from '../../engine/index.ts';
import type { DealKey } from '../schemas/common.ts'; // a type only: the worker imports no zod
import type { PoolError } from './worker-pool.ts'; // a type only
import { ByteLru } from '../utils/lru.ts';
import { HEAP, WORKER_LAYOUTS_BYTES } from '../utils/sizes.ts';

/** A deal to make: its key, and for a custom layout its slots. */
export interface DealTask extends DealKey {
  readonly slots?: readonly (readonly [number, number, number])[]; // a custom layout's slots, [x, y, z] in slot order; none: built in
}

/** Seeds to deal in turn until one's deal is in `band` (services/band-search.ts findInBand). */
export interface BandTask {
  readonly layout: string;
  readonly mode: Mode;
  readonly band: Band;
  readonly seeds: readonly string[]; // chosen by the server
  readonly slots?: DealTask['slots'];
}

export type BandTaskResult =
  | {
      readonly ok: true;
      readonly found: { readonly seed: string; readonly json: string } | null; // the first deal in the band
      readonly seen: Readonly<Record<Band, number>>; // the bands of the seeds dealt
    }
  | { readonly ok: false; readonly error: string; readonly message: string };

export type DealTaskResult =
  | { readonly ok: true; readonly json: string } // the deal JSON (docs/contracts.md, "Deal JSON")
  | { readonly ok: false; readonly error: string; readonly message: string };

// Custom layouts kept with their geometry (engine geometryOf caches per layout value), bounded by bytes.
const custom = new ByteLru<string, Layout>('worker layouts', WORKER_LAYOUTS_BYTES);

/** The layout of a task: built in, or made from the task's slots (kept for the next deal of it). */
function layoutOf(task: { readonly layout: string; readonly slots?: DealTask['slots'] }): Layout | undefined {
  if (!task.slots) return layoutById(task.layout);
  let layout = custom.get(task.layout);
  if (layout && layout.slots.length !== task.slots.length) layout = undefined; // cannot happen: ids are by content
  if (!layout) {
    layout = makeLayout(
      task.layout,
      task.layout,
      '',
      task.slots.map(([x, y, z]) => ({ x, y, z })),
    );
    custom.set(task.layout, layout, HEAP.object + task.slots.length * HEAP.layoutPerTile);
  }
  return layout;
}

/** Deals one task; the same function runs in the worker and, with no workers, in process. */
export function runDealTask(task: DealTask, dealFn: typeof deal = deal): DealTaskResult {
  const layout = layoutOf(task);
  if (!layout) return { ok: false, error: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${task.layout}` };
  const result = dealFn(layout, task.seed, task.mode);
  if (!result.ok) return { ok: false, error: result.error, message: result.message };
  return { ok: true, json: JSON.stringify(result.value.deal) };
}

/** Deals the task's seeds in turn until one is in its band; the same function runs in the worker and in process. */
export function runBandTask(task: BandTask, dealFn: typeof deal = deal): BandTaskResult {
  const layout = layoutOf(task);
  if (!layout) return { ok: false, error: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${task.layout}` };
  const seen = Object.fromEntries(BANDS.map((b) => [b, 0])) as Record<Band, number>;
  for (const seed of task.seeds) {
    const result = dealFn(layout, seed, task.mode);
    if (!result.ok) return { ok: false, error: result.error, message: result.message };
    const { band } = result.value.deal.difficulty;
    seen[band]++;
    if (band === task.band) return { ok: true, found: { seed, json: JSON.stringify(result.value.deal) }, seen };
  }
  return { ok: true, found: null, seen };
}

/** A game's log to review (services/replays.ts): its deal's JSON, its stored log and shuffle boards. */
export interface ReviewTask {
  readonly kind: 'review';
  readonly dealJson: string;
  readonly movesJson: string;
  readonly boards: string; // GameRow.boards: 2 characters a slot per shuffle
}

export type ReviewTaskResult =
  | { readonly ok: true; readonly review: Review }
  | { readonly ok: false; readonly error: 'broken' | PoolError['code']; readonly message: string }; // broken: the stored log does not replay

/** Reviews one game's log; the same function runs in the worker and, with no workers, in process. */
export function runReviewTask(task: ReviewTask): ReviewTaskResult {
  const dealt = JSON.parse(task.dealJson) as Deal;
  const boards = task.boards === '' ? undefined : parseBoards(task.boards, dealt.tiles.length);
  if (boards && !boards.ok) return { ok: false, error: 'broken', message: boards.message };
  const review = reviewLog(dealt, JSON.parse(task.movesJson) as Move[], boards?.value);
  return review.ok ? { ok: true, review: review.value } : { ok: false, error: 'broken', message: review.message };
}

export type WorkerTask = DealTask | BandTask | ReviewTask;
export type WorkerResult<T extends WorkerTask> = T extends ReviewTask
  ? ReviewTaskResult
  : T extends BandTask
    ? BandTaskResult
    : DealTaskResult;

const isReview = (task: WorkerTask): task is ReviewTask => 'kind' in task && task.kind === 'review';

/** One task as piscina hands it to a worker: `started` is told when the work begins (the deadline starts then). */
export interface DealJob {
  readonly task: WorkerTask;
  readonly started: MessagePort;
}

export const isBandTask = (task: WorkerTask): task is BandTask => 'band' in task;

/** The worker's entry point (piscina calls the default export). */
export default function dealJob({ task, started }: DealJob): DealTaskResult | BandTaskResult | ReviewTaskResult {
  started.postMessage('started');
  started.close();
  return isReview(task) ? runReviewTask(task) : isBandTask(task) ? runBandTask(task) : runDealTask(task);
}
