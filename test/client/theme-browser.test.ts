/**
 * Themes in Chromium (docs/contracts.md, "Themes"): without a cookie the page follows the system's
 * prefers-color-scheme from its first paint (CSS, with or without script) and the script makes
 * `data-theme` say so; the switch applies at once with script (no reload) and keeps the choice for the
 * server; without script the form posts and comes back themed.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { appAndBrowser, HAS_CHROMIUM } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

/** The theme as the page shows it: data-theme, and the page and tile colours in force. */
const shown = (page: Page) =>
  page.evaluate(() => {
    const root = document.documentElement;
    const css = getComputedStyle(root);
    const tile = document.querySelector('#board .tile');
    return {
      theme: root.dataset.theme,
      auto: root.hasAttribute('data-theme-auto'),
      bg: css.getPropertyValue('--bg').trim(),
      faceInk: tile ? getComputedStyle(tile).getPropertyValue('--f-ink').trim() : null,
      body: getComputedStyle(document.body).color,
    };
  });

suite('themes in Chromium', { timeout: 90_000 }, () => {
  const env = appAndBrowser();
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  test.each([true, false])(
    'no cookie follows a dark system from the first paint (script: %s)',
    async (javaScriptEnabled) => {
      context = await env.browser.newContext({ colorScheme: 'dark', javaScriptEnabled });
      const page = await context.newPage();
      await page.goto(`${env.app.url}/play/turtle/theme-auto`);
      const seen = await shown(page);
      expect(seen).toMatchObject({ auto: true, bg: '#171b1f', faceInk: '#ece6d6', body: 'rgb(235, 230, 220)' });
      expect(seen.theme).toBe(javaScriptEnabled ? 'dark' : 'light'); // the server cannot know; the script says what is shown
      if (javaScriptEnabled) {
        await page.emulateMedia({ colorScheme: 'light' }); // the system turns light: the page follows
        await expect.poll(() => shown(page)).toMatchObject({ theme: 'light', bg: '#f4ede0', faceInk: '#1d2a35' });
      }
    },
  );

  test('the switch applies at once with script, and the server renders the choice next time', async () => {
    context = await env.browser.newContext({ colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/play/turtle/theme-switch`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.isVisible('.theme-form .theme-set')).toBe(false); // no Set button needed
    await page.evaluate(() => ((window as { stay?: boolean }).stay = true));
    await page.selectOption('#theme-choice', 'contrast');
    expect(await shown(page)).toMatchObject({ theme: 'contrast', auto: false, bg: '#ffffff', faceInk: '#000000' });
    expect(await page.evaluate(() => (window as { stay?: boolean }).stay)).toBe(true); // no reload
    expect((await context.cookies()).find((c) => c.name === 'theme')?.value).toBe('contrast');
    await page.selectOption('#theme-choice', 'dark');
    expect(await shown(page)).toMatchObject({ theme: 'dark', bg: '#171b1f', faceInk: '#ece6d6' });
    await page.goto(`${env.app.url}/stats`);
    expect(await page.getAttribute('html', 'data-theme')).toBe('dark');
    expect(await page.$eval('#theme-choice', (el) => (el as HTMLSelectElement).value)).toBe('dark');
    await page.selectOption('#theme-choice', 'auto'); // back to the system's (light here)
    expect(await shown(page)).toMatchObject({ theme: 'light', auto: true, bg: '#f4ede0' });
    expect((await context.cookies()).find((c) => c.name === 'theme')).toBeUndefined();
  });

  test('without script the form posts and comes back to the same page, themed', async () => {
    context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/daily`);
    await page.selectOption('#theme-choice', 'contrast');
    const [posted, back] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/theme')),
      page.waitForResponse((r) => r.request().method() === 'GET' && r.url() === `${env.app.url}/daily`),
      page.click('.theme-form .theme-set'),
    ]);
    expect(posted.status()).toBe(303);
    await back.finished();
    await page.waitForLoadState();
    expect(await shown(page)).toMatchObject({ theme: 'contrast', auto: false, bg: '#ffffff', body: 'rgb(0, 0, 0)' });
  });
});
