/**
 * A stored deal row and how it becomes the served deal JSON: compact rows are rebuilt byte for byte, older rows
 * keep their JSON, a missing difficulty is measured on first read (docs/storage.md, "Compact deals").
 */
import { createHash } from 'node:crypto';
import {
  isBand,
  makeBoard,
  makeLayout,
  makePairs,
  geometryOf,
  measureDifficulty,
  parseBoard,
  parsePairs,
  type Deal,
  type Difficulty,
  type Face,
  type Mode,
} from '../../engine/index.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, shapeBytes } from '../utils/sizes.ts';
import type { DealRow } from './types.ts';

/** A row as stored: compact (faces, solution, shape) or, before migration 004, whole JSON. */
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
  band?: string | null; // null before migration 011; undefined when not selected
  score?: number | null;
}

/** A rebuilt row, with the difficulty measured now if none was stored (the store keeps it). */
export type RebuiltRow = DealRow & { readonly measured?: Difficulty };

export type Slots = readonly (readonly [number, number, number])[];

/** Parsed shapes by id, bounded by bytes (docs/operations.md, "Memory"). */
export const shapeCache = (): ByteLru<number, Slots> => new ByteLru('deal shapes', CACHE_BUDGETS.shapes);

export const keepShape = (cache: ByteLru<number, Slots>, id: number, slots: Slots): void =>
  cache.set(id, slots, shapeBytes(slots.length));

/**
 * The row with its deal JSON in the generator's key order (deal.ts makeDealValue). A row without a stored
 * difficulty is measured now unless `measure` is false (the report, which needs only the board).
 */
export function rebuildRow(row: StoredRow, slotsOf: (shapeId: number) => Slots, measure = true): RebuiltRow {
  const { id, layout, seed, mode, generator } = row;
  const stored = storedDifficulty(row);
  if (row.deal_json !== '') {
    // A row from before migration 004: its JSON as it was.
    const legacy = JSON.parse(row.deal_json) as Deal & { difficulty?: Difficulty };
    const difficulty =
      stored ??
      legacy.difficulty ??
      (measure
        ? measureOf(
            legacy.tiles,
            legacy.tiles.map((t) => t.face),
            mode,
          )
        : undefined);
    const measured = stored ? {} : difficulty ? { measured: difficulty } : {};
    if (!difficulty || legacy.difficulty === difficulty)
      return { id, layout, seed, mode, generator, deal_json: row.deal_json, ...measured };
    const { tiles, solution, difficulty: _old, ...head } = legacy;
    const deal_json = JSON.stringify({ ...head, difficulty, tiles, solution });
    return { id, layout, seed, mode, generator, deal_json, ...measured };
  }
  const slots = slotsOf(row.shape_id!);
  const faces = parseBoard(row.faces!, slots.length);
  const solution = parsePairs(row.solution!, slots.length);
  if (!faces.ok || !solution.ok)
    throw new Error(
      `stored deal ${id} is broken: ${faces.ok ? '' : faces.message} ${solution.ok ? '' : solution.message}`,
    );
  const tiles = slots.map(([x, y, z], i) => ({ x, y, z, face: faces.value[i] }));
  const difficulty = stored ?? (measure ? measureOf(tiles, faces.value as Face[], mode) : undefined);
  const deal = { layout, seed, mode, generator, difficulty, tiles, solution: solution.value };
  return {
    id,
    layout,
    seed,
    mode,
    generator,
    deal_json: JSON.stringify(deal),
    ...(stored || !difficulty ? {} : { measured: difficulty }),
  };
}

/** The difficulty stored in a row, if it has one. */
function storedDifficulty(row: StoredRow): Difficulty | undefined {
  if (row.band == null || row.score == null || !isBand(row.band)) return undefined;
  return { band: row.band, score: Number(row.score) };
}

/** Measures a stored deal's difficulty from its tiles (works for a layout no longer built in). */
function measureOf(
  slots: readonly { x: number; y: number; z: number }[],
  faces: readonly Face[],
  mode: Mode,
): Difficulty {
  const geom = geometryOf(
    makeLayout(
      'stored',
      'stored',
      '',
      slots.map(({ x, y, z }) => ({ x, y, z })),
    ),
  );
  if (!geom.ok) throw new Error(`a stored deal has a broken layout: ${geom.message}`);
  return measureDifficulty(geom.value, faces, mode);
}

/** A deal in the stored compact form: shape (coordinates JSON and hash), faces and solution. */
export function compactDeal(deal: Deal): {
  slots: string;
  hash: string;
  faces: string;
  solution: string;
  band: string;
  score: number;
} {
  const slots = JSON.stringify(deal.tiles.map((t) => [t.x, t.y, t.z]));
  return {
    slots,
    hash: createHash('sha256').update(slots).digest('hex').slice(0, 16),
    faces: makeBoard(deal.tiles.map((t) => t.face)),
    solution: makePairs(deal.solution),
    band: deal.difficulty.band,
    score: deal.difficulty.score,
  };
}
