/**
 * Every width, the details (docs/client.md, "Layout of the play page", "The layout editor"), in Chromium:
 * - the win panel on a landscape phone (844×390) stays beside the status line (#message), and where it scrolls
 *   it says so: a cue at the edge where more is (data-more, a shade and an arrow), gone at the end;
 * - the play page's head on a portrait phone (390×844) keeps off the screen's top edge, also when the title wraps;
 * - the layout editor on a 390 px phone draws cells big enough to tap (at least 24 px).
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

const phone = { hasTouch: true, isMobile: true, deviceScaleFactor: 2, reducedMotion: 'reduce' } as const;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

const rectOf = (page: Page, selector: string): Promise<Rect> =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
  });

const overlaps = (a: Rect, b: Rect): boolean =>
  a.left < b.right - 0.5 && b.left < a.right - 0.5 && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;

suite('every width', { timeout: 120_000 }, () => {
  const env = appAndBrowser();

  test('844×390: the win panel leaves the status line readable and cues what scrolls', async () => {
    const context = await env.browser.newContext({ viewport: { width: 844, height: 390 }, ...phone });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/play/garden/widths-win`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    const { deal } = await pageData(page);
    await clickPairs(page, deal.solution);
    await page.locator('#win-panel [data-win="verified"]').waitFor({ state: 'visible', timeout: 30_000 });

    // Beside the status line, which says the board is cleared once (the panel says the server checked it).
    const message = await rectOf(page, '#message');
    const panel = await rectOf(page, '#win-panel');
    expect(overlaps(message, panel), JSON.stringify({ message, panel })).toBe(false);
    expect(await page.textContent('#message')).toMatch(/^Board cleared in /);
    const text = (await page.textContent('body'))!;
    expect(text.split('The server checked every move').length - 1).toBe(1);

    // Taller than the screen: it scrolls, and its bottom edge says so.
    const sizes = await page.$eval('#win-panel', (el) => ({ scroll: el.scrollHeight, client: el.clientHeight }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    await expect.poll(() => page.getAttribute('#win-panel', 'data-more')).toBe('below');
    const cue = () => page.$eval('#win-panel', (el) => getComputedStyle(el, '::after').opacity);
    await expect.poll(cue).toBe('1');
    // At the end the cue moves to the top edge.
    await page.$eval('#win-panel', (el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(() => page.getAttribute('#win-panel', 'data-more')).toBe('above');
    await expect.poll(cue).toBe('0');
    expect(await page.$eval('#win-panel', (el) => getComputedStyle(el, '::before').opacity)).toBe('1');
    await context.close();
  });

  test('390×844: the head keeps off the top edge, also when the title wraps', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, ...phone });
    const page = await context.newPage();
    // A long seed and the classic badge: the title takes two lines.
    await page.goto(`${env.app.url}/play/turtle/a-long-seed-for-two-lines?mode=classic`);
    const padding = await page.$eval('body', (el) => parseFloat(getComputedStyle(el).paddingTop));
    expect(padding).toBeGreaterThanOrEqual(0);
    const title = await page.$eval('.play-title', (el) => {
      const r = el.getBoundingClientRect();
      const line = parseFloat(getComputedStyle(el).lineHeight);
      return { top: r.top, height: r.height, line, scroll: el.scrollHeight };
    });
    expect(title.height, 'the title wraps').toBeGreaterThan(1.5 * title.line);
    expect(title.top, 'the title keeps off the top edge').toBeGreaterThanOrEqual(2);
    const head = await rectOf(page, '.play-title');
    const counters = await rectOf(page, '.counters');
    expect(head.bottom).toBeLessThanOrEqual(counters.top + 0.5); // and off the counters below it
    expect(await page.$eval('meta[name=viewport]', (el) => el.getAttribute('content'))).toContain('viewport-fit=cover');
    await context.close();
  });

  test('390×844: the layout editor draws cells of at least 24 px, and the view scrolls to the rest', async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, ...phone });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/layouts/editor?from=turtle`);
    await page.waitForSelector('#editor[data-live]');
    const cell = await page.$eval('#editor-grid button[data-cell]', (el) => {
      const r = el.getBoundingClientRect();
      return { width: r.width, height: r.height };
    });
    expect(cell.width).toBeGreaterThanOrEqual(24);
    expect(cell.height).toBeGreaterThanOrEqual(24);
    const view = await page.$eval('#editor-view', (el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(view.scroll).toBeGreaterThan(view.client);
    // The words fit both kinds of pointer.
    expect(await page.textContent('.editor-head .lede')).toMatch(/^Tap or click a cell/);
    await context.close();
  });
});
