/**
 * Prints the built-in layouts as ASCII art, to check their shapes by eye.
 *
 *   npx tsx scripts/layout-preview.ts [id ...]
 *
 * Each layout gets a summary line (tiles, tiles per layer, extent in half tiles,
 * whether a removal order exists), one grid per layer in the manner of a
 * KMahjongg layout file (one character per half tile; a tile is a 2 × 2 block
 * drawn `[]` over `[]`, with `.` where a lower layer has a tile), and a map of the
 * top layer over each half-tile cell (1 for layer 0), as seen from above.
 */
import { LAYOUTS } from '../src/engine/builtins.ts';
import { geometryOf } from '../src/engine/layout.ts';
import { findRemovalOrder } from '../src/engine/order.ts';
import { fullPresence } from '../src/engine/rules.ts';
import { makeRng } from '../src/engine/rng.ts';
import type { Layout } from '../src/engine/types.ts';

function preview(layout: Layout): string {
  const slots = layout.slots;
  const width = Math.max(...slots.map((s) => s.x + 2));
  const height = Math.max(...slots.map((s) => s.y + 2));
  const depth = Math.max(...slots.map((s) => s.z + 1));
  const perLayer = Array.from({ length: depth }, (_, z) => slots.filter((s) => s.z === z).length);
  const geom = geometryOf(layout);
  const clearable = geom.ok ? findRemovalOrder(geom.value, fullPresence(geom.value.size), makeRng('preview')) : geom;
  const lines = [
    `== ${layout.id}: ${layout.name} — ${layout.description}`,
    `   ${slots.length} tiles, layers ${perLayer.join('/')}, ${width} × ${height} half tiles, ` +
      (clearable.ok ? 'clearable' : `NOT CLEARABLE: ${clearable.message}`),
  ];
  const blank = (): string[][] => Array.from({ length: height }, () => new Array<string>(width).fill(' '));
  const tops = Array.from({ length: height }, () => new Array<number>(width).fill(0));
  for (let z = 0; z < depth; z++) {
    const grid = blank();
    for (const s of slots) {
      if (s.z >= z) continue;
      for (const dy of [0, 1]) for (const dx of [0, 1]) grid[s.y + dy]![s.x + dx] = '.';
    }
    for (const s of slots) {
      if (s.z !== z) continue;
      for (const dy of [0, 1]) {
        grid[s.y + dy]![s.x] = '[';
        grid[s.y + dy]![s.x + 1] = ']';
        tops[s.y + dy]![s.x] = z + 1;
        tops[s.y + dy]![s.x + 1] = z + 1;
      }
    }
    lines.push(`-- layer ${z} (${perLayer[z]} tiles)`, ...grid.map((r) => `   ${r.join('').trimEnd()}`));
  }
  const heights = tops.map(
    (r) =>
      `   ${r
        .map((c) => (c ? String(c) : ' '))
        .join('')
        .trimEnd()}`,
  );
  lines.push('-- top layer', ...heights);
  return lines.join('\n');
}

const wanted = process.argv.slice(2);
for (const layout of LAYOUTS)
  if (wanted.length === 0 || wanted.includes(layout.id)) console.log(`${preview(layout)}\n`);
