/**
 * What each tile set costs a play page (docs/client.md, "Cheap"): `npm run bench:tiles`.
 *
 * For every set, the turtle's play page of a fresh visitor (a new browser context each load, so nothing is
 * cached; a new seed each load) on a phone (390×844 at device scale 3, touch) and a desktop (1440×900 at 1):
 * - **bytes**: the page and everything it loads before it is idle (HTML, styles, scripts, the one face
 *   sheet), as bodies on the wire (`encodedBodySize`: compressed as the server sends them to Chromium,
 *   which asks for gzip over plain http) and as decoded; the face sheet's own bytes beside;
 * - **paint**: CPU time Chromium spends drawing the page's 144 tiles, from a trace of the load: the face
 *   sheet parsed into its SVG document (`SVGImage::DataChanged`), the main thread's paint (`Paint`) and
 *   the raster threads' work (`RasterTask`), in thread time (`tdur`, so work of other processes on the
 *   machine counts less than in wall time).
 * Loads are interleaved (set A, B, C, A, B, C, …), RUNS each; medians are printed with each set's ratio
 * to the classic set's, and the goal: neither more than 1.2 times the classic set's. The exit status is
 * 1 when a goal is missed.
 *
 * The app runs in this process on a free loopback port with a fresh database, as the browser tests start
 * it. Options (environment): BENCH_RUNS (default 7).
 */
import { loadavg } from 'node:os';
import type { Browser } from 'playwright-core';
import { TILE_SETS, type TileSet } from '../src/shared/tilesets.ts';
import { HAS_CHROMIUM, launch, startApp } from '../test/client/browser.ts';

const RUNS = Number(process.env.BENCH_RUNS ?? 7);
const GOAL = 1.2; // at most this many times the classic set's bytes and paint time
const VIEWS = [
  { name: 'phone', viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true },
  { name: 'desktop', viewport: { width: 1440, height: 900 }, deviceScaleFactor: 1, isMobile: false, hasTouch: false },
] as const;
const PAINT_EVENTS = new Set(['SVGImage::DataChanged', 'Paint', 'RasterTask']);

interface Load {
  wire: number; // bytes, compressed bodies
  decoded: number; // bytes, bodies decoded
  sheetWire: number; // the face sheet's compressed body
  paintMs: number; // CPU ms of PAINT_EVENTS
  svgMs: number; // of which the sheet's SVG document
  rasterMs: number; // of which raster
}

const median = (xs: readonly number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
};

interface TraceEvent {
  name: string;
  ph: string;
  dur?: number;
  tdur?: number;
}

async function load(
  browser: Browser,
  url: string,
  set: TileSet,
  view: (typeof VIEWS)[number],
  seed: string,
): Promise<Load> {
  const { name: _name, ...options } = view;
  const context = await browser.newContext({ ...options, colorScheme: 'light', serviceWorkers: 'block' });
  try {
    await context.addCookies([{ name: 'tiles', value: set, url }]);
    const page = await context.newPage();
    await browser.startTracing(page, {
      categories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'blink'],
    });
    await page.goto(`${url}/play/turtle/${seed}`, { waitUntil: 'load' });
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    // the sheet loaded and two frames drawn after it, then a quiet moment for the raster threads
    await page.waitForFunction(() =>
      performance.getEntriesByType('resource').some((e) => /\/faces-[a-z]+-[a-z]+\.[0-9a-f]+\.svg$/.test(e.name)),
    );
    await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
    await page.waitForTimeout(500);
    const sizes = await page.evaluate(() => {
      const entries = [
        ...performance.getEntriesByType('navigation'),
        ...performance.getEntriesByType('resource'),
      ] as PerformanceResourceTiming[];
      const sheet = entries.find((e) => /\/faces-[a-z]+-[a-z]+\.[0-9a-f]+\.svg$/.test(e.name));
      return {
        wire: entries.reduce((sum, e) => sum + e.encodedBodySize, 0),
        decoded: entries.reduce((sum, e) => sum + e.decodedBodySize, 0),
        sheetWire: sheet?.encodedBodySize ?? NaN,
        sheets: entries.filter((e) => /\/faces-/.test(e.name)).length,
      };
    });
    if (sizes.sheets !== 1) throw new Error(`the page loaded ${sizes.sheets} face sheets, not one`);
    const trace = JSON.parse((await browser.stopTracing()).toString()) as { traceEvents: TraceEvent[] };
    let svgMs = 0;
    let rasterMs = 0;
    let paintMs = 0;
    for (const e of trace.traceEvents) {
      if (e.ph !== 'X' || !PAINT_EVENTS.has(e.name)) continue;
      const ms = (e.tdur ?? e.dur ?? 0) / 1000;
      paintMs += ms;
      if (e.name === 'SVGImage::DataChanged') svgMs += ms;
      if (e.name === 'RasterTask') rasterMs += ms;
    }
    return { wire: sizes.wire, decoded: sizes.decoded, sheetWire: sizes.sheetWire, paintMs, svgMs, rasterMs };
  } finally {
    await context.close();
  }
}

