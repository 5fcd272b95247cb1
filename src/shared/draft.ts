/** The layout editor's draft, for server and script alike (docs/server.md, "Your own layouts"). */
// Not the engine's index, which would pull every built-in layout into the script.
import {
  LayoutError,
  MAX_LAYER,
  MAX_TILES,
  makeGeometry,
  sortSlots,
  validateSlots,
  type Geometry,
} from '../engine/layout.ts';
import { findRemovalOrder, quickUnclearable } from '../engine/order.ts';
import { makeRng } from '../engine/rng.ts';
import type { Slot } from '../engine/types.ts';
import type { Format } from './i18n.ts';

// Sizes in half tiles.
export const EDITOR_MIN = { width: 36, height: 20 } as const;
export const EDITOR_MAX = { width: 64, height: 40 } as const;
export const EDITOR_MARGIN = 4; // kept empty right of and below the tiles
export const EDITOR_INSET = 2; // an opened layout moved in from the corner
export const EDITOR_NAME_MAX = 40;
export const MAX_CODE = 4 * MAX_TILES;

/** A layout being drawn. */
export interface Draft {
  readonly slots: readonly Slot[]; // canonical order
  readonly z: number;
  readonly name: string;
}

export const EMPTY_DRAFT: Draft = { slots: [], z: 0, name: '' };

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const VALUE = new Map([...ALPHABET].map((c, i) => [c, i]));

/** A draft's code: base64url of (x, y, z) bytes per tile, in canonical order. */
export function makeDraftCode(slots: readonly Slot[]): string {
  let out = '';
  for (const s of sortSlots(slots)) {
    const n = (s.x << 16) | (s.y << 8) | s.z;
    out += ALPHABET[(n >> 18) & 63]! + ALPHABET[(n >> 12) & 63]! + ALPHABET[(n >> 6) & 63]! + ALPHABET[n & 63]!;
  }
  return out;
}

export type CodeResult =
  { readonly ok: true; readonly slots: Slot[] } | { readonly ok: false; readonly message: string };

/** The tiles of a draft's code, or a message. */
export function parseDraftCode(code: string): CodeResult {
  const fail = (message: string): CodeResult => ({ ok: false, message });
  if (code.length > MAX_CODE) return fail(`the layout in this address has more than ${MAX_TILES} tiles`);
  if (code.length % 4 !== 0) return fail('the layout in this address is cut short; was the link copied whole?');
  const slots: Slot[] = [];
  const seen = new Set<number>();
  for (let i = 0; i < code.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const v = VALUE.get(code[i + k]!);
      if (v === undefined) return fail('the layout in this address is damaged; was the link copied whole?');
      n = (n << 6) | v;
    }
    const s = { x: (n >> 16) & 255, y: (n >> 8) & 255, z: n & 255 };
    if (s.x > EDITOR_MAX.width - 2 || s.y > EDITOR_MAX.height - 2 || s.z > MAX_LAYER)
      return fail(
        `a tile at (${s.x}, ${s.y}, ${s.z}) lies outside the editor's grid of ${EDITOR_MAX.width} × ${EDITOR_MAX.height} half tiles and ${MAX_LAYER + 1} layers`,
      );
    if (seen.has(n)) return fail(`two tiles at (${s.x}, ${s.y}, ${s.z})`);
    seen.add(n);
    slots.push(s);
  }
  return { ok: true, slots: sortSlots(slots) };
}

/** The grid a draft needs, with the margin, within EDITOR_MIN and EDITOR_MAX. */
export function gridOf(slots: readonly Slot[]): { readonly width: number; readonly height: number } {
  let right = 0;
  let bottom = 0;
  for (const s of slots) {
    right = Math.max(right, s.x + 2);
    bottom = Math.max(bottom, s.y + 2);
  }
  const even = (n: number): number => n + (n % 2);
  return {
    width: Math.min(EDITOR_MAX.width, Math.max(EDITOR_MIN.width, even(right + EDITOR_MARGIN))),
    height: Math.min(EDITOR_MAX.height, Math.max(EDITOR_MIN.height, even(bottom + EDITOR_MARGIN))),
  };
}

/** The highest layer a draft may edit. */
export const topLayerOf = (slots: readonly Slot[]): number =>
  Math.min(
    MAX_LAYER,
    slots.reduce((top, s) => Math.max(top, s.z + 1), 0),
  );

