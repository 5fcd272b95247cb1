/**
 * One real-browser test of the whole site: Debian's Chromium driven by
 * playwright-core opens /, starts a turtle game, plays a few pairs by clicking,
 * reloads, and finds the same position, restored by the server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { Browser } from 'playwright-core';
import type { FastifyInstance } from 'fastify';
import type { Deal } from '../../../src/engine/index.ts';
import { BATCH_MS } from '../../../src/client/sync.ts';
import { buildApp } from '../../../src/server/app.ts';
import { HAS_CHROMIUM, launch } from '../../client/browser.ts';

const PAIRS = 4; // pairs played before the reload

(HAS_CHROMIUM ? describe : describe.skip)('in a real browser', () => {
  let app: FastifyInstance;
  let base: string;
  let browser: Browser;
  let dir: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'mj-browser-'));
    app = buildApp({ databasePath: join(dir, 'test.db'), logger: false, rateLimit: false, tutorial: false });
    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    base = address.replace('localhost', '127.0.0.1');
    browser = await launch(); // Debian's Chromium with the project's flags (test/client/browser.ts)
  });

  afterAll(async () => {
    await browser?.close();
    await app?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  test(
    'open /, start a turtle game, play pairs by clicking, reload: the same position',
    { timeout: 90_000 },
    async () => {
      const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
      const problems: string[] = [];
      page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
      page.on('console', (m) => {
        if (m.type() === 'error') problems.push(`console: ${m.text()}`);
      });
      page.on('request', (r) => {
        if (!r.url().startsWith(base) && !r.url().startsWith('data:')) problems.push(`third-party request: ${r.url()}`);
      });

      await page.goto(`${base}/`);
      await page
        .locator('.layout-card', { hasText: 'Turtle' })
        .getByRole('link', { name: /^New game/ })
        .click();
      await page.waitForURL(/\/play\/turtle\/[A-Za-z0-9]{8}$/);
      await expect.poll(() => page.locator('#board .tile').count()).toBe(144);

      const { deal } = (await page.$eval('#deal-data', (el) => JSON.parse(el.textContent!))) as { deal: Deal };
      const played = deal.solution.slice(0, PAIRS);
      for (const [a, b] of played) {
        for (const slot of [a, b]) await page.locator(`#board .tile[data-slot="${slot}"]`).click();
        await expect.poll(() => page.locator(`#board .tile[data-slot="${b}"]:not([hidden])`).count()).toBe(0);
      }
      // The server gets the moves by itself, in a batch within BATCH_MS: the log holds the pairs, verified by replay.
      await expect
        .poll(
          () =>
            (app.db!.prepare('SELECT move_count, tiles_left FROM games').get() as { move_count: number } | undefined)
              ?.move_count,
          {
            timeout: BATCH_MS + 5000,
          },
        )
        .toBe(PAIRS);
      await expect.poll(() => page.textContent('#sync-status')).toBe('Saved');

      const removed = played.flat();
      const visible = async () =>
        page.$$eval('#board .tile', (els) =>
          (els as HTMLElement[]).filter((el) => !el.hidden).map((el) => Number(el.dataset.slot)),
        );
      const before = await visible();
      expect(before).toHaveLength(144 - 2 * PAIRS);
      for (const slot of removed) expect(before).not.toContain(slot);

      await page.reload();
      await expect.poll(() => page.locator('#board .tile').count()).toBeGreaterThan(0);
      const after = await visible();
      expect(after).toEqual(before);
      const data = (await page.$eval('#deal-data', (el) => JSON.parse(el.textContent!))) as {
        game: { log: unknown[] } | null;
      };
      expect(data.game?.log).toEqual(played.map(([a, b]) => ({ type: 'match', a, b })));
      expect(await page.getAttribute('#board', 'aria-label')).toBe(`Board, ${144 - 2 * PAIRS} tiles left`);
      expect(problems).toEqual([]);
      await page.close();
    },
  );
});
