/**
 * Every width from 320 to 1920 px, in every language (docs/client.md, "Every width"): the replay page and the
 * stats page (with a history to list) at eight sizes, from a small phone to a large desktop, in English,
 * German, Japanese and Arabic. Nothing runs past the window's width; the replay's transport controls are 44 CSS
 * px or more both ways, inside the window, never overlapping and never cutting their words; right to left the
 * steps and their signs mirror.
 */
import { describe, expect, test } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { appAndBrowser, HAS_CHROMIUM, playByScript, WIDTH_SIZES } from './browser.ts';

const SIZES = WIDTH_SIZES;
const LANGS = ['en', 'de', 'ja', 'ar'] as const;

interface Box {
  readonly name: string;
  readonly left: number;
  readonly right: number;
  readonly top: number;
  readonly bottom: number;
  readonly cut: boolean; // its content is wider or taller than its box
}

/** The page's width against the window's, and the replay's transport controls as shown. */
const measure = (page: Page) =>
  page.evaluate(() => {
    const controls = [...document.querySelectorAll<HTMLElement>('.replay-controls > *')]
      .filter((el) => el.getClientRects().length > 0)
      .map((el): Box => {
        const r = el.getBoundingClientRect();
        const name = `${el.dataset.step ?? el.dataset.action ?? el.className} "${el.textContent?.trim()}"`;
        const cut = el.scrollWidth > el.clientWidth + 0.5 || el.scrollHeight > el.clientHeight + 0.5;
        return { name, left: r.left, right: r.right, top: r.top, bottom: r.bottom, cut };
      });
    return { scrollWidth: document.documentElement.scrollWidth, innerWidth, controls };
  });

/** The next two frames: what the page's script does on a resize (bar.ts) is drawn. */
const frames = (page: Page) =>
  page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(() => done(null)))));

const overlaps = (a: Box, b: Box): boolean =>
  Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
  Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

/** A player with three won games, an unfinished one and a replay of the first win; returns their cookies and the replay's path. */
async function player(browser: Browser, base: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/`);
  for (let i = 0; i < 4; i++) await playByScript(page, 'garden', `widths-${i}`, i === 3 ? 2 : undefined);
  const replay = await page.evaluate(async () => {
    const stats = (await (await fetch('/api/stats')).json()) as { history: { id: string; result: string | null }[] };
    const won = stats.history.find((h) => h.result === 'won')!;
    const res = await fetch(`/api/games/${won.id}/replay`, { method: 'POST' });
    return ((await res.json()) as { url: string }).url;
  });
  const cookies = await context.cookies();
  await context.close();
  return { cookies, replay };
}

(HAS_CHROMIUM ? describe : describe.skip)('every width, in four languages', () => {
  const env = appAndBrowser();

  test('the replay and stats pages at eight sizes: no sideways scroll, transport controls 44 px and apart', async () => {
    const { cookies, replay } = await player(env.browser, env.app.url);
    const failures: string[] = [];
    // A context for the phones (touch, mobile viewport) and one for the desktops; in each, every page is loaded
    // once, at the group's first size, and looked at in its other sizes by resizing the window, as a turned phone
    // or a dragged window does (the stylesheet's media queries and bar.ts lay it out again): what is measured is
    // layout only, so a load per size would prove nothing more.
    for (const phone of [true, false]) {
      const sizes = SIZES.filter((size) => size.width < 900 === phone);
      const context = await env.browser.newContext({ viewport: sizes[0]!, hasTouch: phone, isMobile: phone });
      await context.addCookies(cookies);
      const page = await context.newPage();
      for (const lang of LANGS) {
        await context.addCookies([{ name: 'lang', value: lang, url: env.app.url }]);

        await page.setViewportSize(sizes[0]!);
        await page.goto(`${env.app.url}${replay}?move=2`);
        await page.locator('button[data-action="play"]').waitFor({ state: 'visible' }); // the script is running
        await page.evaluate(() => document.fonts.ready);
        for (const size of sizes) {
          const where = `${lang} ${size.width}×${size.height}`;
          await page.setViewportSize(size);
          await frames(page);
          const m = await measure(page);
          if (m.scrollWidth > m.innerWidth) failures.push(`${where} replay: ${m.scrollWidth} px wide`);
          if (m.controls.length < 5) failures.push(`${where} replay: ${m.controls.length} controls shown`);
          for (const c of m.controls) {
            const [w, h] = [c.right - c.left, c.bottom - c.top];
            if (w < 44 || h < 44) failures.push(`${where} ${c.name}: ${w.toFixed(1)}×${h.toFixed(1)}`);
            if (c.left < 0 || c.right > m.innerWidth) failures.push(`${where} ${c.name}: out of the window`);
            if (c.cut) failures.push(`${where} ${c.name}: its words are cut`);
          }
          for (const [i, a] of m.controls.entries())
            for (const b of m.controls.slice(i + 1))
              if (overlaps(a, b)) failures.push(`${where} ${a.name} on ${b.name}`);
          if (lang === 'ar') {
            const back = (await page.locator('a[data-step="prev"]').boundingBox())!;
            const on = (await page.locator('a[data-step="next"]').boundingBox())!;
            if (back.x <= on.x) failures.push(`${where}: Back is not on the right of Next`);
            const sign = await page.$eval('a[data-step="next"] .icon', (el) => getComputedStyle(el).transform);
            if (!sign.startsWith('matrix(-1')) failures.push(`${where}: Next's sign is not mirrored (${sign})`);
          }
        }

        await page.setViewportSize(sizes[0]!);
        await page.goto(`${env.app.url}/stats`);
        await page.evaluate(() => document.fonts.ready);
        for (const size of sizes) {
          const where = `${lang} ${size.width}×${size.height}`;
          await page.setViewportSize(size);
          await frames(page);
          const s = await page.evaluate(() => ({
            scrollWidth: document.documentElement.scrollWidth,
            rows: document.querySelectorAll('.history tbody tr').length,
            out: [...document.querySelectorAll('.history td, .history .replay-form button')]
              .map((el) => [el.getBoundingClientRect(), el.textContent!.trim()] as const)
              .filter(([r]) => r.left < 0 || r.right > innerWidth)
              .map(([, text]) => text),
          }));
          if (s.scrollWidth > size.width) failures.push(`${where} stats: ${s.scrollWidth} px wide`);
          if (s.rows !== 4) failures.push(`${where} stats: ${s.rows} history rows`);
          if (s.out.length > 0) failures.push(`${where} stats: out of the window: ${s.out.join(' | ')}`);
        }
      }
      await context.close();
    }
    expect(failures).toEqual([]);
  }, 240_000); // 16 pages, 64 layouts, on a busy machine
});
