/**
 * Screenshots of the board for review (not compared): a turtle deal at 1440×900, 390×844 and 844×390 with six
 * pairs played, then with one tile selected and a hint showing, so every tile state is in the picture; the two
 * phone sizes again at two device pixels per CSS pixel (how the small tiles really look). Starts the app on a
 * free local port with a throwaway database.
 *
 * Run: npx tsx scripts/board-shots.ts [OUT_DIR]   (default screenshots)
 *      LAYOUT=spire npx tsx scripts/board-shots.ts   (another built-in layout: a portrait one shows the phone's big tiles)
 */
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launch, pageData, REVIEW_SIZES, startApp, tile } from '../test/client/browser.ts';

const OUT = resolve(process.argv[2] ?? 'screenshots');
const SIZES = REVIEW_SIZES.map(({ width, height }) => ({ width, height }));
const LAYOUT = process.env.LAYOUT ?? 'turtle';

mkdirSync(OUT, { recursive: true });
const [app, browser] = await Promise.all([startApp(), launch()]);
const live = () => document.getElementById('board')?.classList.contains('live');
try {
  for (const size of SIZES) {
    const context = await browser.newContext({ viewport: size });
    const page = await context.newPage();
    await page.goto(`${app.url}/play/${LAYOUT}/screens-${size.width}`);
    await page.waitForFunction(live);
    const { deal } = await pageData(page);
    for (const [a, b] of deal.solution.slice(0, 6)) {
      await tile(page, a).click();
      await tile(page, b).click();
    }
    await page.waitForTimeout(400); // the last pair's leaving animation
    await page.screenshot({ path: join(OUT, `${LAYOUT}-${size.width}x${size.height}.png`) });
    await page.click('[data-action="hint"]');
    await page.waitForFunction(() => document.querySelectorAll('#board .tile[data-hint]').length === 2);
    await page.locator('#board .tile[data-free]:not([data-hint])').first().click();
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, `${LAYOUT}-${size.width}x${size.height}-selected-hint.png`) });
    await context.close();
  }
  for (const size of SIZES.slice(1)) {
    const context = await browser.newContext({ viewport: size, deviceScaleFactor: 2 });
    const page = await context.newPage();
    await page.goto(`${app.url}/play/${LAYOUT}/screens-${size.width}`);
    await page.waitForFunction(live);
    await page.waitForTimeout(300);
    await page.screenshot({ path: join(OUT, `${LAYOUT}-${size.width}x${size.height}@2x.png`) });
    await context.close();
  }
  console.log(`wrote screenshots to ${OUT}`);
} finally {
  await browser.close();
  await app.close();
}
