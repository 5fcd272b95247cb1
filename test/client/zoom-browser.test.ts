/**
 * Zoom and pan on phones (docs/contracts.md, "Phones"), in Chromium with touch: portrait phones fit the
 * turtle at about 24 px tiles; zoom in (the button, a pinch, a double tap) gives tiles of 40 px or
 * more that can be tapped and matched, a hint pans its pair into view, and Fit is one tap back.
 * Landscape and desktop open fitted.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { appAndBrowser, HAS_CHROMIUM, pageData, tile } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

const PHONES = [
  { width: 390, height: 844 },
  { width: 360, height: 640 },
] as const;

/** The width of a tile on screen, in CSS px. */
const tileWidth = (page: Page): Promise<number> =>
  page
    .locator('#board .tile:not([hidden])')
    .first()
    .evaluate((el) => el.getBoundingClientRect().width);

/** Is the tile of `slot` wholly inside the board's view and the viewport? */
const inView = (page: Page, slot: number): Promise<boolean> =>
  page.evaluate((slot) => {
    const el = document.querySelector(`#board .tile[data-slot="${slot}"]`)!.getBoundingClientRect();
    const view = document.querySelector('.board-scroll')!.getBoundingClientRect();
    const inside = (r: DOMRect, o: { left: number; top: number; right: number; bottom: number }) =>
      r.left >= o.left - 1 && r.right <= o.right + 1 && r.top >= o.top - 1 && r.bottom <= o.bottom + 1;
    return inside(el, view) && inside(el, { left: 0, top: 0, right: innerWidth, bottom: innerHeight });
  }, slot);

const zoomed = (page: Page): Promise<boolean> =>
  page
    .locator('.board-scroll[data-zoomed]')
    .count()
    .then((n) => n === 1);

