/**
 * The coach in Chromium (docs/coach.md): a known losing line on the turtle, then "Can this still be won?": the
 * answer's #notice carries data-reason, the reason's tiles carry data-reason-tile (outlined), the text names the
 * losing move; "Play on from move K" opens a new game of the deal from the board before the losing move, which
 * is then won. Screenshots of the outlined tiles at 1440×900 and 390×844 go to /tmp/coach-*.png.
 */
import type { Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import { losingLine } from '../support/losing-lines.ts';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

const reasonTiles = (page: Page): Promise<number[]> =>
  page.$$eval('#board .tile[data-reason-tile]', (els) => els.map((el) => Number((el as HTMLElement).dataset.slot)));

suite('the coach: why the win was lost, and play on from the mistake', () => {
  const env = appAndBrowser();

  test.each([
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ])(
    'at $width×$height: lose a win, ask, see the reason outlined, play on and win',
    async (size) => {
      const phone = size.width < 900;
      const context = await env.browser.newContext({
        viewport: { width: size.width, height: size.height },
        hasTouch: phone,
        isMobile: phone,
      });
      try {
        const page = await context.newPage();
        await page.goto(`${env.app.url}/play/turtle/coach-1440`); // a deal with a named reason along its solution
        const { deal } = await pageData(page);
        const { line, losing, reason, tiles } = losingLine(deal);
        await clickPairs(page, [...line, losing]);
        await page.evaluate(() => document.querySelector<HTMLElement>('[data-action="check"]')!.click());
        const notice = page.locator('#notice[data-reason]');
        await notice.waitFor({ timeout: 30_000 });
        expect(await notice.getAttribute('data-reason')).toBe(reason);
        expect(await reasonTiles(page)).toEqual([...tiles]);
        const text = await notice.textContent();
        expect(text).toContain(`(move ${line.length + 1})`); // names the losing move
        // The outline reads at a glance: a visible ring in the reason's colour.
        const ring = await page.$eval(
          `#board .tile[data-slot="${tiles[0]}"]`,
          (el) => getComputedStyle(el).outlineStyle,
        );
        expect(ring).toBe('dashed');
        await page.screenshot({ path: `/tmp/coach-${size.width}x${size.height}.png` });
        // Play on from the move before the mistake: a new game of this deal, from that board.
        const playOn = page.locator('[data-action="play-on"]');
        expect(await playOn.getAttribute('data-move')).toBe(String(line.length));
        await settled(page);
        const gameId = (): Promise<string | null> =>
          page.evaluate(
            () => (globalThis as { __mahjong?: { state: { gameId: string | null } } }).__mahjong!.state.gameId,
          );
        const before = await gameId();
        // The new game's address is the deal's own, the page's already: wait for the new page, not for the address.
        await Promise.all([page.waitForEvent('framenavigated', (frame) => frame === page.mainFrame()), playOn.click()]);
        expect(page.url()).toMatch(/\/play\/turtle\/coach-1440$/);
        await page.waitForSelector('#board .tile');
        const data = await pageData(page);
        expect(data.game!.id).not.toBe(before);
        expect(data.game!.id).toBe(await gameId());
        expect(data.game!.log).toEqual(line.map(([a, b]) => ({ type: 'match', a, b })));
        expect(await page.locator('#board .tile:not([hidden])').count()).toBe(144 - 2 * line.length);
        // The rest of the solution wins it (the losing pair is not played).
        await clickPairs(page, deal.solution.slice(line.length));
        await page.locator('#board[data-status="won"]').waitFor();
        await settled(page);
        const row = await env.app.app.gamesStore.findById(data.game!.id);
        expect(row).toMatchObject({ result: 'won', unranked: 'play-on', play_on_from: line.length });
      } finally {
        await context.close();
      }
    },
    120_000,
  );
});