const covers = (s: Slot, x: number, y: number): boolean => s.x <= x && x < s.x + 2 && s.y <= y && y < s.y + 2;

/** The tile on layer z covering cell (x, y) (the last, if they overlap), or -1. */
export function tileAt(slots: readonly Slot[], x: number, y: number, z: number): number {
  for (let i = slots.length - 1; i >= 0; i--) if (slots[i]!.z === z && covers(slots[i]!, x, y)) return i;
  return -1;
}

/** Why an edit was refused (English; players read `EDIT_KEYS`). */
export type EditRefusal = 'too-many' | 'no-cell' | 'grid-end' | 'edge';
export type DraftEdit =
  | { readonly ok: true; readonly draft: Draft }
  | { readonly ok: false; readonly reason: EditRefusal; readonly message: string };

/** Each refusal's catalog key (docs/i18n.md). */
export const EDIT_KEYS: Readonly<Record<EditRefusal, string>> = {
  'too-many': 'client.editor.tooMany',
  'no-cell': 'client.editor.noCell',
  'grid-end': 'client.editor.gridEnd',
  edge: 'client.editor.edge',
};

export const editMessage = (t: Format, reason: EditRefusal): string =>
  t(EDIT_KEYS[reason], { max: MAX_TILES, width: EDITOR_MAX.width, height: EDITOR_MAX.height });

/** A click on cell (x, y): removes the layer's tile there, or places one whose top-left quarter it is. */
export function toggleCell(draft: Draft, x: number, y: number): DraftEdit {
  const at = tileAt(draft.slots, x, y, draft.z);
  if (at >= 0) return { ok: true, draft: { ...draft, slots: draft.slots.filter((_, i) => i !== at) } };
  if (draft.slots.length >= MAX_TILES)
    return {
      ok: false,
      reason: 'too-many',
      message: `a layout has at most ${MAX_TILES} tiles; remove one to place another`,
    };
  if (!Number.isInteger(x) || !Number.isInteger(y) || x < 0 || y < 0)
    return { ok: false, reason: 'no-cell', message: 'there is no such cell' };
  if (x > EDITOR_MAX.width - 2 || y > EDITOR_MAX.height - 2)
    return {
      ok: false,
      reason: 'grid-end',
      message: `the grid ends here: a layout is at most ${EDITOR_MAX.width} × ${EDITOR_MAX.height} half tiles`,
    };
  return { ok: true, draft: { ...draft, slots: sortSlots([...draft.slots, { x, y, z: draft.z }]) } };
}

/** The draft one layer up or down. */
export function changeLayer(draft: Draft, dz: -1 | 1): Draft {
  return { ...draft, z: Math.max(0, Math.min(topLayerOf(draft.slots), draft.z + dz)) };
}

/** The tiles moved by (dx, dy), unless one would leave the grid. */
export function moveDraft(draft: Draft, dx: number, dy: number): DraftEdit {
  const moved = draft.slots.map((s) => ({ x: s.x + dx, y: s.y + dy, z: s.z }));
  if (moved.some((s) => s.x < 0 || s.y < 0 || s.x > EDITOR_MAX.width - 2 || s.y > EDITOR_MAX.height - 2))
    return { ok: false, reason: 'edge', message: 'the tiles are at the edge of the grid' };
  return { ok: true, draft: { ...draft, slots: moved } };
}

/** A layout's slots as a new draft, moved EDITOR_INSET in; null if it does not fit. */
export function draftOf(slots: readonly Slot[], name: string): Draft | null {
  if (slots.length === 0) return { ...EMPTY_DRAFT, name };
  const minX = Math.min(...slots.map((s) => s.x));
  const minY = Math.min(...slots.map((s) => s.y));
  const minZ = Math.min(...slots.map((s) => s.z));
  const moved = slots.map((s) => ({ x: s.x - minX + EDITOR_INSET, y: s.y - minY + EDITOR_INSET, z: s.z - minZ }));
  if (moved.some((s) => s.x > EDITOR_MAX.width - 2 || s.y > EDITOR_MAX.height - 2 || s.z > MAX_LAYER)) return null;
  return { slots: sortSlots(moved), z: 0, name: name.slice(0, EDITOR_NAME_MAX) };
}

/** The query string of a draft's address, with its `?`. */
export function draftQuery(draft: Draft): string {
  const params: string[] = [];
  if (draft.slots.length > 0) params.push(`layout=${makeDraftCode(draft.slots)}`);
  if (draft.z > 0) params.push(`z=${draft.z}`);
  if (draft.name !== '') params.push(`name=${encodeURIComponent(draft.name)}`);
  return params.length > 0 ? `?${params.join('&')}` : '';
}

