/**
 * axe-core on every page (docs/client.md, "Audits"): home, play in both modes and resumed, daily and a past
 * daily, stats, upload, a custom layout, the editor, a transfer link, the offline page, two tile sets' faces
 * previews and a 404, in the three themes at 1440×900 and 390×844 (the play page's menu open too), and home,
 * play and stats in Arabic, Hebrew, Japanese and German, held to WCAG 2.0–2.2 A and AA: any violation fails. A theme
 * changes colours only (a class on the root, the same markup): the light theme runs every rule, the dark and
 * high-contrast themes the rules that judge colours (contrast, links told apart from text).
 * Nodes axe cannot judge (text over gradients) are checked by hand: docs/client.md lists them.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { AXE_COLOUR_RULES, auditPages, axeViolations } from './audit.ts';
import { appAndBrowser, HAS_CHROMIUM } from './browser.ts';

const THEMES = ['light', 'dark', 'contrast'] as const;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
] as const;

(HAS_CHROMIUM ? describe : describe.skip)('axe-core on every page, theme and size', { timeout: 240_000 }, () => {
  const env = appAndBrowser();

  test.each(THEMES)('%s theme: no violation on any page at desktop and phone sizes', async (theme) => {
    const rules = theme === 'light' ? undefined : AXE_COLOUR_RULES;
    const { cookie, pages } = await auditPages(env.app.url);
    const context: BrowserContext = await env.browser.newContext({ viewport: SIZES[0] });
    await context.addCookies([
      { ...cookie, url: env.app.url },
      { name: 'theme', value: theme, url: env.app.url },
    ]);
    const page: Page = await context.newPage();
    const found: string[] = [];
    for (const size of SIZES) {
      await page.setViewportSize(size);
      for (const p of pages) {
        await page.goto(`${env.app.url}${p.path}`);
        await page.waitForLoadState('load');
        for (const v of await axeViolations(page, rules)) found.push(`${p.name} at ${size.width}: ${v}`);
        if (p.name === 'play' && size.width < 1000) {
          await page.click('.menu-toggle');
          await page.locator('#game-menu').waitFor({ state: 'visible' });
          for (const v of await axeViolations(page, rules)) found.push(`${p.name} menu at ${size.width}: ${v}`);
        }
      }
    }
    expect(found).toEqual([]);
    await context.close();
  });

  // Right to left, CJK and long words (docs/i18n.md): the pages players use most, in the default theme; the
  // phone in all four, the desktop in one of each script direction, so the audit stays short.
  test('ar, he, ja and de: no violation on home, play (its menu open too) and stats', async () => {
    const { cookie, pages } = await auditPages(env.app.url);
    const audited = pages.filter((p) => ['home', 'play', 'stats'].includes(p.name));
    const context: BrowserContext = await env.browser.newContext({ viewport: SIZES[1] });
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
      for (const size of sizes) {
        await page.setViewportSize(size);
        for (const p of audited) {
          await page.goto(`${env.app.url}${p.path}`);
          await page.waitForLoadState('load');
          expect(await page.getAttribute('html', 'lang')).toBe(lang);
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
