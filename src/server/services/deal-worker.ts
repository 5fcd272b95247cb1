/**
 * The deal worker: deals, band searches and reviews off the main thread (docs/server.md, "Deal workers"). It
 * imports only the engine, Node built-ins and the byte-bounded map.
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
import type { PoolError } from './worker-pool.ts';
import { ByteLru } from '../utils/lru.ts';
import { HEAP, WORKER_LAYOUTS_BYTES } from '../utils/sizes.ts';

export interface DealTask extends DealKey {
  readonly slots?: readonly (readonly [number, number, number])[]; // a custom layout's; none: built in
}

/** Seeds to deal in turn until one's deal is in `band`. */
export interface BandTask {
  readonly layout: string;
  readonly mode: Mode;
  readonly band: Band;
  readonly seeds: readonly string[];
  readonly slots?: DealTask['slots'];
}

export type BandTaskResult =
  | {
      readonly ok: true;
      readonly found: { readonly seed: string; readonly json: string } | null;
      readonly seen: Readonly<Record<Band, number>>;
    }
  | { readonly ok: false; readonly error: string; readonly message: string };

export type DealTaskResult =
  | { readonly ok: true; readonly json: string } // docs/contracts.md, "Deal JSON"
  | { readonly ok: false; readonly error: string; readonly message: string };

const custom = new ByteLru<string, Layout>('worker layouts', WORKER_LAYOUTS_BYTES);

/** Built in, or made from the task's slots and kept. */
function layoutOf(task: { readonly layout: string; readonly slots?: DealTask['slots'] }): Layout | undefined {
  if (!task.slots) return layoutById(task.layout);
  let layout = custom.get(task.layout);
  if (layout && layout.slots.length !== task.slots.length) layout = undefined; // never: ids are by content
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

/** Runs in the worker and, with no workers, in process (as the other run*Task). */
export function runDealTask(task: DealTask, dealFn: typeof deal = deal): DealTaskResult {
  const layout = layoutOf(task);
  if (!layout) return { ok: false, error: 'ERR_UNKNOWN_LAYOUT', message: `there is no layout called ${task.layout}` };
  const result = dealFn(layout, task.seed, task.mode);
  if (!result.ok) return { ok: false, error: result.error, message: result.message };
  return { ok: true, json: JSON.stringify(result.value.deal) };
}

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

export interface ReviewTask {
  readonly kind: 'review';
  readonly dealJson: string;
  readonly movesJson: string;
  readonly boards: string; // GameRow.boards: 2 characters a slot per shuffle
}

export type ReviewTaskResult =
  | { readonly ok: true; readonly review: Review }
  | { readonly ok: false; readonly error: 'broken' | PoolError['code']; readonly message: string }; // broken: no replay

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

/** `started` is told when the work begins, which starts the deadline. */
export interface DealJob {
  readonly task: WorkerTask;
  readonly started: MessagePort;
}

export const isBandTask = (task: WorkerTask): task is BandTask => 'band' in task;

/** piscina calls the default export. */
export default function dealJob({ task, started }: DealJob): DealTaskResult | BandTaskResult | ReviewTaskResult {
  started.postMessage('started');
  started.close();
  return isReview(task) ? runReviewTask(task) : isBandTask(task) ? runBandTask(task) : runDealTask(task);
}