export const cellsOf = (s: Slot): readonly (readonly [number, number])[] => [
  [s.x, s.y],
  [s.x + 1, s.y],
  [s.x, s.y + 1],
  [s.x + 1, s.y + 1],
];

/** The indices of tiles that overlap another on their layer. */
export function overlapping(slots: readonly Slot[]): Set<number> {
  const out = new Set<number>();
  const cells = new Map<number, number>();
  slots.forEach((s, i) => {
    for (const [x, y] of cellsOf(s)) {
      const key = (s.z * 512 + y) * 512 + x;
      const other = cells.get(key);
      if (other !== undefined) out.add(other).add(i);
      else cells.set(key, i);
    }
  });
  return out;
}

export type DraftReason = 'empty' | 'too-many' | 'odd' | 'overlap' | 'tower' | 'order' | 'unknown';

export type DraftCheck =
  | { readonly clearable: true }
  | {
      readonly clearable: false;
      readonly reason: DraftReason;
      readonly message: string;
      readonly tower?: { readonly chain: number; readonly count: number }; // a lone tower
    };

export const CHECK_SEED = 'editor';

/** Can these tiles be cleared? The engine's checks, then a deterministic search of `budget` pairs. */
export function checkDraft(slots: readonly Slot[], budget: number, geom?: Geometry): DraftCheck {
  const no = (reason: DraftReason, message: string): DraftCheck => ({ clearable: false, reason, message });
  if (slots.length === 0) return no('empty', 'place tiles on the grid to begin');
  const valid = validateSlots(slots);
  if (!valid.ok) {
    if (valid.error === LayoutError.Overlap || valid.error === LayoutError.Duplicate)
      return no('overlap', `${valid.message}: two tiles on one layer cannot share room`);
    if (valid.error === LayoutError.Odd)
      return no('odd', `${slots.length} tiles: tiles leave in pairs, so the count must be even`);
    if (valid.error === LayoutError.TooLarge) return no('too-many', valid.message);
    return no('overlap', valid.message);
  }
  geom ??= makeGeometry(valid.value);
  const present = new Uint8Array(geom.size).fill(1);
  const lone = quickUnclearable(geom, present);
  if (lone) {
    const [, chain = '0', count = '0'] = /^(\d+) of the (\d+) tiles/.exec(lone) ?? [];
    const tower = { chain: Number(chain), count: Number(count) };
    return { clearable: false, reason: 'tower', message: `a lone tower: ${lone}`, tower };
  }
  const found = findRemovalOrder(geom, present, makeRng(CHECK_SEED), budget);
  if (found.ok) return { clearable: true };
  if (found.message.includes(`within ${budget} steps`))
    return no(
      'unknown',
      `no order of removals was found within ${budget.toLocaleString('en')} steps: very likely it cannot`,
    );
  return no('order', 'no order of removals empties it: some tiles would be left blocking each other');
}

/** The catalog key of each reason a draft cannot be cleared (docs/i18n.md). */
const REASON_KEYS: Readonly<Record<Exclude<DraftReason, 'empty'>, string>> = {
  'too-many': 'client.editor.why.tooMany',
  odd: 'client.editor.why.odd',
  overlap: 'client.editor.why.overlap',
  tower: 'client.editor.why.tower',
  order: 'client.editor.why.order',
  unknown: 'client.editor.why.unknown',
};

/** A draft's status line: its tile count and the check's answer. */
export function statusText(t: Format, tiles: number, check: DraftCheck | null, budget = 0): string {
  if (check === null) return t('client.editor.checking', { n: tiles });
  if (check.clearable) return t('client.editor.clearable', { n: tiles });
  if (check.reason === 'empty') return t('client.editor.empty');
  const why = t(REASON_KEYS[check.reason], {
    n: tiles,
    max: MAX_TILES,
    steps: budget,
    chain: check.tower?.chain ?? 0,
    count: check.tower?.count ?? tiles,
  });
  return t('client.editor.cannot', { n: tiles, why });
}

/** The accessible name of a draft's picture. */
export const pictureLabel = (t: Format, name: string, tiles: number, layers: number): string =>
  t('client.editor.picture', { name: name || t('client.editor.yourLayout'), tiles, layers });
