/**
 * Fair play in a real browser: a transfer link moves a player's stats to another browser
 * (a second context, its own cookies) and works once; the daily calendar marks the day won and leads
 * to past days; a win's panel shows the server's time and whether it is ranked.
 */
import { describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, playByScript } from './browser.ts';
import { layoutById } from '../../src/engine/builtins.ts';
import { dailyLayoutOf } from '../../src/server/services/daily.ts';

(HAS_CHROMIUM ? describe : describe.skip)('fair play in Chromium', () => {
  const env = appAndBrowser();

  test('a transfer link: made on /stats, confirmed in another browser, which then has the stats; it works once', async () => {
    const home = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await home.newPage();
    await page.goto(`${env.app.url}/`);
    expect(await playByScript(page, 'garden', 'moving')).toMatchObject({ status: 'won', ranked: false });
    await page.goto(`${env.app.url}/stats`);
    await page.getByRole('button', { name: 'Use my stats on another device' }).click();
    await page.waitForURL(/\/stats\/transfer$/);
    // Without PUBLIC_ORIGIN the server sends a path (never the Host header's origin): the page completes it.
    await expect
      .poll(() => page.inputValue('#transfer-link'))
      .toMatch(/^http:\/\/127\.0\.0\.1:\d+\/transfer\/[A-Za-z0-9_-]{32}$/);
    const link = await page.inputValue('#transfer-link');

    const phone = await env.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    const other = await phone.newPage();
    await other.goto(`${env.app.url}/`);
    await playByScript(other, 'turtle', 'left-behind'); // this browser's own game, which the page warns about
    await other.goto(link);
    await expect.poll(() => other.textContent('h1')).toBe('Use these stats in this browser?');
    expect(await other.textContent('.transfer-warning')).toContain('1 game of its own');
    await other.getByRole('button', { name: 'Yes, use these stats here' }).click();
    await other.waitForURL(/\/stats\?moved=1$/);
    expect(await other.textContent('.notice')).toContain('This browser now uses the stats');
    expect(await other.locator('.history a[href="/play/garden/moving"]').count()).toBe(1);
    expect(await other.locator('.history a[href="/play/turtle/left-behind"]').count()).toBe(0);

    // Used: opening it again says so, and changes nothing.
    const again = await other.goto(link);
    expect(again?.status()).toBe(410);
    expect(await other.textContent('h1')).toContain('This link was used');
    await other.goto(`${env.app.url}/stats`);
    expect(await other.locator('.history a[href="/play/garden/moving"]').count()).toBe(1);
    await home.close();
    await phone.close();
  });

  test("the daily calendar marks today's win and leads to past days; a forged date is a page that says so", async () => {
    const context = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    const today = new Date().toISOString().slice(0, 10);
    await page.goto(`${env.app.url}/daily`);
    expect(await playByScript(page, dailyLayoutOf(today), `daily-${today}`)).toMatchObject({ status: 'won' });
    await page.goto(`${env.app.url}/daily`);
    const cell = page.locator(`#daily-calendar [data-day="${today}"]`);
    expect(await cell.getAttribute('data-state')).toBe('clean'); // won, no help: clean (a script's win is unranked, but it is the player's)
    expect(await cell.getAttribute('class')).toContain('cal-today');
    expect(await page.textContent('.daily-streak')).toContain('1 day');
    expect(await page.textContent('.best-times, .empty')).toBeTruthy();
    const past = page.locator('#daily-calendar a').first();
    if ((await past.count()) > 0) {
      const href = (await past.getAttribute('href'))!;
      await past.click();
      await page.waitForURL(new RegExp(`${href}$`));
      const day = href.slice('/daily/'.length); // the layout of that day (services/daily.ts)
      expect(await page.textContent('h1')).toContain(`The ${layoutById(dailyLayoutOf(day))!.name} of`);
    }
    const wrong = await page.goto(`${env.app.url}/daily/2099-01-01`);
    expect(wrong?.status()).toBe(404);
    expect(await page.textContent('main')).toContain('not out yet');
    const size = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(size).toBeLessThanOrEqual(390);
    await context.close();
  });

  test(
    'an offline win: the panel says why it is not ranked, and the stats keep the time the player saw',
    { timeout: 120_000 },
    async () => {
      const context = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await page.goto(`${env.app.url}/play/garden/panel`);
      await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
      // The whole game played offline, then sent when the network is back: its pairs arrive together, so
      // it is not ranked (docs/contracts.md, "Offline and installable": verified, never ranked); your time is the
      // page's clock.
      const { deal } = await pageData(page);
      await context.setOffline(true);
      await clickPairs(page, deal.solution);
      const yours = await page.textContent('[data-win="your-time"]');
      expect(yours).toMatch(/^\d+:\d\d$/);
      const ms = Number(await page.getAttribute('#clock', 'data-ms'));
      expect(ms).toBeGreaterThan(0);
      await page.waitForTimeout(1500);
      expect(Number(await page.getAttribute('#clock', 'data-ms'))).toBe(ms); // stopped at the win
      await context.setOffline(false);
      await page.evaluate(() => (globalThis as { __mahjong?: { sendNow?: () => void } }).__mahjong?.sendNow?.());
      await expect.poll(() => page.getAttribute('[data-win="rank"]', 'data-ranked'), { timeout: 15_000 }).toBe('false');
      const rank = await page.textContent('[data-win="rank"]');
      expect(rank).toMatch(/^Not ranked: it was played partly without the server/);
      expect(rank).toContain('a pair every 0.7 s after the first six'); // the documented pace rule
      expect(rank).not.toContain('faster than a person');
      expect(await page.textContent('[data-win="your-time"]')).toBe(yours); // the server did not change it
      expect(await page.isVisible('[data-win="ranked"]')).toBe(false); // no ranked time to show
      // The stats show the time the player saw, not the instant the moves arrived.
      const stats = (await page.evaluate(async () => (await fetch('/api/stats')).json())) as {
        history: { timeMs: number; rankedMs: number | null; ranked: boolean }[];
        byLayout: Record<string, { bestMs: number }>;
      };
      expect(stats.history[0]).toMatchObject({ timeMs: ms, rankedMs: null, ranked: false });
      expect(stats.byLayout.garden!.bestMs).toBe(ms);
      await context.close();
    },
  );
});
