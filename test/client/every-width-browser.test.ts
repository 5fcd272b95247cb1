/**
 * Every width from 320 to 1920 px, in every language (docs/contracts.md, "Phones"): no page of the site scrolls
 * sideways. Every page the audit visits (test/client/audit.ts: home, play in both modes and resumed, a portrait
 * layout, daily, stats with a history, upload, a custom layout, the editor, transfer, offline, a replay, a race, a challenge, the tile
 * sets, a 404) at seven sizes in English, and at the narrowest phone in all 20 languages (one page of each template) (long German words,
 * right-to-left Arabic and Hebrew, CJK without spaces). A failure names the elements that stick out.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { LANGS } from '../../src/shared/i18n.ts';
import { auditPages } from './audit.ts';
import { appAndBrowser, HAS_CHROMIUM, WIDTH_SIZES } from './browser.ts';

const SIZES = WIDTH_SIZES.filter((size) => size.width !== 1440); // seven sizes: 1440 lies between 1280 and 1920

/** The next two frames: what the page's script does on a resize (the board's fit, bar.ts) is laid out. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));

/** What sticks out of the page's width: nothing, or the outermost elements that do, with their right edge. */
const overflow = (page: Page): Promise<string[]> =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    const out: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || (r.right <= width + 0.5 && r.left >= -0.5)) continue;
      // Inside a box that scrolls or clips on its own (the board's window): not the page's overflow.
      let clipped = false;
      for (let p = el.parentElement; p && p !== document.body; p = p.parentElement) {
        const o = getComputedStyle(p).overflowX;
        if (o !== 'visible') {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      if (out.length < 5)
        out.push(
          `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}.${[...el.classList].join('.')} ${r.left.toFixed(0)}–${r.right.toFixed(0)}`,
        );
    }
    return out.length ? out : [`scrollWidth ${document.documentElement.scrollWidth} > ${width}`];
  });

(HAS_CHROMIUM ? describe : describe.skip)('no page scrolls sideways', { timeout: 300_000 }, () => {
  const env = appAndBrowser();

  /**
   * Each page loaded once, at the first size (the narrowest: every page's fresh load at 320 px is checked), then
   * looked at in every other size by resizing the window, as a turned phone or a dragged window does: the
   * stylesheet's media queries and the page's resize handlers (the board's fit, the bar's collapse) lay it out
   * again. The check is of layout only, so a reload per size would prove nothing more and cost a page load each.
   */
  async function visit(
    page: Page,
    pages: { name: string; path: string }[],
    sizes: readonly { width: number; height: number }[],
    where: string,
  ) {
    const found: string[] = [];
    for (const p of pages) {
      await page.setViewportSize(sizes[0]!);
      await page.goto(`${env.app.url}${p.path}`); // waits for the load event: stylesheets and fonts are in
      for (const [i, size] of sizes.entries()) {
        if (i > 0) {
          await page.setViewportSize(size);
          await frames(page);
        }
        for (const what of await overflow(page))
          found.push(`${where} ${p.name} at ${size.width}×${size.height}: ${what}`);
      }
    }
    return found;
  }

  /**
   * A context for layout alone: the service worker, which lays nothing out, is not installed (each context would
   * otherwise fetch and cache every asset once, and answer its navigations through the worker).
   */
  const layoutContext = () => env.browser.newContext({ reducedMotion: 'reduce', serviceWorkers: 'block' });

  test('every page at every size from 320 to 1920, in English', async () => {
    const { cookie, pages } = await auditPages(env.app.url);
    pages.push({ name: 'portrait layout', path: '/play/vase/every-width' });
    const context = await layoutContext();
    await context.addCookies([{ ...cookie, url: env.app.url }]);
    expect(await visit(await context.newPage(), pages, SIZES, 'en')).toEqual([]);
    await context.close();
  });

  test('every page at 320 px in all 20 languages', async () => {
    const { cookie, pages: all } = await auditPages(env.app.url);
    // One page of each template: the other variants (classic, resumed, a past daily, a second tile set) hold the
    // same words, and English at every size has them all.
    const pages = all.filter((p) => !['play classic', 'play resumed', 'past daily', 'tiles large'].includes(p.name));
    expect(pages.length).toBe(all.length - 4);
    const context = await layoutContext();
    await context.addCookies([{ ...cookie, url: env.app.url }]);
    const page = await context.newPage(); // one tab for every language: the cookie picks each page's
    const found: string[] = [];
    for (const lang of LANGS) {
      if (lang === 'en') continue;
      await context.addCookies([{ name: 'lang', value: lang, url: env.app.url }]);
      found.push(...(await visit(page, pages, [SIZES[0]!], lang)));
    }
    expect(found).toEqual([]);
    await context.close();
  });
});
