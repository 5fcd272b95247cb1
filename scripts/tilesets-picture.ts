/**
 * The README's picture of the three tile sets side by side (docs/tilesets.png): the same twelve faces in
 * each set, drawn by the app's own preview CSS and face sheets (light theme), with the sets' names. Starts
 * the app on a free local port with a throwaway database; needs a build (npm run build).
 *
 * Run: npx tsx scripts/tilesets-picture.ts [OUT]   (default docs/tilesets.png)
 */
import { resolve } from 'node:path';
import { TILE_SETS } from '../src/shared/tilesets.ts';
import { i18n } from '../src/server/services/i18n.ts';
import { tileSetText } from '../src/server/view-models/tiles.ts';
import { launch, startApp } from '../test/client/browser.ts';

const OUT = resolve(process.argv[2] ?? 'docs/tilesets.png');
const FACES = ['d5', 'b1', 'b8', 'c3', 'c9', 'f1', 'we', 'wn', 'dr', 'dg', 'dw', 's2'];
const TILE = 44; // CSS px
const english = i18n().of('en'); // the README's language

const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  const context = await browser.newContext({ viewport: { width: 1100, height: 400 }, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(`${app.url}/tiles/classic`);
  const panels = TILE_SETS.map(
    (set) =>
      `<figure class="face-chart" data-tiles="${set}"><div class="pic">${FACES.map((f) => `<span class="tile face-tile" data-face="${f}"></span>`).join('')}</div>` +
      `<figcaption>${tileSetText(english, set).name}</figcaption></figure>`,
  ).join('');
  await page.evaluate(
    ([html, tile]) => {
      document.body.innerHTML = `<div id="picture">${html}</div>`;
      const style = document.createElement('style');
      style.textContent =
        `body{margin:0;background:var(--bg)}#picture{display:flex;gap:22px;padding:16px 18px 12px;width:max-content}` +
        `figure{margin:0}.pic{display:grid;grid-template-columns:repeat(6,${tile}px);gap:8px 6px}` +
        `.pic .face-tile{--tile:${tile}px}` +
        `figcaption{margin-top:10px;text-align:center;font:600 15px system-ui,sans-serif;color:var(--ink)}`;
      document.head.append(style);
    },
    [panels, TILE] as const,
  );
  await page.waitForLoadState('networkidle');
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
  await page.locator('#picture').screenshot({ path: OUT });
  console.log(`wrote ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
