/**
 * The stats page on a phone: at 360 px wide nothing is cut off (each table row is a card with its
 * columns named), and the chart's labels are 12 px or more. And the counts stay current without a reload:
 * a win recorded from a play page in another tab shows on an open stats page (docs/contracts.md, "The play page");
 * the history's Share replay copies the link, as the win panel's does.
 */
import { describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, playByScript, settled } from './browser.ts';

(HAS_CHROMIUM ? describe : describe.skip)('stats on a phone', () => {
  const env = appAndBrowser();

  test('360 px wide: every value of both tables in view, chart labels of 12 px or more', async () => {
    const context = await env.browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/`);
    for (let i = 0; i < 4; i++) await playByScript(page, 'garden', `phone${i}`, i === 3 ? 2 : undefined); // three wins, one unfinished
    await page.goto(`${env.app.url}/stats`);
    const m = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      cells: [...document.querySelectorAll('.data-table td, .data-table tbody th')].map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, text: el.textContent!.trim() };
      }),
      ticks: [...document.querySelectorAll('.chart .tick')].map((t) => t.getBoundingClientRect().height),
    }));
    expect(m.scrollWidth).toBeLessThanOrEqual(360);
    expect(m.cells.length).toBeGreaterThan(20);
    for (const c of m.cells) {
      expect(c.left, c.text).toBeGreaterThanOrEqual(0);
      expect(c.right, c.text).toBeLessThanOrEqual(360);
    }
    expect(m.ticks.length).toBeGreaterThan(0);
    for (const h of m.ticks) expect(h).toBeGreaterThanOrEqual(12); // a label's box is about its font size
    await context.close();
  });

  test('the history’s Share replay copies the link as the win panel does; without script it opens the replay', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.app.url });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/`);
    await playByScript(page, 'garden', 'share-history');
    await page.goto(`${env.app.url}/stats`);
    const row = page.locator('.history tbody tr', { hasText: 'share-history' });
    await row.locator('.replay-form button').click();
    const link = row.locator('.replay-note a');
    await link.waitFor({ state: 'visible' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/replay\/[A-Za-z0-9_-]{22}$/);
    expect(await link.textContent()).toBe(`${env.app.url}${href}`);
    expect(new URL(page.url()).pathname).toBe('/stats'); // copied, not opened
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${env.app.url}${href}`);
    expect(await row.locator('.replay-note').textContent()).toContain('Replay link copied');

    // Without script the button is a form that opens the same replay.
    const bare = await env.browser.newContext({ javaScriptEnabled: false });
    await bare.addCookies(await context.cookies());
    const plain = await bare.newPage();
    await plain.goto(`${env.app.url}/stats`);
    await plain.locator('.history tbody tr', { hasText: 'share-history' }).locator('.replay-form button').click();
    await plain.waitForURL(/\/replay\//);
    expect(new URL(plain.url()).pathname).toBe(href);
    await bare.close();
    await context.close();
  });

  test('an open stats page counts a win made in another tab, without a reload', async () => {
    const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const stats = await context.newPage();
    await stats.goto(`${env.app.url}/`);
    await playByScript(stats, 'garden', 'live-first'); // one win, so the page has its tables
    await stats.goto(`${env.app.url}/stats`);
    const won = () => stats.textContent('.stat-tiles div:nth-child(2) dd');
    expect(await won()).toBe('1');
    const play = await context.newPage();
    await play.goto(`${env.app.url}/play/garden/live-second`);
    await play.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    await clickPairs(play, (await pageData(play)).deal.solution);
    await settled(play);
    await expect.poll(won, { timeout: 10_000 }).toBe('2');
    expect(await stats.textContent('.history tbody tr:first-child')).toContain('live-second');
    await context.close();
  });
});
