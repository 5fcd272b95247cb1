/**
 * A stored deal row and how it becomes the deal JSON the server serves (both backends, and the CLI's report):
 * a compact row (migration 004: faces and solution, coordinates once per shape) is rebuilt byte for byte;
 * a row from before keeps its JSON.
 *
 * A deal's difficulty (its band and score) is stored with it (SQLite migration 011, PostgreSQL 005), so a
 * link shows the band it was dealt with, whatever the measure becomes. A row stored before then has none:
 * it is measured (engine measureDifficulty, on the stored faces) when it is first read, and the store keeps
 * it from then on (`measured` says so).
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
  band?: string | null; // the stored difficulty; null before migration 011 (undefined: a reader that did not select it)
  score?: number | null;
}

/** A rebuilt row, and the difficulty measured now when the row had none stored (the store keeps it). */
export type RebuiltRow = DealRow & { readonly measured?: Difficulty };

export type Slots = readonly (readonly [number, number, number])[];

/** Shapes parsed once and kept by id, bounded by bytes (a 1,000-tile shape is about 56 KB; docs/operations.md, "Memory"). */
export const shapeCache = (): ByteLru<number, Slots> => new ByteLru('deal shapes', CACHE_BUDGETS.shapes);

/** Keeps a parsed shape in the cache. */
export const keepShape = (cache: ByteLru<number, Slots>, id: number, slots: Slots): void =>
  cache.set(id, slots, shapeBytes(slots.length));

/**
 * The row as the rest of the server sees it: with the deal JSON, rebuilt for a compact row (both backends),
 * its difficulty after `generator` (the key order of the engine's deal value, deal.ts makeDealValue, so the
 * JSON is the same bytes the generator made). A row without a stored difficulty is measured now, unless
 * `measure` is false (the report, which needs only the board): then the JSON has none.
 */
export function rebuildRow(row: StoredRow, slotsOf: (shapeId: number) => Slots, measure = true): RebuiltRow {
  const { id, layout, seed, mode, generator } = row;
  const stored = storedDifficulty(row);
  if (row.deal_json !== '') {
    // A row from before migration 004: its JSON as it was, with the difficulty where the generator puts it.
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

/** Measures the difficulty of a stored deal from its tiles (a layout that is no longer built in measures too). */
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

/** A deal in the compact form both backends store: its shape (coordinates JSON and hash), faces and solution. */
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
