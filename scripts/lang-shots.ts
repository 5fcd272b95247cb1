/**
 * Screenshots of the play, home and stats pages in chosen languages at the three review sizes, for looking
 * at right-to-left and CJK pages (docs/i18n.md, "Right to left, CJK and the board"). The stats page has a
 * won game and an open one. Starts the app on a free local port with a throwaway database.
 *
 * Run: npx tsx scripts/lang-shots.ts [OUT_DIR] [LANGS] [SIZES] [PAGES]
 *   defaults: screenshots/languages  ar,he,ja,de  desktop,portrait,landscape  play,home,stats
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Page } from 'playwright-core';
import { launch, REVIEW_SIZES, reviewContext, startApp } from '../test/client/browser.ts';
import { LANGS, type Lang } from '../src/shared/i18n.ts';

const list = (arg: string | undefined, fallback: string): string[] => (arg || fallback).split(',').filter(Boolean);
const OUT = resolve(process.argv[2] || 'screenshots/languages');
const langs = list(process.argv[3], 'ar,he,ja,de');
const sizes = REVIEW_SIZES.filter((s) => list(process.argv[4], 'desktop,portrait,landscape').includes(s.name));
const pages = list(process.argv[5], 'play,home,stats');
for (const lang of langs)
  if (!(LANGS as readonly string[]).includes(lang)) {
    console.error(`lang-shots: ${lang} is not one of ${LANGS.join(' ')}`);
    process.exit(2);
  }
const PATHS: Record<string, string> = { play: '/play/turtle/shots', home: '/', stats: '/stats' };
for (const name of pages)
  if (!PATHS[name]) {
    console.error(`lang-shots: no page called ${name} (play, home, stats)`);
    process.exit(2);
  }

/** Plays the first `pairs` pairs of a deal's solution (all of them without `pairs`) through the API, as the page's player. */
async function play(page: Page, base: string, layout: string, seed: string, pairs?: number): Promise<void> {
  const game = (await (await page.request.post(`${base}/api/games`, { data: { layout, seed } })).json()) as {
    id: string;
    solution: [number, number][];
  };
  const moves = game.solution.slice(0, pairs).map(([a, b]) => ({ type: 'match', a, b }));
  await page.request.post(`${base}/api/games/${game.id}/moves`, { data: { moves } });
}

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
try {
  for (const size of sizes) {
    const context = await reviewContext(browser, size);
    const page = await context.newPage();
    // a game played to a win and another left open, so the stats page has its tables and chart
    await page.goto(`${app.url}/stats`);
    await play(page, app.url, 'pyramid', 'shots-won');
    await play(page, app.url, 'turtle', 'shots-open', 10);
    for (const lang of langs as Lang[]) {
      await context.addCookies([{ name: 'lang', value: lang, url: app.url }]);
      for (const name of pages) {
        await page.goto(app.url + PATHS[name]!);
        if (name === 'play') {
          await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
          await page.locator('#board .tile[data-free]').first().click(); // a selected tile, so the rims show
        }
        await page.screenshot({ path: join(OUT, `${lang}-${size.name}-${name}.png`) });
        if (name === 'play' && (await page.isVisible('.menu-toggle'))) {
          await page.click('.menu-toggle'); // a phone: the menu too, with the rest of the controls
          await page.locator('#game-menu').waitFor({ state: 'visible' });
          await page.screenshot({ path: join(OUT, `${lang}-${size.name}-${name}-menu.png`) });
          await page.keyboard.press('Escape');
        }
      }
    }
    await context.close();
  }
  console.log(`wrote screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
