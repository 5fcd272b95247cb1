/**
 * Plain data shared by every engine module; values are readonly. Coordinates are in half tiles
 * (docs/contracts.md, "Coordinates").
 */

export interface Slot {
  readonly x: number; // left edge; in half tiles
  readonly y: number; // top edge; in half tiles
  readonly z: number; // layer; 0 is the bottom
}

/** A layout: named positions in slot order (deal JSON `tiles` follow it). */
export interface Layout {
  readonly id: string; // url-safe, e.g. 'turtle'
  readonly name: string;
  readonly description: string;
  readonly slots: readonly Slot[];
}

export const SUITS = ['d', 'b', 'c'] as const; // dots, bamboo, characters
export type Suit = (typeof SUITS)[number];

/** All 42 faces: suits, winds, dragons, flowers, seasons. */
export const FACES = [
  'd1', 'd2', 'd3', 'd4', 'd5', 'd6', 'd7', 'd8', 'd9',
  'b1', 'b2', 'b3', 'b4', 'b5', 'b6', 'b7', 'b8', 'b9',
  'c1', 'c2', 'c3', 'c4', 'c5', 'c6', 'c7', 'c8', 'c9',
  'we', 'ws', 'ww', 'wn',
  'dr', 'dg', 'dw',
  'f1', 'f2', 'f3', 'f4',
  's1', 's2', 's3', 's4',
] as const; // prettier-ignore
export type Face = (typeof FACES)[number];

export const MODES = ['relaxed', 'classic'] as const;
export type Mode = (typeof MODES)[number];

export type Pair = readonly [number, number];

/** A deal's measured difficulty (difficulty.ts). */
export interface Difficulty {
  readonly band: Band;
  readonly score: number; // share of random games that fail, in percent, to 0.01
}

export const BANDS = ['easy', 'medium', 'hard', 'expert'] as const;
export type Band = (typeof BANDS)[number];

/** A dealt board: docs/contracts.md, "Deal JSON". */
export interface Deal {
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
  readonly generator: string;
  readonly difficulty: Difficulty;
  readonly tiles: readonly DealTile[]; // in the layout's slot order
  readonly solution: readonly Pair[]; // a clearing order
}

export interface DealTile extends Slot {
  readonly face: Face;
}

/** A tiny Result: expected failures are values, not exceptions. */
export type Result<T, E = string> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E; readonly message: string };

export const ok = <T>(value: T): Result<T, never> => ({ ok: true, value });

export const err = <E>(error: E, message: string): Result<never, E> => ({ ok: false, error, message });
