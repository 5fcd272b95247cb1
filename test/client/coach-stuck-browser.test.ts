/**
 * The coach on the stuck message, in Chromium on a phone (docs/coach.md): a known losing line on the turtle,
 * then any pairs until no move is left. Without being asked, the stuck message (#notice) names the losing move
 * and its reason (data-reason), outlines the reason's tiles (data-reason-tile), offers "Undo N moves" and "Play
 * on from move K", counts no check, and passes axe. A screenshot goes to /tmp/coach-stuck-390x844.png.
 */
import { describe, expect, test } from 'vitest';
import type { Deal, Pair } from '../../src/engine/index.ts';
import { losingLine, toStuck } from '../support/losing-lines.ts';
import { axeViolations } from './audit.ts';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

/** Along the deal's solution, the first free pair that loses the win for a named reason, played on to a stuck board. */
function stuckLine(deal: Deal): { line: Pair[]; at: number; reason: string; tiles: readonly number[] } {
  const { line, at, losing, reason, tiles } = losingLine(deal);
  return { line: toStuck(deal, [...line, losing]), at, reason, tiles };
}

suite('the coach on the stuck message', () => {
  const env = appAndBrowser();

  test('at 390×844: play into a stuck board and read why the win was lost, outlined, axe clean', async () => {
    const context = await env.browser.newContext({
      viewport: { width: 390, height: 844 },
      hasTouch: true,
      isMobile: true,
    });
    try {
      const page = await context.newPage();
      await page.goto(`${env.app.url}/play/turtle/coach-1440`); // a deal with a named reason along its solution
      const { deal } = await pageData(page);
      const { line, at, reason, tiles } = stuckLine(deal);
      await clickPairs(page, line);
      await page.locator('#board[data-status="stuck"]').waitFor();
      const notice = page.locator('#notice[data-reason]');
      await notice.waitFor({ timeout: 30_000 });
      expect(await notice.getAttribute('data-reason')).toBe(reason);
      const text = (await notice.textContent()) ?? '';
      expect(text).toContain('No moves left');
      expect(text).toContain(`(move ${at + 1})`); // names the losing move
      const outlined = await page.$$eval('#board .tile[data-reason-tile]', (els) =>
        els.map((el) => Number((el as HTMLElement).dataset.slot)),
      );
      expect(outlined).toEqual([...tiles]);
      const undo = line.length - at;
      expect(await notice.locator(`[data-do="undo:${undo}"]`).textContent()).toBe(
        `Undo ${undo} move${undo === 1 ? '' : 's'}`,
      );
      expect(await notice.locator('[data-action="play-on"]').getAttribute('data-move')).toBe(String(at));
      expect(await axeViolations(page)).toEqual([]);
      await page.screenshot({ path: '/tmp/coach-stuck-390x844.png' });
      // The page asked the solver by itself: no check is counted on the server.
      await settled(page);
      const id = await page.evaluate(
        () => (globalThis as { __mahjong?: { state: { gameId: string | null } } }).__mahjong!.state.gameId,
      );
      const row = await env.app.app.gamesStore.findById(id!);
      expect(row).toMatchObject({ status: 'stuck', checks_no: 0 });
      // The undo it offers goes back to the board before the losing move, and the reason goes with the notice.
      await notice.locator(`[data-do="undo:${undo}"]`).click();
      await page.locator('#notice[data-reason]').waitFor({ state: 'detached' });
      expect(await page.locator('#board .tile[data-reason-tile]').count()).toBe(0);
      expect(await page.locator('#board .tile:not([hidden])').count()).toBe(144 - 2 * at);
    } finally {
      await context.close();
    }
  }, 120_000);
});
