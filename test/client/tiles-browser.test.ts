/**
 * Tile sets in Chromium (docs/client.md, "Faces"): a page loads only its set's face sheet; the picker
 * switches the set at once with script (no reload) and keeps it for the server; "Use this set" on a
 * preview page does the same; without script the picker's form posts and comes back drawn in the set; and
 * offline, pages the server did not render for the player take the cookie's set, and switching still
 * paints, from the service worker's cache.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { appAndBrowser, HAS_CHROMIUM } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

/**
 * The face sheets the page has fetched, as `<set>-<theme>`, each once: `facePainted`'s own probe may fetch
 * the sheet it checks again (when the page's fetch of it is still under way), which says nothing of the page.
 */
const sheetsLoaded = (page: Page): Promise<string[]> =>
  page.evaluate(() => [
    ...new Set(
      performance
        .getEntriesByType('resource')
        .map((e) => /\/faces-([a-z]+-[a-z]+)\.[0-9a-f]+\.svg$/.exec(e.name)?.[1])
        .filter((name): name is string => name !== undefined),
    ),
  ]);

/** The sheet a tile's face paints from, as `<set>-<theme>`, and whether it loads (from the network or the service worker's cache). */
const facePainted = (page: Page, selector: string) =>
  page.$eval(selector, async (el) => {
    const image = getComputedStyle(el, '::before').backgroundImage;
    const url = /url\("?([^")]+)"?\)/.exec(image)?.[1];
    if (!url) return { sheet: null, loads: false };
    const img = new Image();
    img.src = url;
    const loads = await img.decode().then(
      () => img.naturalWidth > 0,
      () => false,
    );
    return { sheet: /\/faces-([a-z]+-[a-z]+)\.[0-9a-f]+\.svg$/.exec(url)?.[1] ?? null, loads };
  });

const tilesCookie = async (context: BrowserContext): Promise<string | undefined> =>
  (await context.cookies()).find((c) => c.name === 'tiles')?.value;

async function openBoard(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'), null, {
    timeout: 20_000,
  });
}

suite('tile sets in Chromium', { timeout: 120_000 }, () => {
  const env = appAndBrowser();
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  test('the picker switches the set at once without a reload; the page loads only the sheet it shows', async () => {
    context = await env.browser.newContext({ viewport: { width: 1440, height: 900 }, colorScheme: 'light' });
    const page = await context.newPage();
    await openBoard(page, `${env.app.url}/play/turtle/tiles-switch`);
    expect(await page.getAttribute('html', 'data-tiles')).toBe('classic');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'classic-light', loads: true });
    expect(await sheetsLoaded(page)).toEqual(['classic-light']); // one sheet, the set's in the page's theme
    const before = await page.locator('#board .tile[data-face]').first().screenshot();

    await page.evaluate(() => ((window as { stay?: boolean }).stay = true));
    expect(await page.isVisible('.tiles-form .theme-set')).toBe(false); // no Set button needed
    await page.selectOption('#tiles-choice', 'traditional');
    expect(await page.getAttribute('html', 'data-tiles')).toBe('traditional');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'traditional-light', loads: true });
    await expect.poll(() => sheetsLoaded(page)).toEqual(['classic-light', 'traditional-light']);
    await expect
      .poll(async () => (await page.locator('#board .tile[data-face]').first().screenshot()).equals(before))
      .toBe(false); // the face is drawn anew
    expect(await page.evaluate(() => (window as { stay?: boolean }).stay)).toBe(true); // no reload
    expect(await tilesCookie(context)).toBe('traditional');

    // A theme switch afterwards paints the same set in the new theme.
    await page.selectOption('#theme-choice', 'dark');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'traditional-dark', loads: true });

    // The server draws the next page in the chosen set.
    await page.goto(`${env.app.url}/stats`);
    expect(await page.getAttribute('html', 'data-tiles')).toBe('traditional');
    expect(await page.$eval('#tiles-choice', (el) => (el as HTMLSelectElement).value)).toBe('traditional');
    expect(await sheetsLoaded(page)).toEqual([]); // a page without faces loads none
  });

  test('"Use this set" on a preview page switches at once; the preview shows its own set whatever the player plays', async () => {
    context = await env.browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await context.addCookies([{ name: 'tiles', value: 'traditional', url: env.app.url }]);
    const page = await context.newPage();
    await page.goto(`${env.app.url}/tiles/large`);
    expect(await page.getAttribute('html', 'data-tiles')).toBe('traditional');
    expect(await facePainted(page, '.face-chart .face-tile')).toEqual({ sheet: 'large-light', loads: true });
    expect(await sheetsLoaded(page)).toEqual(['large-light']); // the player's own set is not drawn here
    expect(await page.isVisible('.tiles-in-use')).toBe(false);
    await page.evaluate(() => ((window as { stay?: boolean }).stay = true));
    await page.click('.tiles-use button');
    expect(await page.getAttribute('html', 'data-tiles')).toBe('large');
    expect(await page.isVisible('.tiles-in-use')).toBe(true);
    expect(await page.isVisible('.tiles-use button')).toBe(false);
    expect(await page.$eval('#tiles-choice', (el) => (el as HTMLSelectElement).value)).toBe('large');
    expect(await page.evaluate(() => (window as { stay?: boolean }).stay)).toBe(true);
    expect(await tilesCookie(context)).toBe('large');
  });

  test('without script the picker posts and comes back to the same page, in the set', async () => {
    context = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/play/turtle/tiles-noscript`);
    await page.selectOption('#tiles-choice', 'large');
    const [posted, back] = await Promise.all([
      page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith('/tiles')),
      page.waitForResponse(
        (r) => r.request().method() === 'GET' && r.url() === `${env.app.url}/play/turtle/tiles-noscript`,
      ),
      page.click('.tiles-form .theme-set'),
    ]);
    expect(posted.status()).toBe(303);
    await back.finished();
    await page.waitForLoadState();
    expect(await page.getAttribute('html', 'data-tiles')).toBe('large');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'large-light', loads: true });
  });

  test('offline: pages kept or dealt in the browser take the cookie set, and a switch paints from the cache', async () => {
    context = await env.browser.newContext({ viewport: { width: 1280, height: 860 }, colorScheme: 'light' });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/`); // kept by the service worker as last seen: drawn classic
    await page.evaluate(() => navigator.serviceWorker.ready);
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null);
    await page.goto(`${env.app.url}/`);
    expect(await page.getAttribute('html', 'data-tiles')).toBe('classic');
    await page.selectOption('#tiles-choice', 'traditional'); // by script: the kept page still says classic

    await context.setOffline(true);
    await page.goto(`${env.app.url}/`);
    expect(await page.getAttribute('html', 'data-tiles')).toBe('traditional');
    await openBoard(page, `${env.app.url}/play/garden/offline-tiles`); // the offline page, dealt here
    expect(await page.getAttribute('#board', 'data-layout')).toBe('garden');
    expect(await page.getAttribute('html', 'data-tiles')).toBe('traditional');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'traditional-light', loads: true });
    await page.selectOption('#tiles-choice', 'large');
    expect(await facePainted(page, '#board .tile .face')).toEqual({ sheet: 'large-light', loads: true });
    expect(await tilesCookie(context)).toBe('large');
    await context.setOffline(false);
  });
});