suite('zoom and pan in Chromium', { timeout: 90_000 }, () => {
  const env = appAndBrowser();
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  async function open(seed: string, viewport: { width: number; height: number }, touch = true): Promise<Page> {
    context = await env.browser.newContext({ viewport, hasTouch: touch, isMobile: touch });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.app.url}/play/turtle/${seed}`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    (page as Page & { errors: string[] }).errors = errors;
    return page;
  }

  test.each(PHONES)(
    '$width×$height: zoom in to 40 px tiles or more, match while zoomed, hint into view, fit',
    async (size) => {
      const page = await open(`zoom-${size.width}`, size);
      const fitted = await tileWidth(page);
      expect(fitted).toBeLessThan(40); // the turtle is small on a portrait phone: why zoom exists
      expect(await zoomed(page)).toBe(false);
      expect(await page.getAttribute('[data-action="zoom-fit"]', 'aria-disabled')).toBe('true');

      await page.tap('[data-action="zoom-in"]');
      expect(await tileWidth(page)).toBeGreaterThanOrEqual(40);
      expect(await zoomed(page)).toBe(true);
      const view = await page.$eval('.board-scroll', (el) => ({
        sw: el.scrollWidth,
        cw: el.clientWidth,
        sh: el.scrollHeight,
        ch: el.clientHeight,
      }));
      expect(view.sw).toBeGreaterThan(view.cw); // the board is wider than its view: it pans

      // a pair tapped and matched while zoomed (playwright pans each tile into view first, as a finger would)
      const { deal } = await pageData(page);
      const [a, b] = deal.solution[0]!;
      await tile(page, a).tap();
      await tile(page, b).tap();
      await expect.poll(() => page.textContent('[data-counter="left"]')).toBe('142');
      expect(await tileWidth(page)).toBeGreaterThanOrEqual(40);

      // panned to the far corner, a hint brings its pair into view
      for (const corner of [
        { x: 1e6, y: 1e6 },
        { x: 0, y: 0 },
      ]) {
        await page.$eval('.board-scroll', (el, c) => el.scrollTo(c.x, c.y), corner);
        await page.evaluate(() => window.scrollTo(0, 0));
        await page.tap('[data-action="hint"]');
        await expect.poll(() => page.locator('#board .tile[data-hint]').count()).toBe(2);
        const hinted = await page.evaluate(() => Number(document.activeElement?.getAttribute('data-slot')));
        expect(await page.locator(`#board .tile[data-slot="${hinted}"][data-hint]`).count()).toBe(1);
        expect(await inView(page, hinted)).toBe(true);
        await page.keyboard.press('Escape');
      }

      // Fit is one tap: the whole board again, nothing to pan
      await page.tap('[data-action="zoom-fit"]');
      expect(Math.abs((await tileWidth(page)) - fitted)).toBeLessThan(0.5);
      expect(await zoomed(page)).toBe(false);
      expect(await page.$eval('.board-scroll', (el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
    },
  );

  test('pinch zooms around the fingers; a double tap zooms in and back to fit', async () => {
    const page = await open('zoom-pinch', PHONES[0]);
    const fitted = await tileWidth(page);
    // the fingers spread around the middle of a tile near the middle of the board
    const { deal } = await pageData(page);
    const middleSlot = deal.tiles.findIndex((t) => t.z === 0 && t.x >= 14 && t.y >= 6);
    const box = (await tile(page, middleSlot).boundingBox())!;
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    const under = () =>
      page.evaluate(
        ([x, y]) => document.elementFromPoint(x!, y!)?.closest('.tile')?.getAttribute('data-slot'),
        [cx, cy],
      );
    const ref = await under(); // the tile seen there (one higher up may cover the middle one)
    expect(ref).toMatch(/^\d+$/);
    const cdp = await context!.newCDPSession(page);
    const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', spread: number) =>
      cdp.send('Input.dispatchTouchEvent', {
        type,
        touchPoints:
          type === 'touchEnd'
            ? []
            : [
                { x: cx - spread / 2, y: cy, id: 1 },
                { x: cx + spread / 2, y: cy, id: 2 },
              ],
      });
    await touch('touchStart', 40);
    for (const spread of [70, 110, 160]) await touch('touchMove', spread);
    await touch('touchEnd', 160);
    await expect.poll(() => tileWidth(page)).toBeGreaterThan(fitted * 3); // the fingers spread four times apart
    expect(await zoomed(page)).toBe(true);
    expect(await under()).toBe(ref); // the board grew around the fingers
    // pinching in again comes back to the fitted board, not smaller
    await touch('touchStart', 200);
    for (const spread of [120, 60, 20]) await touch('touchMove', spread);
    await touch('touchEnd', 20);
    await expect.poll(() => zoomed(page)).toBe(false);
    expect(Math.abs((await tileWidth(page)) - fitted)).toBeLessThan(0.5);

    // a double tap on the board: zoomed to a comfortable size, and again: fitted. The two taps are
    // touch events made in the page: taps sent from here arrive as far apart as the machine's load
    // makes them, and a double tap is two taps within 350 ms.
    const doubleTap = () =>
      page.$eval('.board-scroll', (view) => {
        const r = view.getBoundingClientRect();
        const at = { clientX: r.left + 4, clientY: r.top + 4 }; // a corner of the view, off the tiles
        for (let i = 0; i < 2; i++) {
          const t = new Touch({ identifier: i, target: view, ...at });
          view.dispatchEvent(new TouchEvent('touchstart', { touches: [t], changedTouches: [t], bubbles: true }));
          view.dispatchEvent(new TouchEvent('touchend', { touches: [], changedTouches: [t], bubbles: true }));
        }
      });
    await doubleTap();
    expect(await tileWidth(page)).toBeGreaterThanOrEqual(40);
    await doubleTap();
    expect(await zoomed(page)).toBe(false);
  }, 90_000);

  test('keyboard: + zooms, arrows pan to the focused tile, 0 fits', async () => {
    const page = await open('zoom-keys', PHONES[0], false);
    await page.keyboard.press('+');
    expect(await tileWidth(page)).toBeGreaterThanOrEqual(40);
    for (let i = 0; i < 12; i++) {
      await page.keyboard.press(i < 6 ? 'ArrowRight' : 'ArrowDown');
      const slot = await page.evaluate(() => Number(document.activeElement?.getAttribute('data-slot')));
      expect(await inView(page, slot), `after ${i + 1} arrows`).toBe(true);
    }
    await page.keyboard.press('0');
    expect(await zoomed(page)).toBe(false);
  });

  test.each([
    { width: 844, height: 390 },
    { width: 1440, height: 900 },
  ])('$width×$height opens fitted, with the whole board on screen', async (size) => {
    const page = await open('zoom-wide', size, size.width < 1000);
    expect(await zoomed(page)).toBe(false);
    const fits = await page.$eval('#board', (el) => {
      const r = el.getBoundingClientRect();
      return r.right <= innerWidth + 1 && r.bottom <= innerHeight + 1;
    });
    expect(fits).toBe(true);
  });
});
