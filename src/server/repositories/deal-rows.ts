/**
 * A stored deal row and how it becomes the deal JSON the server serves (both backends, and the CLI's report):
 * a compact row (migration 004: faces and solution, coordinates once per shape) is rebuilt byte for byte;
 * a row from before keeps its JSON.
 */
import { createHash } from 'node:crypto';
import { makeBoard, makePairs, parseBoard, parsePairs, type Deal } from '../../engine/index.ts';
import { ByteLru } from '../services/lru.ts';
import { CACHE_BUDGETS, shapeBytes } from '../services/sizes.ts';
import type { DealRow } from './types.ts';

/** A row as stored: compact (faces, solution, shape) or, from before migration 004, whole JSON. */
export interface StoredRow {
  id: number;
  layout: string;
  seed: string;
  mode: DealRow['mode'];
  generator: string;
  deal_json: string; // '' for a compact row
  shape_id: number | null;
  faces: string | null;
  solution: string | null;
}

export type Slots = readonly (readonly [number, number, number])[];

/** Shapes parsed once and kept by id, bounded by bytes (a 1,000-tile shape is about 56 KB; issue 24). */
export const shapeCache = (): ByteLru<number, Slots> => new ByteLru('deal shapes', CACHE_BUDGETS.shapes);

/** Keeps a parsed shape in the cache. */
export const keepShape = (cache: ByteLru<number, Slots>, id: number, slots: Slots): void =>
  cache.set(id, slots, shapeBytes(slots.length));

/** The row as the rest of the server sees it: with the deal JSON, rebuilt for a compact row (both backends). */
export function rebuildRow(row: StoredRow, slotsOf: (shapeId: number) => Slots): DealRow {
  const { id, layout, seed, mode, generator } = row;
  if (row.deal_json !== '') return { id, layout, seed, mode, generator, deal_json: row.deal_json };
  const slots = slotsOf(row.shape_id!);
  const faces = parseBoard(row.faces!, slots.length);
  const solution = parsePairs(row.solution!, slots.length);
  if (!faces.ok || !solution.ok)
    throw new Error(
      `stored deal ${id} is broken: ${faces.ok ? '' : faces.message} ${solution.ok ? '' : solution.message}`,
    );
  // The key order of the engine's deal value (deal.ts makeDealValue), so the JSON is the same bytes.
  const deal = {
    layout,
    seed,
    mode,
    generator,
    tiles: slots.map(([x, y, z], i) => ({ x, y, z, face: faces.value[i] })),
    solution: solution.value,
  };
  return { id, layout, seed, mode, generator, deal_json: JSON.stringify(deal) };
}

/** A deal in the compact form both backends store: its shape (coordinates JSON and hash), faces and solution. */
export function compactDeal(deal: Deal): { slots: string; hash: string; faces: string; solution: string } {
  const slots = JSON.stringify(deal.tiles.map((t) => [t.x, t.y, t.z]));
  return {
    slots,
    hash: createHash('sha256').update(slots).digest('hex').slice(0, 16),
    faces: makeBoard(deal.tiles.map((t) => t.face)),
    solution: makePairs(deal.solution),
  };
}
