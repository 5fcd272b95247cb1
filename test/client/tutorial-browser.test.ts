/**
 * The first game's lesson (#tutorial; docs/client.md, "The first game's lesson") in Chromium: a first visit
 * opens it; its six steps advance by real touch taps at a phone's size (Input.dispatchTouchEvent) and by the
 * keyboard at a desktop's; skipping or finishing keeps it shut across reloads; a returning player never meets
 * it; How to play opens it again; axe-core finds nothing on it. Screenshots of each size go to /tmp.
 */
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, test } from 'vitest';
import { axeViolations } from './audit.ts';
import { HAS_CHROMIUM, launch, REVIEW_SIZES, reviewContext, startApp, type Running } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;
const PLAY = '/play/turtle/lesson-1';

/** A finger's tap on an element: at its middle, or `down` of its height from its top (a tile half covered). */
async function tapAt(cdp: CDPSession, page: Page, selector: string, down = 0.5): Promise<void> {
  const box = await page.locator(selector).boundingBox();
  if (!box) throw new Error(`${selector} is not shown`);
  const at = { x: box.x + box.width / 2, y: box.y + box.height * down };
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...at, id: 1 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

const step = (page: Page): Promise<string | null> => page.locator('#tutorial').getAttribute('data-step');
const say = (page: Page): Promise<string> => page.locator('#tutorial .tutorial-say').innerText();
const lessonTile = (n: number): string => `#tutorial [data-lesson="${n}"]`;

suite('the first game lesson', { timeout: 120_000 }, () => {
  let app: Running;
  let browser: Browser;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    [app, browser] = await Promise.all([startApp({ tutorial: true }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
  });
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  test('a first visit on a phone: the six steps by touch, then never again', async () => {
    context = await reviewContext(browser, REVIEW_SIZES[1]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(app.url + PLAY);
    await page.locator('#tutorial[open][data-live]').waitFor();
    expect(await step(page)).toBe('free');
    await page.screenshot({ path: '/tmp/tutorial-portrait.png' });
    // A blocked tile wobbles and says why; the lesson waits.
    await tapAt(cdp, page, lessonTile(1), 0.12); // the strip the top tile leaves in view
    await expect.poll(() => say(page)).toMatch(/another tile lies on top/);
    await tapAt(cdp, page, lessonTile(5));
    await expect.poll(() => say(page)).toMatch(/both its left and its right/);
    expect(await step(page)).toBe('free');
    await tapAt(cdp, page, lessonTile(0));
    await expect.poll(() => step(page)).toBe('match');
    await tapAt(cdp, page, lessonTile(6));
    await tapAt(cdp, page, lessonTile(7));
    await expect.poll(() => step(page)).toBe('flowers');
    await tapAt(cdp, page, lessonTile(2));
    await tapAt(cdp, page, lessonTile(5));
    await expect.poll(() => step(page)).toBe('hint');
    await tapAt(cdp, page, '#tutorial [data-tut="hint"]');
    await expect.poll(() => page.locator('#tutorial .tile[data-hint]').count()).toBe(2);
    const hinted = await page.$$eval('#tutorial .tile[data-hint]', (els) => els.map((el) => el.dataset.lesson!));
    for (const n of hinted) await tapAt(cdp, page, lessonTile(Number(n)));
    await expect.poll(() => step(page)).toBe('undo');
    await tapAt(cdp, page, '#tutorial [data-tut="undo"]');
    await tapAt(cdp, page, '#tutorial [data-tut="shuffle"]');
    await expect.poll(() => step(page)).toBe('check');
    await tapAt(cdp, page, '#tutorial [data-tut="check"]');
    await expect.poll(() => step(page)).toBe('done');
    expect(await say(page)).toMatch(/Yes: this position can still be cleared/);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: '/tmp/tutorial-portrait-done.png' });
    await tapAt(cdp, page, '#tutorial [data-tut="finish"]');
    await expect.poll(() => page.locator('#tutorial').count()).toBe(0);
    // The game's board was never touched by the lesson's taps.
    expect(await page.locator('#board .tile.selected').count()).toBe(0);
    await page.reload();
    await page.locator('#board').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('#tutorial').count()).toBe(0);
    expect(await page.$eval('#tutorial-template', (el) => el.hasAttribute('data-first'))).toBe(false);
  });

  test('on a desktop by keyboard; skipped with Escape it stays shut; How to play opens it again', async () => {
    context = await reviewContext(browser, REVIEW_SIZES[0]);
    const page = await context.newPage();
    await page.goto(app.url + PLAY);
    await page.locator('#tutorial[open][data-live]').waitFor();
    await page.screenshot({ path: '/tmp/tutorial-desktop.png' });
    expect(await axeViolations(page)).toEqual([]);
    // Focus starts on a free tile; Enter takes it.
    expect(await page.evaluate(() => document.activeElement?.closest('#tutorial') !== null)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => step(page)).toBe('match');
    // The game's keys do not act behind the lesson: H would hint on the board.
    await page.keyboard.press('h');
    expect(await page.locator('#board .tile[data-hint]').count()).toBe(0);
    // Modal: Tab and Shift+Tab go round the lesson's own controls, twenty presses never reach the page.
    for (const key of ['Tab', 'Shift+Tab'])
      for (let i = 0; i < 20; i++) {
        await page.keyboard.press(key);
        expect(await page.evaluate(() => document.activeElement?.closest('#tutorial') !== null)).toBe(true);
      }
    // A click beside the dialog lands on its backdrop: the board behind takes nothing.
    const hit = await page.evaluate(() => {
      const r = document.getElementById('tutorial')!.getBoundingClientRect();
      return document.elementFromPoint(Math.max(2, r.left / 2), r.top + r.height / 2)?.className;
    });
    expect(hit).toBe('tutorial-backdrop');
    await page.mouse.click(5, 450);
    expect(await page.locator('#board .tile.selected').count()).toBe(0);
    expect(await page.locator('#tutorial[open]').count()).toBe(1);
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('#tutorial').count()).toBe(0);
    await page.reload();
    await page.locator('#board').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('#tutorial').count()).toBe(0);
    // How to play (in the column on a desktop) brings it back, and the skip button closes it.
    await page.locator('[data-tutorial-open]').click();
    await page.locator('#tutorial[open][data-live]').waitFor();
    expect(await step(page)).toBe('free');
    await page.locator('[data-action="tutorial-skip"]').click();
    await expect.poll(() => page.locator('#tutorial').count()).toBe(0);
  });

  test('a landscape phone: skipped by its button, shut for good', async () => {
    context = await reviewContext(browser, REVIEW_SIZES[2]);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await page.goto(app.url + PLAY);
    await page.locator('#tutorial[open][data-live]').waitFor();
    await page.screenshot({ path: '/tmp/tutorial-landscape.png' });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    const small = await page.$$eval('#tutorial button:not([hidden])', (els) =>
      els
        .map((el) => el.getBoundingClientRect())
        .filter((r) => r.width > 0 && (r.width < 44 || r.height < 44))
        .map((r) => `${r.width}x${r.height}`),
    );
    expect(small).toEqual([]);
    await tapAt(cdp, page, '[data-action="tutorial-skip"]');
    await expect.poll(() => page.locator('#tutorial').count()).toBe(0);
    await page.goto(app.url + '/play/turtle/lesson-2');
    await page.locator('#board').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('#tutorial').count()).toBe(0);
  });

  test('a first visit is drawn with the lesson open; its script takes it over; without script it is not shown', async () => {
    // The server's page: the lesson open at its first step, over the board, before any script ran.
    const html = await (await fetch(app.url + '/play/turtle/lesson-5')).text();
    const drawn = html.slice(html.indexOf('</template>'));
    expect(drawn).toMatch(/<dialog id="tutorial"[^>]* data-step="free" open aria-modal="true"/);
    expect(drawn.match(/data-lesson="\d"/g)).toHaveLength(8);
    expect(html).toMatch(/<link rel="modulepreload" href="\/static\/build\/tutorial\.[0-9a-f]{8}\.js">/);
    context = await reviewContext(browser, REVIEW_SIZES[1]);
    const page = await context.newPage();
    await page.goto(app.url + '/play/turtle/lesson-5');
    await page.locator('#tutorial[data-live]').waitFor();
    // Taken over as drawn: one lesson, one backdrop, the same eight tiles, focus on a free one.
    expect(await page.locator('#tutorial').count()).toBe(1);
    expect(await page.locator('.tutorial-backdrop').count()).toBe(1);
    expect(await page.locator('#tutorial [data-lesson]').count()).toBe(8);
    expect(await page.evaluate(() => document.activeElement?.matches('#tutorial .tile[data-free]'))).toBe(true);
    await context.close();
    // Without script: the board, no lesson over it.
    context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 390, height: 844 } });
    const plain = await context.newPage();
    await plain.goto(app.url + '/play/turtle/lesson-6');
    expect(await plain.locator('#tutorial').isVisible()).toBe(false);
    expect(await plain.locator('.tutorial-backdrop').isVisible()).toBe(false);
    expect(await plain.locator('#board .tile[data-free]').first().isVisible()).toBe(true);
  });

  test('a returning player (a game played) never meets it unasked', async () => {
    context = await reviewContext(browser, REVIEW_SIZES[0]);
    const page = await context.newPage();
    // The player's first game reaches the server from the API, as a page would send it.
    await page.goto(app.url + '/');
    const made = await page.evaluate(() =>
      fetch('/api/games', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ layout: 'turtle', seed: 'lesson-3' }),
      }).then((r) => r.status),
    );
    expect(made).toBeLessThan(300);
    await page.goto(app.url + '/play/turtle/lesson-4');
    await page.locator('#board').waitFor();
    await page.waitForTimeout(500);
    expect(await page.locator('#tutorial').count()).toBe(0);
  });
});
