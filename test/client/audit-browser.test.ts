/**
 * axe-core on every page (docs/client.md, "Audits"): home, play in both modes and resumed, daily and a past
 * daily, stats, upload, a custom layout, the editor, a transfer link, the offline page, two tile sets' faces
 * previews and a 404, in the three themes at 1440×900 and 390×844 (the play page's menu open too), and home,
 * play and stats in Arabic, Hebrew, Japanese and German, held to WCAG 2.0–2.2 A and AA: any violation fails.
 *
 * A theme changes colours only: the server renders `data-theme` on the root and the same markup, and the theme
 * form switches that attribute (and the colour-scheme meta) in place without a reload (src/client/theme.ts). So
 * each page is audited once per size in the light theme, which runs every rule; then it is switched to dark and
 * to high contrast with its theme form, as a player does, and those run the rules that judge colours (contrast,
 * links told apart from text).
 * That the server renders each theme's attribute from the cookie is test/server/routes/theme.test.ts's.
 * Colours are judged at rest: the contexts ask for reduced motion, so a theme switch is not a fade to wait for.
 * Nodes axe cannot judge (text over gradients) are checked by hand: docs/client.md lists them.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { AXE_COLOUR_RULES, auditPages, axeViolations } from './audit.ts';
import { appAndBrowser, HAS_CHROMIUM } from './browser.ts';

const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

/** Resizes the window and waits two frames: what the page's script does on a resize is laid out. */
async function resize(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
}

/** Switches the page's theme as a player does, with the theme form's select (src/client/theme.ts applies it in place). */
async function chooseTheme(page: Page, theme: string): Promise<void> {
  const switched = await page.evaluate((name) => {
    const select = document.querySelector<HTMLSelectElement>('form.theme-form select');
    if (!select) return false;
    select.value = name;
    select.dispatchEvent(new Event('change'));
    return document.documentElement.dataset.theme === name;
  }, theme);
  expect(switched, `the page's theme form switches to ${theme}`).toBe(true);
}

/** Violations on the page as it is, in the light theme (every rule), then dark and high contrast (colour rules). */
async function inEveryTheme(page: Page, where: string): Promise<string[]> {
  const found = (await axeViolations(page)).map((v) => `${where} light: ${v}`);
  for (const theme of ['dark', 'contrast']) {
    await chooseTheme(page, theme);
    for (const v of await axeViolations(page, AXE_COLOUR_RULES)) found.push(`${where} ${theme}: ${v}`);
  }
  await chooseTheme(page, 'light');
  return found;
}

(HAS_CHROMIUM ? describe : describe.skip)('axe-core on every page, theme and size', { timeout: 240_000 }, () => {
  const env = appAndBrowser();

  // Each page is loaded once, at the desktop size, and audited there; then the window is narrowed to the phone's
  // width, as a dragged window or a turned tablet does (the stylesheet's media queries and the page's resize
  // handlers lay it out again), and audited once more: a second load per size would audit the same markup.
  test('1440×900 and 390×844: no violation on any page in any theme', async () => {
    const { cookie, pages } = await auditPages(env.app.url);
    const context: BrowserContext = await env.browser.newContext({ viewport: SIZES[0], reducedMotion: 'reduce' });
    await context.addCookies([
      { ...cookie, url: env.app.url },
      { name: 'theme', value: 'light', url: env.app.url },
    ]);
    const page: Page = await context.newPage();
    const found: string[] = [];
    for (const p of pages) {
      await page.setViewportSize(SIZES[0]);
      await page.goto(`${env.app.url}${p.path}`);
      expect(await page.getAttribute('html', 'data-theme')).toBe('light');
      for (const size of SIZES) {
        if (size !== SIZES[0]) await resize(page, size);
        found.push(...(await inEveryTheme(page, `${p.name} at ${size.width}`)));
        if (p.name === 'play' && size.width < 1000) {
          await page.click('.menu-toggle');
          await page.locator('#game-menu').waitFor({ state: 'visible' });
          found.push(...(await inEveryTheme(page, `${p.name} menu at ${size.width}`)));
        }
      }
    }
    expect(found).toEqual([]);
    await context.close();
  }, 480_000); // both sizes: some 110 audits on a busy machine

  // Right to left, CJK and long words (docs/i18n.md): the pages players use most, in the default theme; the
  // phone in all four, the desktop in one of each script direction, so the audit stays short.
  test('ar, he, ja and de: no violation on home, play (its menu open too) and stats', async () => {
    const { cookie, pages } = await auditPages(env.app.url);
    const audited = pages.filter((p) => ['home', 'play', 'stats'].includes(p.name));
    const context: BrowserContext = await env.browser.newContext({ viewport: SIZES[1], reducedMotion: 'reduce' });
    await context.addCookies([{ ...cookie, url: env.app.url }]);
    const page: Page = await context.newPage();
    const found: string[] = [];
    for (const [lang, sizes] of [
      ['ar', SIZES],
      ['he', [SIZES[1]]],
      ['ja', SIZES],
      ['de', [SIZES[1]]],
    ] as const) {
      await context.addCookies([{ name: 'lang', value: lang, url: env.app.url }]);
      // Loaded once at the first size, the others by resizing (as above).
      for (const p of audited) {
        await page.setViewportSize(sizes[0]);
        await page.goto(`${env.app.url}${p.path}`);
        expect(await page.getAttribute('html', 'lang')).toBe(lang);
        for (const size of sizes) {
          if (size !== sizes[0]) await resize(page, size);
          for (const v of await axeViolations(page)) found.push(`${lang} ${p.name} at ${size.width}: ${v}`);
          if (p.name === 'play' && size.width < 1000) {
            await page.click('.menu-toggle');
            await page.locator('#game-menu').waitFor({ state: 'visible' });
            for (const v of await axeViolations(page)) found.push(`${lang} ${p.name} menu at ${size.width}: ${v}`);
          }
        }
      }
    }
    expect(found).toEqual([]);
    await context.close();
  });
});
