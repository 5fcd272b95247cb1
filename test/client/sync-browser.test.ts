/**
 * The sync in a real browser: a whole game through 429s, 503s and a dropped connection is
 * recorded once with every move and the page never reloads; a tab closed mid-game comes back with every
 * move; two tabs on one game meet a clear conflict message and lose nothing the server accepted.
 */
import { describe, expect, test } from 'vitest';
import type { BrowserContext, Page, Route } from 'playwright-core';
import type { Move } from '../../src/engine/index.ts';
import { appAndBrowser, HAS_CHROMIUM, pageData, settled, tile } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

suite('sync in Chromium', () => {
  const env = appAndBrowser();

  const gameRow = (id: string) =>
    env.app.app.db!.prepare('SELECT move_count, moves_json, result FROM games WHERE id = ?').get(id) as
      { move_count: number; moves_json: string; result: string | null } | undefined;

  // Matched pairs leave at once (prefers-reduced-motion, a player's setting): these tests are about what reaches
  // the server, and a whole game's leaving animations would only make them wait.
  const newContext = () => env.browser.newContext({ viewport: { width: 1280, height: 860 }, reducedMotion: 'reduce' });

  async function open(context: BrowserContext, path: string): Promise<Page> {
    const page = await context.newPage();
    await page.goto(`${env.app.url}${path}`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    return page;
  }

  const gameIdOf = (page: Page) =>
    page.evaluate(() => (globalThis as { __mahjong?: { sync: { gameId: string | null } } }).__mahjong!.sync.gameId);
  const sendNow = (page: Page) =>
    page.evaluate(() => (globalThis as { __mahjong?: { sendNow(): void } }).__mahjong!.sendNow());

  /**
   * Clicks the two tiles of a pair in the page (the board's own click handler; test/client/board-browser.test.ts
   * wins a game with Playwright's pointer clicks) and waits until the pair has left, at most 10 s.
   */
  async function playPair(page: Page, pair: readonly [number, number]): Promise<void> {
    const gone = await page.evaluate(async ([a, b]) => {
      const tileAt = (slot: number) => document.querySelector<HTMLElement>(`#board .tile[data-slot="${slot}"]`)!;
      tileAt(a).click();
      tileAt(b).click();
      for (const until = Date.now() + 10_000; Date.now() < until; await new Promise((r) => setTimeout(r, 10)))
        if (tileAt(b).hidden) return true;
      return false;
    }, pair);
    expect(gone, `pair ${pair.join(' ')} left the board`).toBe(true);
  }

  test('a whole game through 429 on every second batch, then 503s, then a dropped connection: won once, every move, no reload', async () => {
    const context = await newContext();
    const page = await open(context, '/play/turtle/sync-storm');
    await page.evaluate(() => ((globalThis as { __stayed?: boolean }).__stayed = true)); // gone if the page reloads
    const { deal } = await pageData(page);

    // The server's weather: 429 for every second batch, then three 503s, then one connection dropped.
    let batches = 0;
    const fates: string[] = [];
    await page.route('**/api/games/*/moves', async (route: Route) => {
      batches++;
      const fate =
        batches <= 12 ? (batches % 2 === 0 ? '429' : 'ok') : batches <= 15 ? '503' : batches === 16 ? 'drop' : 'ok';
      fates.push(fate);
      if (fate === '429')
        return route.fulfill({
          status: 429,
          headers: { 'retry-after': '1' },
          contentType: 'application/json',
          body: '{"error":"too many requests","code":"ERR_RATE_LIMITED"}',
        });
      if (fate === '503')
        return route.fulfill({
          status: 503,
          contentType: 'application/json',
          body: '{"error":"the server is restarting"}',
        });
      if (fate === 'drop') return route.abort('connectionreset');
      return route.continue();
    });

    const pairs = deal.solution;
    for (let i = 0; i < pairs.length; i++) {
      await playPair(page, pairs[i]!);
      if (i % 6 === 5 && i < pairs.length - 1) await sendNow(page); // time passing: a batch every few pairs
    }
    expect(await page.getAttribute('#board', 'data-status')).toBe('won');
    await expect.poll(() => page.textContent('#sync-status'), { timeout: 60_000 }).toBe('Saved');
    await expect.poll(() => page.isVisible('#win-panel [data-win="verified"]')).toBe(true);
    expect(await page.isVisible('#win-panel [data-win="saving"]')).toBe(false);
    expect(fates).toEqual(expect.arrayContaining(['429', '503', 'drop']));

    const row = gameRow((await gameIdOf(page))!)!;
    expect(row.result).toBe('won');
    expect(JSON.parse(row.moves_json)).toEqual(pairs.map(([a, b]) => ({ type: 'match', a, b })));
    expect(env.app.app.db!.prepare("SELECT COUNT(*) AS n FROM games WHERE result = 'won'").get()).toEqual({ n: 1 });
    expect(await page.evaluate(() => (globalThis as { __stayed?: boolean }).__stayed)).toBe(true);
    await context.close();
  }, 180_000);

  test('the win panel says "Saving your win…" until the server has it, and offline that it will be saved', async () => {
    const context = await newContext();
    const page = await open(context, '/play/garden/sync-panel');
    const { deal } = await pageData(page);
    let hold = true;
    await page.route('**/api/games/*/moves', async (route) => {
      while (hold) await new Promise((r) => setTimeout(r, 50));
      await route.continue();
    });
    for (const pair of deal.solution) await playPair(page, pair);
    await expect.poll(() => page.isVisible('#win-panel')).toBe(true);
    expect(await page.textContent('#win-panel [data-win="saving"]')).toBe('Saving your win…');
    expect(await page.isVisible('#win-panel [data-win="verified"]')).toBe(false);
    expect(await page.textContent('#sync-status')).toBe('Saving…');
    hold = false;
    await expect.poll(() => page.isVisible('#win-panel [data-win="verified"]')).toBe(true);
    expect(await page.textContent('#win-panel [data-win="verified"]')).toMatch(
      /^The server checked every move: your win is recorded/,
    );

    // Offline from the first move: the indicator and the panel say the win waits on this device.
    const other = await open(context, '/play/garden/sync-offline');
    await context.setOffline(true);
    for (const pair of (await pageData(other)).deal.solution) await playPair(other, pair);
    await expect.poll(() => other.textContent('#sync-status')).toBe('Offline — will save');
    expect(await other.textContent('#win-panel [data-win="saving"]')).toMatch(/kept on this device and will be saved/);
    await context.setOffline(false);
    await expect.poll(() => other.textContent('#sync-status'), { timeout: 15_000 }).toBe('Saved');
    expect(await other.isVisible('#win-panel [data-win="verified"]')).toBe(true);
    await context.close();
  }, 90_000);

  test('a tab closed mid-game, before its batch went: the link reopens with every move', async () => {
    const context = await newContext();
    await context.newPage(); // keeps the context (and its storage) open when the game's tab closes
    const page = await open(context, '/play/turtle/sync-close');
    const { deal } = await pageData(page);
    await playPair(page, deal.solution[0]!);
    await settled(page); // the server has the first pair
    // From here the network fails for this page, the last send as the tab closes included.
    await page.evaluate(() => {
      const env = (globalThis as { __mahjong?: { sync: { env: { fetch: unknown } } } }).__mahjong!.sync.env;
      env.fetch = () => Promise.reject(new TypeError('Failed to fetch'));
    });
    for (const pair of deal.solution.slice(1, 5)) await playPair(page, pair);
    const id = (await gameIdOf(page))!;
    await page.close({ runBeforeUnload: true });
    expect(gameRow(id)!.move_count).toBe(1);

    const again = await open(context, '/play/turtle/sync-close');
    const played = deal.solution.slice(0, 5);
    for (const [a, b] of played) {
      expect(await tile(again, a).isHidden()).toBe(true);
      expect(await tile(again, b).isHidden()).toBe(true);
    }
    expect(await again.getAttribute('#board', 'aria-label')).toBe(`Board, ${144 - 10} tiles left`);
    await settled(again);
    expect(JSON.parse(gameRow(id)!.moves_json)).toEqual(played.map(([a, b]) => ({ type: 'match', a, b })));
    await context.close();
  }, 90_000);

  test('"can this still be won?" asked offline reaches the server with the moves once the network is back', async () => {
    const context = await newContext();
    const page = await open(context, '/play/turtle/sync-check');
    const { deal } = await pageData(page);
    await playPair(page, deal.solution[0]!);
    await settled(page);
    const id = (await gameIdOf(page))!;
    // Offline-ready first: the service worker controls the page once it has kept every asset, the solver's script
    // among them (a page taken offline before that cannot start the solver: the test below).
    await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 30_000 });
    await context.setOffline(true);
    await playPair(page, deal.solution[1]!);
    await page.click('[data-action="check"]');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toMatch(/^Yes/);
    await sendNow(page);
    await expect.poll(() => page.textContent('#sync-status')).toMatch(/Offline/);
    const counts = () =>
      env.app.app.db!.prepare('SELECT move_count, checks, checks_no FROM games WHERE id = ?').get(id) as {
        move_count: number;
        checks: number;
        checks_no: number;
      };
    expect(counts()).toEqual({ move_count: 1, checks: 0, checks_no: 0 });
    await context.setOffline(false);
    await sendNow(page);
    await expect.poll(() => counts(), { timeout: 30_000 }).toEqual({ move_count: 3, checks: 1, checks_no: 0 });
    expect(JSON.parse(gameRow(id)!.moves_json)).toHaveLength(2); // counted, not logged
    await context.close();
  }, 90_000);

  test('hint and check offline before the solver could ever load: each says so, and online asks again and answers', async () => {
    // No service worker, and the network gone before the first question: the worker's script cannot be fetched.
    const context = await env.browser.newContext({
      viewport: { width: 1280, height: 860 },
      reducedMotion: 'reduce',
      serviceWorkers: 'block',
    });
    const page = await open(context, '/play/turtle/sync-nosolver');
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await context.setOffline(true);
    const failed = /^The solver needs the network/;
    await page.click('[data-action="check"]');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toMatch(failed);
    expect(await page.getAttribute('[data-action="check"]', 'aria-disabled')).toBeNull(); // not left "asking"
    await page.click('[data-action="hint"]');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toMatch(failed);
    expect(await page.locator('#board .tile[data-hint]').count()).toBe(0);
    await context.setOffline(false);
    await page.click('[data-action="check"]');
    await expect.poll(() => page.textContent('#message'), { timeout: 30_000 }).toMatch(/^Yes/);
    await page.click('[data-action="hint"]');
    await expect.poll(() => page.locator('#board .tile[data-hint]').count(), { timeout: 30_000 }).toBe(2);
    expect(errors).toEqual([]);
    await context.close();
  });
  test('two tabs on one game: the second gets a clear conflict message and the server position; nothing accepted is lost', async () => {
    const context = await newContext();
    const one = await open(context, '/play/turtle/sync-tabs');
    const { deal } = await pageData(one);
    await playPair(one, deal.solution[0]!);
    await settled(one);
    const two = await open(context, '/play/turtle/sync-tabs'); // the server renders the same game
    expect((await pageData(two)).game?.log).toHaveLength(1);

    await playPair(one, deal.solution[1]!);
    await settled(one);
    await playPair(two, deal.solution[2]!); // tab two has not seen tab one's second pair
    await sendNow(two);
    await expect.poll(() => two.textContent('#message')).toMatch(/another window.*server's position/);
    const expected: Move[] = deal.solution.slice(0, 2).map(([a, b]) => ({ type: 'match', a, b }));
    const log = await two.evaluate(
      () => (globalThis as { __mahjong?: { state: { game: { log: unknown[] } } } }).__mahjong!.state.game.log,
    );
    expect(log).toEqual(expected);
    expect(await tile(two, deal.solution[2]![0]).isHidden()).toBe(false); // its own pair is back: the server never took it
    expect(JSON.parse(gameRow((await gameIdOf(one))!)!.moves_json)).toEqual(expected);
    expect(await two.textContent('#sync-status')).toBe('Saved');
    await context.close();
  }, 90_000);
});
