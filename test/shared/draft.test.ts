/** The layout editor's draft (src/shared/draft.ts): codes, edits, the grid and "can this be cleared?". */
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../src/engine/builtins.ts';
import { MAX_TILES, makeRng, sortSlots, type Slot } from '../../src/engine/index.ts';
import { t } from '../../src/client/i18n.ts';
import {
  EDITOR_INSET,
  EDITOR_MAX,
  EDITOR_MIN,
  EMPTY_DRAFT,
  changeLayer,
  checkDraft,
  draftOf,
  draftQuery,
  gridOf,
  makeDraftCode,
  moveDraft,
  overlapping,
  parseDraftCode,
  statusText,
  tileAt,
  toggleCell,
  type Draft,
} from '../../src/shared/draft.ts';

const at = (x: number, y: number, z = 0): Slot => ({ x, y, z });
const draftWith = (slots: Slot[], z = 0): Draft => ({ slots: sortSlots(slots), z, name: '' });

describe('draft codes', () => {
  test('four address-safe characters a tile, read back as written (in canonical order)', () => {
    const slots = [at(13, 7, 4), at(0, 0), at(62, 38, 63), at(2, 0)];
    const code = makeDraftCode(slots);
    expect(code).toMatch(/^[A-Za-z0-9_-]{16}$/);
    expect(parseDraftCode(code)).toEqual({ ok: true, slots: sortSlots(slots) });
    expect(makeDraftCode([])).toBe('');
    expect(parseDraftCode('')).toEqual({ ok: true, slots: [] });
  });

  test('every built-in layout that fits the grid round-trips', () => {
    for (const id of ['turtle', 'imperial', 'skyline', 'towers']) {
      const slots = layoutById(id)!.slots;
      expect(parseDraftCode(makeDraftCode(slots))).toEqual({ ok: true, slots: sortSlots(slots) });
    }
  });

  test('random drafts round-trip', () => {
    const rng = makeRng('codes');
    for (let k = 0; k < 200; k++) {
      const seen = new Map<string, Slot>();
      for (let i = rng.int(30); i > 0; i--) {
        const s = at(rng.int(EDITOR_MAX.width - 1), rng.int(EDITOR_MAX.height - 1), rng.int(64));
        seen.set(`${s.x},${s.y},${s.z}`, s);
      }
      const slots = [...seen.values()];
      expect(parseDraftCode(makeDraftCode(slots))).toEqual({ ok: true, slots: sortSlots(slots) });
    }
  });

  test.each([
    ['cut short', 'AAAAAA', /cut short/],
    ['not base64url', 'AA+A', /damaged/],
    ['a space', 'AA A', /damaged/],
    ['a tile off the grid', makeDraftCode([at(63, 0)]), /outside the editor's grid/],
    ['a layer past the top', 'AABA', /outside the editor's grid/], // (0, 0, 64)
    ['the same tile twice', makeDraftCode([at(2, 2)]).repeat(2), /two tiles at \(2, 2, 0\)/],
    ['too many tiles', 'AAAA'.repeat(MAX_TILES + 1), /more than 1000 tiles/],
  ])('%s is refused with a reason', (_label, code, message) => {
    const parsed = parseDraftCode(code);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.message).toMatch(message);
  });

  test('the address holds the tiles, the layer and the name', () => {
    expect(draftQuery(EMPTY_DRAFT)).toBe('');
    expect(draftQuery({ slots: [at(0, 0)], z: 1, name: 'Tea & cake' })).toBe('?layout=AAAA&z=1&name=Tea%20%26%20cake');
  });
});

describe('editing a draft', () => {
  test('a click places a tile with its top-left quarter on the cell; a click on any of its cells takes it away', () => {
    let d = draftWith([]);
    const placed = toggleCell(d, 3, 4);
    expect(placed).toEqual({ ok: true, draft: draftWith([at(3, 4)]) });
    d = placed.ok ? placed.draft : d;
    for (const [x, y] of [
      [3, 4],
      [4, 4],
      [3, 5],
      [4, 5],
    ] as const) {
      expect(tileAt(d.slots, x, y, 0)).toBe(0);
      expect(toggleCell(d, x, y)).toEqual({ ok: true, draft: draftWith([]) });
    }
    expect(tileAt(d.slots, 5, 4, 0)).toBe(-1);
    expect(tileAt(d.slots, 3, 4, 1)).toBe(-1); // another layer
  });

  test('tiles may overlap while drawing; the check names them', () => {
    const step = toggleCell(draftWith([at(1, 1)]), 0, 0); // the cell up-left of a tile is not the tile's
    expect(step.ok).toBe(true);
    const d = step.ok ? step.draft : EMPTY_DRAFT;
    expect(d.slots).toEqual([at(0, 0), at(1, 1)]);
    expect(overlapping(d.slots)).toEqual(new Set([0, 1]));
    expect(overlapping([at(0, 0), at(2, 0), at(0, 0, 1)])).toEqual(new Set());
    expect(checkDraft(d.slots, 1000)).toMatchObject({ clearable: false, reason: 'overlap' });
  });

  test('refused: more than 1,000 tiles, cells past the grid', () => {
    const full = draftWith(
      Array.from({ length: MAX_TILES }, (_, i) => at(2 * (i % 30), (2 * Math.floor(i / 30)) % 38, Math.floor(i / 570))),
    );
    expect(toggleCell(full, 61, 1)).toMatchObject({ ok: false, message: expect.stringMatching(/at most 1000/) });
    expect(toggleCell(draftWith([]), EDITOR_MAX.width - 1, 0)).toMatchObject({ ok: false });
    expect(toggleCell(draftWith([]), EDITOR_MAX.width - 2, EDITOR_MAX.height - 2).ok).toBe(true);
  });

  test('layers: down to the bottom, up to one above the top tile', () => {
    const d = draftWith([at(0, 0), at(0, 0, 1)]);
    expect(changeLayer(d, -1).z).toBe(0);
    expect(changeLayer(changeLayer(d, 1), 1).z).toBe(2);
    expect(changeLayer({ ...d, z: 2 }, 1).z).toBe(2);
    expect(changeLayer(draftWith([]), 1).z).toBe(0);
  });

  test('moving every tile, unless one would leave the grid', () => {
    const d = draftWith([at(0, 2), at(4, 2, 1)]);
    expect(moveDraft(d, -1, 0).ok).toBe(false);
    expect(moveDraft(d, 1, -2)).toEqual({ ok: true, draft: draftWith([at(1, 0), at(5, 0, 1)]) });
  });

  test('a layout opened in the editor moves in from the corner; one too large is not opened', () => {
    const turtle = layoutById('turtle')!;
    const d = draftOf(turtle.slots, turtle.name)!;
    expect(d.name).toBe('Turtle');
    expect(Math.min(...d.slots.map((s) => s.x))).toBe(EDITOR_INSET);
    expect(Math.min(...d.slots.map((s) => s.y))).toBe(EDITOR_INSET);
    expect(d.slots).toHaveLength(144);
    expect(draftOf([at(0, 0), at(200, 0)], 'wide')).toBeNull();
  });

  test('the grid: at least the smallest, the tiles and a margin, at most the largest, in even sizes', () => {
    expect(gridOf([])).toEqual(EDITOR_MIN);
    expect(gridOf([at(40, 1)])).toEqual({ width: 46, height: 20 });
    expect(gridOf([at(62, 38)])).toEqual(EDITOR_MAX);
  });
});

describe('can this be cleared?', () => {
  test.each([
    ['no tiles', [], 'empty', /place tiles/],
    ['a lone tower of two', [at(0, 0), at(0, 0, 1)], 'tower', /lone tower: 2 of the 2 tiles are stacked/],
    ['an odd count', [at(0, 0), at(2, 0), at(4, 0)], 'odd', /3 tiles: tiles leave in pairs/],
    ['tiles sharing room', [at(0, 0), at(1, 0)], 'overlap', /overlap on layer 0/],
    // A row of three over one tile: the row's ends go first, then the last two stand on each other.
    ['blocked at the end', [at(5, 0), at(3, 0, 1), at(5, 0, 1), at(7, 0, 1)], 'order', /no order of removals/],
  ] as const)('%s: no, and why', (_label, slots, reason, message) => {
    const check = checkDraft(slots, 10_000);
    expect(check).toMatchObject({ clearable: false, reason });
    if (!check.clearable) expect(check.message).toMatch(message);
  });

  test('a tower of two beside two tiles: yes; every built-in layout: yes', () => {
    expect(checkDraft([at(0, 0), at(0, 0, 1), at(4, 0), at(8, 0)], 10_000)).toEqual({ clearable: true });
    for (const id of ['turtle', 'plains', 'towers'])
      expect(checkDraft(layoutById(id)!.slots, 200_000).clearable).toBe(true);
  });

  test('a search that runs out of its budget says so rather than no', () => {
    const check = checkDraft(layoutById('turtle')!.slots, 3);
    expect(check).toMatchObject({ clearable: false, reason: 'unknown' });
    if (!check.clearable) expect(check.message).toMatch(/within 3 steps/);
  });

  test('the status line, in the language of its formatter', () => {
    expect(statusText(t, 0, checkDraft([], 10))).toBe('No tiles yet: place tiles on the grid to begin');
    expect(statusText(t, 2, null)).toBe('2 tiles · checking whether it can be cleared…');
    expect(statusText(t, 1000, { clearable: true })).toBe('1,000 tiles · can be cleared');
    expect(statusText(t, 3, checkDraft([at(0, 0), at(2, 0), at(4, 0)], 10))).toMatch(/^3 tiles · cannot be cleared: /);
    expect(statusText(t, 2, checkDraft([at(0, 0), at(0, 0, 1)], 10))).toBe(
      '2 tiles · cannot be cleared: a lone tower: 2 of the 2 tiles are stacked on one another, and each of them needs a partner from elsewhere',
    );
  });
});
