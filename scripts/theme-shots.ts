/**
 * Screenshots of the pages in every theme at the three review sizes (desktop, portrait and landscape
 * phone): the play page, the home page and the stats page, plus the portrait board zoomed in. Starts the
 * app on a free local port with a throwaway database.
 *
 * Run: npx tsx scripts/theme-shots.ts [OUT_DIR]   (default screenshots/themes)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';

const OUT = resolve(process.argv[2] ?? 'screenshots/themes');
const THEMES = ['light', 'dark', 'contrast'];
const PAGES = [
  { name: 'play', path: '/play/turtle/shots' },
  { name: 'home', path: '/' },
  { name: 'stats', path: '/stats' },
];

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  for (const theme of THEMES) {
    for (const size of REVIEW_SIZES) {
      const context = await reviewContext(browser, size);
      await context.addCookies([{ name: 'theme', value: theme, url: app.url }]);
      const page = await context.newPage();
      for (const { name, path } of PAGES) {
        await page.goto(app.url + path);
        if (name === 'play') {
          await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
          // one tile selected and a hint shown, so the rims are in the picture
          await page.locator('#board .tile[data-free]').first().click();
        }
        await page.screenshot({ path: join(OUT, `${theme}-${size.name}-${name}.png`) });
      }
      if (size.name === 'portrait') {
        await page.goto(app.url + '/play/turtle/shots');
        await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
        const zoomIn = page.locator('[data-action="zoom-in"]');
        if (await zoomIn.count()) {
          await zoomIn.click();
          await page.locator('#board .tile[data-free]').nth(2).click();
          await page.screenshot({ path: join(OUT, `${theme}-portrait-zoomed.png`) });
        }
      }
      await context.close();
    }
  }
  console.log(`wrote screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
