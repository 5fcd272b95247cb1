/**
 * Preview of the tile faces of every tile set (the classic public/faces.svg, and the sprites drawn by
 * scripts/faces/), a designer's view of the sprites themselves; the game's own view is /tiles/<set>.
 *
 * Writes screenshots/sprite-<set>.svg and screenshots/faces-<set>-<theme>.html for each set and theme
 * (light, dark, contrast): every face on a
 * tile-like box in the theme's colours (the custom properties of public/css/site.css, which the
 * sprite's faces take their colours from), in rows by family, at 28 px tile width (a phone) and at 64 px. Each face is a
 * `<use href="sprite-<set>.svg#id">`, so it is served over a throwaway local HTTP server (Chromium does
 * not resolve external `<use>` references on file:// pages). If /usr/bin/chromium exists it then
 * takes PNG screenshots at device scale 1 and 2: with playwright-core when that package is
 * installed, otherwise with Chromium's own --screenshot flag.
 *
 * Run: npx tsx scripts/faces-preview.ts
 */
import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { TILE_SETS } from '../src/shared/tilesets.ts';
import { CHROMIUM, CHROMIUM_ARGS } from '../test/client/browser.ts';
import { spriteOf } from './faces/index.ts';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT_DIR = join(ROOT, 'screenshots');
const PAGE_SIZE = { width: 900, height: 780 }; // viewport of the screenshot; in CSS pixels
const TILE_WIDTHS = [28, 64]; // tile widths shown; in CSS pixels
const SCALES = [1, 2]; // device pixel ratios screenshotted

const rank = (prefix: string): string[] => Array.from({ length: 9 }, (_, i) => `${prefix}${i + 1}`);
const FAMILIES: [string, string[]][] = [
  ['Dots', rank('d')],
  ['Bamboo', rank('b')],
  ['Characters', rank('c')],
  ['Winds, dragons', ['we', 'ws', 'ww', 'wn', 'dr', 'dg', 'dw']],
  ['Flowers, seasons', ['f1', 'f2', 'f3', 'f4', 's1', 's2', 's3', 's4']],
];

const THEMES = ['light', 'dark', 'contrast'];

/** The preview page for `theme`; `sprite` and `css` are URLs relative to the page. */
function makeHtml(sprite: string, css: string, theme: string): string {
  const tile = (id: string): string =>
    `<div class="tile" title="${id}"><svg viewBox="0 0 60 80"><use href="${sprite}#${id}"/></svg></div>`;
  const block = (width: number): string =>
    `<section style="--w:${width}px"><h2>${width} px tiles</h2>` +
    FAMILIES.map(([name, ids]) => `<div class="row"><span>${name}</span>${ids.map(tile).join('')}</div>`).join('') +
    '</section>';
  return `<!doctype html>
<html data-theme="${theme}">
<meta charset="utf-8">
<title>Tile faces, ${theme}</title>
<link rel="stylesheet" href="${css}">
<style>
  body { display: block; min-height: 0; margin: 12px; background: var(--bg); color: var(--ink); font: 12px sans-serif; }
  h2 { font-size: 13px; margin: 4px 0; }
  section { margin-bottom: 10px; }
  .row { display: flex; align-items: center; gap: calc(var(--w) * 0.12); margin: 4px 0; }
  .row span { width: 110px; flex: none; }
  .tile {
    width: var(--w); height: calc(var(--w) * 4 / 3); box-sizing: border-box; padding: calc(var(--w) * 0.06);
    background: var(--tile-face); border-radius: calc(var(--w) * 0.12);
    box-shadow: inset 0 0 0 1px var(--tile-edge), 2px 3px 0 var(--tile-side-top), 3px 5px 6px rgb(0 0 0 / 35%);
  }
  .tile svg { display: block; width: 100%; height: 100%; }
</style>
${TILE_WIDTHS.map(block).join('\n')}
`;
}

/** Serves the repository's public/ and screenshots/ folders on a free local port. */
async function serve(): Promise<Server> {
  const types: Record<string, string> = { '.html': 'text/html', '.svg': 'image/svg+xml', '.css': 'text/css' };
  const server = createServer((req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname));
    const file = join(ROOT, path);
    const allowed = path.startsWith('/public/') || path.startsWith('/screenshots/'); // nothing else leaves the repo
    if (!allowed || !existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': types[path.slice(path.lastIndexOf('.'))] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return server;
}

interface Browser {
  newPage(opts: object): Promise<{
    goto(url: string, opts: object): Promise<unknown>;
    screenshot(opts: object): Promise<unknown>;
  }>;
  close(): Promise<void>;
}

/** playwright-core's chromium launcher, or null when the package is not installed. */
async function loadPlaywright(): Promise<{ launch(opts: object): Promise<Browser> } | null> {
  const name = 'playwright-core'; // a variable, so tsc does not need the package to be installed
  try {
    const mod = (await import(name)) as { chromium: { launch(opts: object): Promise<Browser> } };
    return mod.chromium;
  } catch {
    return null;
  }
}

async function screenshot(url: string, png: string, scale: number): Promise<void> {
  const playwright = await loadPlaywright();
  if (playwright) {
    const browser = await playwright.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage({ viewport: PAGE_SIZE, deviceScaleFactor: scale });
      await page.goto(url, { waitUntil: 'networkidle' });
      await page.screenshot({ path: png });
    } finally {
      await browser.close();
    }
    return;
  }
  await promisify(execFile)(CHROMIUM, [
    '--headless',
    ...CHROMIUM_ARGS,
    '--hide-scrollbars',
    `--force-device-scale-factor=${scale}`,
    `--window-size=${PAGE_SIZE.width},${PAGE_SIZE.height}`,
    '--virtual-time-budget=3000', // let the external sprite load before the shot
    `--screenshot=${png}`,
    url,
  ]);
}

async function main(): Promise<void> {
  mkdirSync(OUT_DIR, { recursive: true });
  const pages: string[] = [];
  for (const set of TILE_SETS) {
    writeFileSync(join(OUT_DIR, `sprite-${set}.svg`), spriteOf(set));
    for (const theme of THEMES) {
      const name = `faces-${set}-${theme}`;
      const html = join(OUT_DIR, `${name}.html`);
      writeFileSync(html, makeHtml(`sprite-${set}.svg`, '../public/css/site.css', theme));
      pages.push(name);
      console.log(`wrote ${html}`);
    }
  }
  if (!existsSync(CHROMIUM)) {
    console.log(`no ${CHROMIUM}: skipped screenshots`);
    return;
  }
  const server = await serve();
  try {
    const { port } = server.address() as AddressInfo;
    for (const name of pages)
      for (const scale of SCALES) {
        const png = join(OUT_DIR, `${name}@${scale}x.png`);
        await screenshot(`http://127.0.0.1:${port}/screenshots/${name}.html`, png, scale);
        console.log(`wrote ${png}`);
      }
  } finally {
    server.close();
  }
}

await main();
