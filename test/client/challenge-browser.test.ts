/**
 * A challenge link in two browsers (docs/contracts.md, "Challenge links"): Ana wins a small deal and makes a
 * challenge link from the win panel; Ben opens it on a phone, sees the time to beat and the ghost before his
 * first move, wins, and sees both server times side by side; Ana's stats list the challenge as he left it.
 */
import type { BrowserContext } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled } from './browser.ts';

const LAYOUT = 'garden'; // 40 tiles: 20 pairs
const SEED = 'challenge-two';

(HAS_CHROMIUM ? describe : describe.skip)('a challenge link in two browsers', { timeout: 180_000 }, () => {
  const env = appAndBrowser();

  test('made from a win, played by a friend to a win, both times shown', async () => {
    const contexts: BrowserContext[] = [
      await env.browser.newContext({ viewport: { width: 1280, height: 800 } }),
      await env.browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true }),
    ];
    try {
      const [ana, ben] = await Promise.all(contexts.map((c) => c.newPage()));

      // Ana wins the deal; the server records it; Challenge a friend makes the link (shown in the panel).
      await ana!.goto(`${env.app.url}/play/${LAYOUT}/${SEED}`);
      const { deal } = await pageData(ana!);
      await clickPairs(ana!, deal.solution);
      await ana!.waitForSelector('#win-panel [data-win="verified"]:not([hidden])', { timeout: 15_000 });
      await ana!.locator('#win-panel [data-do="challenge"]').click();
      const link = ana!.locator('#win-panel [data-win="challenge-link"]:not([hidden]) a');
      await link.waitFor({ timeout: 10_000 });
      const path = await link.getAttribute('href');
      expect(path).toMatch(/^\/challenge\/[A-Za-z0-9_-]{22}$/);
      expect(await link.textContent()).toBe(`${env.app.url}${path}`);

      // Ben opens it: before his first move, the time to beat and Ana's ghost at 0:00.
      await ben!.goto(`${env.app.url}${path}`);
      const box = ben!.locator('#challenge');
      const ms = Number(await box.getAttribute('data-ms'));
      expect(ms).toBeGreaterThan(0);
      const time = `${Math.floor(ms / 60_000)}:${String(Math.floor(ms / 1000) % 60).padStart(2, '0')}`;
      expect(await ben!.locator('.challenge-beat').textContent()).toBe(
        `A friend cleared this in ${time} — can you beat it?`,
      );
      await expect.poll(() => ben!.locator('#challenge-ghost').textContent()).toBe('A friend at 0:00: 40 tiles left');
      expect(await box.isVisible()).toBe(true);
      // The same deal as Ana's.
      expect((await pageData(ben!)).deal.tiles).toEqual(deal.tiles);
      // On the phone, the challenge's line sits above the board and does not widen the page.
      expect(await ben!.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      const lineBox = await box.boundingBox();
      const boardBox = await ben!.locator('#board-view').boundingBox();
      expect(lineBox!.y + lineBox!.height).toBeLessThanOrEqual(boardBox!.y + 1);

      // Ben plays to a win: the panel shows his server time beside the time to beat, and who won.
      await clickPairs(ben!, deal.solution);
      await settled(ben!);
      const mine = ben!.locator('#win-panel [data-win="vs-mine"][data-ms]');
      await mine.waitFor({ timeout: 15_000 });
      const mineMs = Number(await mine.getAttribute('data-ms'));
      expect(mineMs).toBeGreaterThan(0);
      expect(Number(await ben!.locator('[data-win="vs-theirs"]').getAttribute('data-ms'))).toBe(ms);
      expect(await ben!.locator('[data-win="vs-theirs"]').textContent()).toBe(time);
      const result = ben!.locator('[data-win="vs-result"]');
      expect(await result.isVisible()).toBe(true);
      const by = Math.floor(ms / 1000) - Math.floor(mineMs / 1000);
      expect(await result.getAttribute('data-result')).toBe(by > 0 ? 'beaten' : by < 0 ? 'lost' : 'tie');
      expect(await result.textContent()).toMatch(/A friend/);

      // Ana's stats list her challenge, played by one friend.
      await ana!.goto(`${env.app.url}/stats`);
      const row = ana!.locator(`#challenges tr[data-challenge="${path!.split('/')[2]}"]`);
      expect(await row.getAttribute('data-outcome')).toBe(by > 0 ? 'beaten' : 'held');
      expect(await row.locator('td').nth(1).textContent()).toBe('1');
    } finally {
      await Promise.all(contexts.map((c) => c.close()));
    }
  });
});
