/**
 * Screenshots of built-in layouts as players see them: the play page of one relaxed deal per layout
 * at the three review sizes (desktop 1440 × 900, portrait phone 390 × 844, landscape phone 844 × 390),
 * and the home page's family sections at desktop size. Starts the app on a free local port with a
 * throwaway database (build the client first: npm run build).
 *
 * Run: npx tsx scripts/layout-shots.ts [--out DIR] [id ...]   (default: every layout, screenshots/layouts)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { LAYOUTS } from '../src/engine/builtins.ts';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const OUT = resolve(outAt >= 0 ? args.splice(outAt, 2)[1]! : 'screenshots/layouts');
const wanted = args.length > 0 ? args : LAYOUTS.map((l) => l.id);
const unknown = wanted.filter((id) => !LAYOUTS.some((l) => l.id === id));
if (unknown.length > 0) {
  console.error(`no built-in layout called ${unknown.join(', ')}`);
  process.exit(2);
}

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  for (const size of REVIEW_SIZES) {
    const context = await reviewContext(browser, size);
    const page = await context.newPage();
    for (const id of wanted) {
      await page.goto(`${app.url}/play/${id}/shots`);
      await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
      await page.screenshot({ path: join(OUT, `${id}-${size.name}.png`) });
    }
    if (size.name === 'desktop') {
      await page.goto(`${app.url}/`);
      await page.screenshot({ path: join(OUT, 'home.png'), fullPage: true });
    }
    await context.close();
  }
  console.log(`wrote ${wanted.length * REVIEW_SIZES.length + 1} screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
