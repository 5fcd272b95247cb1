/**
 * Link-preview images (services/preview-image.ts): `npm run bench:previews`.
 *
 * Draws the image of each kind of page a link may show (a turtle deal, the daily, a replay's end part-cleared, a
 * challenge with its time to beat, a small custom layout, the largest built-in and a 1,000-tile custom layout),
 * RUNS times each, and prints the PNG's bytes and the least and median wall time of a drawing (SVG, pixels and
 * encoding), with the machine's load: the figures of docs/operations.md, "CPU budgets" and "Memory".
 * Options (environment): BENCH_RUNS (default 5), BENCH_OUT (a directory: the images are written there).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { deal, geometryOf, layoutById, type Face, type Layout } from '../src/engine/index.ts';
import { dailyLayoutOf, seedOfDay, utcDate } from '../src/server/services/daily.ts';
import { previewSvg, renderPng } from '../src/server/services/preview-image.ts';
import { spreadFaces } from '../src/server/view-models/head.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const OUT = process.env.BENCH_OUT;

/** A grid layout of `cols` × `rows` tiles on `layers` layers, as an upload could make. */
const grid = (id: string, cols: number, rows: number, layers: number): Layout => ({
  id,
  name: id,
  description: '',
  slots: Array.from({ length: cols * rows * layers }, (_, i) => ({
    x: 2 * (i % cols),
    y: 2 * (Math.floor(i / cols) % rows),
    z: Math.floor(i / (cols * rows)),
  })),
});

/** A deal's faces in slot order, the first `cleared` pairs of its solution gone. */
function dealt(layout: Layout, seed: string, cleared = 0): (Face | null)[] {
  const made = deal(layout, seed);
  if (!made.ok) throw new Error(made.message);
  const faces: (Face | null)[] = made.value.deal.tiles.map((t) => t.face);
  for (const [a, b] of made.value.deal.solution.slice(0, cleared)) faces[a] = faces[b] = null;
  return faces;
}

const today = utcDate(Date.now());
const turtle = layoutById('turtle')!;
const daily = layoutById(dailyLayoutOf(today))!;
const imperial = layoutById('imperial')!;
const small = grid('c-small', 4, 9, 1);
const big = grid('c-big', 25, 10, 4);
const KINDS: { kind: string; layout: Layout; faces: (Face | null)[]; badgeS?: number }[] = [
  { kind: 'turtle deal (144)', layout: turtle, faces: dealt(turtle, 'bench-og') },
  { kind: `daily (${daily.id}, ${daily.slots.length})`, layout: daily, faces: dealt(daily, seedOfDay(today)) },
  { kind: "replay's end (turtle, 60 left)", layout: turtle, faces: dealt(turtle, 'bench-og', 42) },
  { kind: 'challenge (turtle, 3:41)', layout: turtle, faces: dealt(turtle, 'bench-og'), badgeS: 221 },
  { kind: 'custom layout (36)', layout: small, faces: spreadFaces(small.slots.length) },
  { kind: 'imperial deal (216)', layout: imperial, faces: dealt(imperial, 'bench-og') },
  { kind: 'custom layout (1,000)', layout: big, faces: spreadFaces(big.slots.length) },
];

console.log(`bench:previews: ${RUNS} drawings of each; load average ${loadavg()[0]!.toFixed(1)}`);
console.log('kind'.padEnd(34) + 'bytes'.padStart(9) + 'least ms'.padStart(10) + 'p50 ms'.padStart(9));
if (OUT) mkdirSync(OUT, { recursive: true });
for (const { kind, layout, faces, badgeS } of KINDS) {
  const made = geometryOf(layout);
  if (!made.ok) throw new Error(`${kind}: ${made.message}`);
  const times: number[] = [];
  let png: Buffer = Buffer.alloc(0);
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    png = await renderPng(previewSvg(made.value, faces, badgeS));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  if (OUT) writeFileSync(`${OUT}/${kind.replace(/[^a-z0-9]+/gi, '-').replace(/-$/, '')}.png`, png);
  console.log(
    kind.padEnd(34) +
      String(png.length).padStart(9) +
      times[0]!.toFixed(0).padStart(10) +
      times[Math.floor(times.length / 2)]!.toFixed(0).padStart(9),
  );
}
console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
