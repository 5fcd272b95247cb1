/**
 * A live race in three browsers (docs/contracts.md, "Live races"): one opens it from a play page's Race button,
 * two join from its link (one on a phone), its maker starts it and every screen counts 3-2-1 to the same instant
 * (the boards take no input before), each sees the others' tiles left change live, one reloads mid-race and
 * keeps their place, and when all three have cleared the board every screen shows the server's order.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled } from './browser.ts';

const LAYOUT = 'garden'; // 40 tiles: 20 pairs a racer
const SEED = 'race-three';

/** The racers as one screen shows them: `[data-player]` → [data-left, data-status]. */
const standings = (page: Page) =>
  page.$$eval('#race [data-player]', (els) =>
    Object.fromEntries(
      els.map((el) => [
        (el as HTMLElement).dataset.player!,
        `${(el as HTMLElement).dataset.left} ${(el as HTMLElement).dataset.status}`,
      ]),
    ),
  );

/** The final order as one screen shows it: the `data-order` of each place, and the names. */
const order = (page: Page) =>
  page.$$eval('#race-order li', (els) =>
    els.map((el) => `${(el as HTMLElement).dataset.order} ${el.querySelector('.race-name')!.textContent}`),
  );

(HAS_CHROMIUM ? describe : describe.skip)('a live race in three browsers', { timeout: 180_000 }, () => {
  const env = appAndBrowser();

  test('opened from a deal, joined from its link, played live, and ended with the server order on every screen', async () => {
    const contexts: BrowserContext[] = [
      await env.browser.newContext({ viewport: { width: 1280, height: 800 } }),
      await env.browser.newContext({ viewport: { width: 1280, height: 800 } }),
      await env.browser.newContext({
        viewport: { width: 390, height: 844 },
        hasTouch: true,
        isMobile: true,
        reducedMotion: 'reduce',
      }),
    ];
    try {
      const [ana, ben, cat] = await Promise.all(contexts.map((c) => c.newPage()));
      const pages = [ana!, ben!, cat!];

      // Ana opens the race from the deal's page.
      await ana!.goto(`${env.app.url}/play/${LAYOUT}/${SEED}`);
      await ana!.locator('#game-menu [data-race="new"]').click();
      await ana!.waitForURL(/\/race\/[A-Za-z0-9_-]{12}$/);
      const raceUrl = ana!.url();
      expect(await standings(ana!)).toEqual({ me: '40 playing' });

      // Ben and Cat open the link and join.
      for (const page of [ben!, cat!]) {
        await page.goto(raceUrl);
        expect(await page.locator('#race[data-seated="false"]').count()).toBe(1);
        await page.locator('[data-race="join"]').click();
        await page.waitForSelector('#race[data-seated="true"]');
      }
      // Everyone sees three racers, themselves as "me", Ana's page without a reload.
      await expect.poll(() => standings(ana!)).toEqual({ me: '40 playing', 2: '40 playing', 3: '40 playing' });
      expect(await standings(ben!)).toEqual({ 1: '40 playing', me: '40 playing', 3: '40 playing' });
      expect(await standings(cat!)).toEqual({ 1: '40 playing', 2: '40 playing', me: '40 playing' });

      // Before the start the boards take no input; Ana has the Start button, the others wait for her.
      for (const page of pages) expect(await page.locator('.board-wrap[inert]').count()).toBe(1);
      expect(await ben!.locator('#race .race-wait').textContent()).toBe('Waiting for Player 1 to start the race.');
      expect(await ben!.locator('[data-race="start"]').count()).toBe(0);

      // Ana starts: every screen counts down over the board to the one instant the server stamped.
      await ana!.locator('[data-race="start"]').click();
      // Each screen's first number shown, with its animation (none on the phone, which asks for reduced motion).
      const counts = await Promise.all(
        pages.map(async (page) => {
          const shown = await page.waitForFunction(() => {
            const n = document.querySelector('#race-countdown:not([hidden]) span');
            return n && /^[123]$/.test(n.textContent ?? '') ? getComputedStyle(n).animationName : false;
          });
          return shown.jsonValue();
        }),
      );
      expect(counts).toEqual(['race-count', 'race-count', 'none']);
      const startsAt = await Promise.all(pages.map((page) => page.locator('#race').getAttribute('data-starts-at')));
      expect(new Set(startsAt).size).toBe(1);
      expect(Number(startsAt[0])).toBeGreaterThan(Date.now() - 3000);
      for (const page of pages) {
        await page.waitForSelector('.board-wrap:not([inert])', { timeout: 10_000 });
        expect(Date.now()).toBeGreaterThanOrEqual(Number(startsAt[0]) - 50); // not before the server's instant
        await page.waitForSelector('#race-countdown', { state: 'hidden' });
      }
      expect(await ana!.locator('[data-race="start"]').count()).toBe(0);

      const { deal } = await pageData(ana!);
      const solution = deal.solution;
      // Ana takes three pairs: the others see 34 tiles left for her within the race's batch time.
      await clickPairs(ana!, solution.slice(0, 3));
      await expect.poll(() => standings(ben!), { timeout: 10_000 }).toMatchObject({ 1: '34 playing' });
      await expect.poll(() => standings(cat!), { timeout: 10_000 }).toMatchObject({ 1: '34 playing' });

      // Ben reloads mid-race: back at once, he keeps his place and his game; nobody sees him gone.
      await clickPairs(ben!, solution.slice(0, 2));
      await settled(ben!);
      await ben!.reload();
      await ben!.waitForSelector('#race[data-seated="true"]');
      expect(await standings(ben!)).toMatchObject({ me: '36 playing' });
      expect(await ben!.locator('#board .tile:not([hidden])').count()).toBe(36);
      expect(Object.values(await standings(ana!))).not.toContain('36 gone');

      // Cat clears the board first, then Ana, then Ben.
      await clickPairs(cat!, solution);
      await expect.poll(() => standings(ana!), { timeout: 10_000 }).toMatchObject({ 3: '0 won' });
      await expect.poll(() => standings(ben!), { timeout: 10_000 }).toMatchObject({ 3: '0 won' });
      await clickPairs(ana!, solution.slice(3));
      await expect.poll(() => standings(ben!), { timeout: 10_000 }).toMatchObject({ 1: '0 won' });
      await clickPairs(ben!, solution.slice(2));

      // Every screen shows the server's order: Cat, Ana, Ben.
      for (const page of pages) await page.waitForSelector('#race-order', { timeout: 10_000 });
      expect(await order(ana!)).toEqual(['3 Player 3', 'me Player 1 (you)', '2 Player 2']);
      expect(await order(ben!)).toEqual(['3 Player 3', '1 Player 1', 'me Player 2 (you)']);
      expect(await order(cat!)).toEqual(['me Player 3 (you)', '1 Player 1', '2 Player 2']);
      for (const page of [ana!, ben!])
        expect(await page.locator('#race-news').textContent()).toBe('The race is over: Player 3 won.');
      expect(await cat!.locator('#race-news').textContent()).toBe('The race is over: Player 3 (you) won.');

      // On the phone, the race's line does not widen the page.
      expect(await cat!.evaluate(() => document.documentElement.scrollWidth <= innerWidth)).toBe(true);
      const raceBox = await cat!.locator('#race').boundingBox();
      const boardBox = await cat!.locator('#board-view').boundingBox();
      expect(raceBox!.y + raceBox!.height).toBeLessThanOrEqual(boardBox!.y + 1); // above the board, not over it
      // There the invitation and the rules are in the game menu, the link whole; on a wide screen, in the race's column.
      expect(await cat!.locator('#race .race-invite').isVisible()).toBe(false);
      await cat!.locator('.menu-toggle').click();
      const invite = cat!.locator('#game-menu .menu-race .race-link');
      await invite.waitFor({ state: 'visible' });
      expect(await invite.getAttribute('href')).toBe(new URL(raceUrl).pathname);
      expect(await cat!.locator('#game-menu .menu-race').textContent()).toContain('First to clear the board wins.');
      expect(await ana!.locator('#race .race-invite').isVisible()).toBe(true);
      expect(await ana!.locator('#game-menu .menu-race').isVisible()).toBe(false);
    } finally {
      await Promise.all(contexts.map((c) => c.close()));
    }
  });
});