async function main(): Promise<number> {
  if (!HAS_CHROMIUM) {
    console.error('bench:tiles needs /usr/bin/chromium');
    return 2;
  }
  const [app, browser] = await Promise.all([startApp(), launch()]);
  let missed = false;
  try {
    console.log(`bench:tiles: ${RUNS} loads per set and view, interleaved; load average ${loadavg()[0]!.toFixed(1)}`);
    for (const view of VIEWS) {
      const loads = new Map<TileSet, Load[]>(TILE_SETS.map((s) => [s, []]));
      for (let run = 0; run < RUNS; run++) {
        for (const set of run % 2 ? [...TILE_SETS].reverse() : TILE_SETS) {
          const one = await load(browser, app.url, set, view, `bench-${view.name}-${run}-${set}`);
          loads.get(set)!.push(one);
          console.log(
            `  ${view.name} ${set} run ${run + 1}: ${one.wire} B on the wire, paint ${one.paintMs.toFixed(1)} ms (sheet ${one.svgMs.toFixed(1)}, raster ${one.rasterMs.toFixed(1)})`,
          );
        }
      }
      const medianOf = (set: TileSet, key: keyof Load): number => median(loads.get(set)!.map((l) => l[key]));
      const base = { wire: medianOf('classic', 'wire'), paint: medianOf('classic', 'paintMs') };
      console.log(
        `\n${view.name} (${view.viewport.width}×${view.viewport.height} at ${view.deviceScaleFactor}x), medians:`,
      );
      console.log(
        '| set | page bytes (wire) | decoded | sheet (wire) | ratio | paint ms | sheet ms | raster ms | ratio |',
      );
      console.log('|---|---|---|---|---|---|---|---|---|');
      for (const set of TILE_SETS) {
        const wire = medianOf(set, 'wire');
        const paint = medianOf(set, 'paintMs');
        const [bytesRatio, paintRatio] = [wire / base.wire, paint / base.paint];
        if (bytesRatio > GOAL || paintRatio > GOAL) missed = true;
        console.log(
          `| ${set} | ${wire} | ${medianOf(set, 'decoded')} | ${medianOf(set, 'sheetWire')} | ${bytesRatio.toFixed(3)} | ` +
            `${paint.toFixed(1)} | ${medianOf(set, 'svgMs').toFixed(1)} | ${medianOf(set, 'rasterMs').toFixed(1)} | ${paintRatio.toFixed(3)} |`,
        );
      }
    }
    console.log(`\ngoal: bytes and paint at most ${GOAL}× the classic set's: ${missed ? 'MISSED' : 'met'}`);
    console.log(`load average at the end ${loadavg()[0]!.toFixed(1)}`);
  } finally {
    await browser.close();
    await app.close();
  }
  return missed ? 1 : 0;
}

process.exitCode = await main();
