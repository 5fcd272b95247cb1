/**
 * Screenshots of the tile sets: the play page (the turtle, one tile selected) in every set and theme at the
 * three review sizes, the portrait board zoomed in once, each set's faces preview page (/tiles/<id>) at the
 * desktop and portrait sizes in every theme, and the home page's header with the pickers. Starts the app on
 * a free local port with a throwaway database.
 *
 * Run: npx tsx scripts/tiles-shots.ts [OUT_DIR]   (default screenshots/tiles)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TILE_SETS } from '../src/shared/tilesets.ts';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';

const OUT = resolve(process.argv[2] ?? 'screenshots/tiles');
const THEMES = ['light', 'dark', 'contrast'];

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  for (const set of TILE_SETS) {
    for (const theme of THEMES) {
      for (const size of REVIEW_SIZES) {
        const context = await reviewContext(browser, size);
        await context.addCookies([
          { name: 'theme', value: theme, url: app.url },
          { name: 'tiles', value: set, url: app.url },
        ]);
        const page = await context.newPage();
        await page.goto(`${app.url}/play/turtle/shots`);
        await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
        await page.locator('#board .tile[data-free]').first().click();
        await page.waitForTimeout(150); // the sheet's first paint
        await page.screenshot({ path: join(OUT, `play-${set}-${theme}-${size.name}.png`) });
        if (size.name === 'portrait') {
          await page.locator('[data-action="zoom-in"]').click();
          await page.waitForTimeout(150);
          await page.screenshot({ path: join(OUT, `play-${set}-${theme}-portrait-zoomed.png`) });
        }
        if (size.name !== 'landscape') {
          await page.goto(`${app.url}/tiles/${set}`);
          await page.waitForTimeout(150);
          await page.screenshot({ path: join(OUT, `preview-${set}-${theme}-${size.name}.png`), fullPage: true });
        }
        if (set === 'classic' && theme === 'light') {
          await page.goto(`${app.url}/`);
          await page.screenshot({ path: join(OUT, `home-${size.name}.png`) });
        }
        await context.close();
      }
    }
  }
  console.log(`wrote screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
