/**
 * Screenshots of the tile sets, for review (the brief's sizes: 1440×900 desktop, 390×844 and 844×390 phones):
 *
 * - the home (its top, and its foot with the language picker), play (the turtle, one tile selected) and stats
 *   pages in every set, at the desktop and portrait sizes, in English, and in Arabic (right to left) and
 *   Japanese with one set each: `<page>-<set>-<lang>-<size>`;
 * - the play page's menu open (the theme, tiles and language pickers together) at the portrait size;
 * - the play page in every set and theme at the three sizes (`play-<set>-<theme>-<size>`), the portrait board
 *   zoomed in once, and each set's faces preview page (/tiles/<id>) at the desktop and portrait sizes.
 *
 * Starts the app on a free local port with a throwaway database.
 * Run: npx tsx scripts/tiles-shots.ts [OUT_DIR] [--pages]   (default screenshots/tiles; --pages: only the first two)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { TILE_SETS, type TileSet } from '../src/shared/tilesets.ts';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';

const args = process.argv.slice(2);
const OUT = resolve(args.find((a) => !a.startsWith('--')) ?? 'screenshots/tiles');
const PAGES_ONLY = args.includes('--pages');
const THEMES = ['light', 'dark', 'contrast'];
const [DESKTOP, PORTRAIT] = [REVIEW_SIZES[0], REVIEW_SIZES[1]];
/** English with every set; Arabic and Japanese with one set each. */
const LOOKS: [TileSet, string][] = [
  ...TILE_SETS.map((set): [TileSet, string] => [set, 'en']),
  ['traditional', 'ar'],
  ['large', 'ja'],
];

async function open(
  browser: Browser,
  url: string,
  size: (typeof REVIEW_SIZES)[number],
  cookies: Record<string, string>,
) {
  const context = await reviewContext(browser, size);
  await context.addCookies(Object.entries(cookies).map(([name, value]) => ({ name, value, url })));
  return { context, page: await context.newPage() };
}

async function playReady(page: Page): Promise<void> {
  await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
  await page.locator('#board .tile[data-free]').first().click();
  await page.waitForTimeout(150); // the sheet's first paint
}

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  for (const [set, lang] of LOOKS) {
    for (const size of [DESKTOP, PORTRAIT]) {
      const { context, page } = await open(browser, app.url, size, { tiles: set, lang, theme: 'light' });
      const name = (what: string) => join(OUT, `${what}-${set}-${lang}-${size.name}.png`);
      await page.goto(`${app.url}/`);
      await page.screenshot({ path: name('home') });
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight)); // the footer's language picker
      await page.screenshot({ path: name('home-foot') });
      await page.goto(`${app.url}/play/turtle/shots`);
      await playReady(page);
      await page.screenshot({ path: name('play') });
      if (size === PORTRAIT) {
        await page.locator('.menu-toggle').click();
        await page.waitForTimeout(150);
        await page.screenshot({ path: name('play-menu') });
      }
      await page.goto(`${app.url}/stats`);
      await page.screenshot({ path: name('stats') });
      await context.close();
    }
  }
  if (!PAGES_ONLY)
    for (const set of TILE_SETS) {
      for (const theme of THEMES) {
        for (const size of REVIEW_SIZES) {
          const { context, page } = await open(browser, app.url, size, { tiles: set, theme });
          await page.goto(`${app.url}/play/turtle/shots`);
          await playReady(page);
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
          await context.close();
        }
      }
    }
  console.log(`wrote screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
