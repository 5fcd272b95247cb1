/**
 * A hard deal picked on the home page's difficulty form, played to the win in Chromium, its replay shared from
 * the win panel and watched in a fresh browser (docs/server.md, "Replays"): the win panel announces the
 * achievements the win earned (the hard band's among them) and gives the replay link; the replay steps with its
 * links, with the arrow keys, Home and End, and without script as plain pages.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled, tile } from './browser.ts';

const visibleTiles = (page: Page): Promise<number> => page.locator('#board .tile:not([hidden])').count();
const moveOf = (page: Page): number => Number(new URL(page.url()).searchParams.get('move'));

(HAS_CHROMIUM ? describe : describe.skip)('replays in a browser', () => {
  const env = appAndBrowser();

  test('play to the win, share the replay from the win panel, step through it in a fresh browser', async () => {
    const player = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    await player.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.app.url });
    const play = await player.newPage();
    // A new hard deal from the home page's difficulty links (fish: about a deal in four is hard, so the server's
    // search of up to 64 seeds finds one).
    await play.goto(`${env.app.url}/`);
    const details = play.locator('details.band-details:has(a[href="/play/fish?difficulty=hard"])');
    await details.locator('> summary').click(); // the disclosure opens
    await details.locator('a[href="/play/fish?difficulty=hard"]').click();
    await play.waitForURL(/\/play\/fish\/[^/?#]+$/);
    const seed = decodeURIComponent(new URL(play.url()).pathname.split('/')[3]!);
    await play.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    const { deal } = await pageData(play);
    expect(deal.difficulty.band).toBe('hard');
    const [first, ...rest] = deal.solution;
    // The first pair, then the second taken back with Undo, then the whole solution from the second on.
    await tile(play, first![0]).click();
    await tile(play, first![1]).click();
    await tile(play, rest[0]![0]).click();
    await tile(play, rest[0]![1]).click();
    await play.locator('[data-action="undo"]').first().click();
    await clickPairs(play, rest);
    await settled(play);
    const panel = play.locator('#win-panel');
    await expect.poll(() => panel.isVisible()).toBe(true);
    await play.locator('[data-win="verified"]').waitFor({ state: 'visible' });
    // The server's answer to the winning batch said what the win earned: a first win (not clean: an undo).
    const earned = play.locator('[data-win="achievements"] li');
    await expect.poll(() => earned.count()).toBeGreaterThan(0);
    const ids = await earned.evaluateAll((items) => items.map((li) => (li as HTMLElement).dataset.achievement));
    expect(ids).toContain('first-win');
    expect(ids).toContain('band-hard'); // the band the deal was dealt in, as the server stored it with the game
    expect(ids).not.toContain('first-clean-win');
    // Share replay: the link is copied and shown in the panel.
    await play.locator('[data-do="share-replay"]').click();
    const link = play.locator('[data-win="replay"] a');
    await link.waitFor({ state: 'visible' });
    const href = (await link.getAttribute('href'))!;
    expect(href).toMatch(/^\/replay\/[A-Za-z0-9_-]{22}$/);
    expect(await play.evaluate(() => navigator.clipboard.readText())).toBe(`${env.app.url}${href}`);
    const moves = deal.solution.length + 2; // two pairs more, and the undo

    // A fresh browser: no cookie of the player's.
    const viewer = await env.browser.newContext({ viewport: { width: 1440, height: 900 } });
    const watch = await viewer.newPage();
    const errors: string[] = [];
    watch.on('pageerror', (e) => errors.push(e.message));
    await watch.goto(`${env.app.url}${href}`);
    await watch.locator('button[data-action="play"]').waitFor({ state: 'visible' }); // the script is running
    const all = deal.tiles.length;
    expect(await visibleTiles(watch)).toBe(all);
    expect(await watch.locator('#board').getAttribute('data-status')).toBe('playing');
    expect(await watch.locator('#board .tile:not([disabled])').count()).toBe(0); // watched, not played

    // Next and Back as links, handled in place.
    await watch.locator('a[data-step="next"]').click();
    expect(moveOf(watch)).toBe(1);
    expect(await visibleTiles(watch)).toBe(all - 2);
    expect(await watch.locator('.tile-ghost').count()).toBe(2); // the pair move 1 took, outlined
    await watch.locator('a[data-step="next"]').click();
    expect(moveOf(watch)).toBe(2);
    expect(await visibleTiles(watch)).toBe(all - 4);
    // The arrow keys: move 3 is the undo, which puts the pair back.
    await watch.locator('body').press('ArrowRight');
    expect(moveOf(watch)).toBe(3);
    expect(await visibleTiles(watch)).toBe(all - 2);
    expect(await watch.textContent('[data-replay="what"]')).toMatch(/^Move 3: Undo/);
    expect(await watch.locator('#board .tile[data-restored]').count()).toBe(2);
    await watch.locator('body').press('ArrowLeft');
    expect(moveOf(watch)).toBe(2);
    await watch.locator('a[data-step="prev"]').click();
    expect(moveOf(watch)).toBe(1);
    await watch.locator('body').press('End');
    expect(moveOf(watch)).toBe(moves);
    expect(await visibleTiles(watch)).toBe(0);
    expect(await watch.locator('#board').getAttribute('data-status')).toBe('won');
    expect(await watch.getAttribute('a[data-step="next"]', 'aria-disabled')).toBe('true');
    await watch.locator('body').press('Home');
    expect(moveOf(watch)).toBe(0);
    expect(await visibleTiles(watch)).toBe(all);
    // Play steps on by itself; Space pauses it.
    await watch.locator('button[data-action="play"]').click();
    await expect.poll(() => moveOf(watch), { timeout: 10_000 }).toBeGreaterThanOrEqual(2);
    await watch.locator('button[data-action="play"]').click();
    const paused = moveOf(watch);
    await watch.waitForTimeout(1500);
    expect(moveOf(watch)).toBe(paused);
    // What the script shows is what the server renders for that move (move 3, the undo, put a pair back).
    const shown = await visibleTiles(watch);
    expect(shown).toBe(all - 2 * (paused < 3 ? paused : paused - 2));
    await watch.reload();
    expect(moveOf(watch)).toBe(paused);
    expect(await visibleTiles(watch)).toBe(shown);
    expect(errors).toEqual([]);
    await viewer.close();

    // In Arabic: the words are the catalog's, the steps mirror (Back on the right, → steps back), the board does not.
    const arabic = await env.browser.newContext({ viewport: { width: 390, height: 844 } });
    await arabic.addCookies([{ name: 'lang', value: 'ar', url: env.app.url }]);
    const rtl = await arabic.newPage();
    await rtl.goto(`${env.app.url}${href}?move=2`);
    await rtl.locator('button[data-action="play"]').waitFor({ state: 'visible' });
    expect(await rtl.getAttribute('html', 'dir')).toBe('rtl');
    expect(await rtl.textContent('[data-replay="what"]')).toMatch(/^النقلة 2: /);
    const back = (await rtl.locator('a[data-step="prev"]').boundingBox())!;
    const on = (await rtl.locator('a[data-step="next"]').boundingBox())!;
    expect(back.x).toBeGreaterThan(on.x);
    expect(await rtl.locator('#board-view').evaluate((el) => getComputedStyle(el).direction)).toBe('ltr');
    await rtl.locator('body').press('ArrowRight');
    expect(moveOf(rtl)).toBe(1);
    await rtl.locator('body').press('ArrowLeft');
    await rtl.locator('body').press('ArrowLeft');
    expect(moveOf(rtl)).toBe(3);
    expect(await rtl.textContent('[data-replay="what"]')).toMatch(/^النقلة 3: تراجع/);
    await arabic.close();

    // Without script: the steps are plain links to the server's pages.
    const bare = await env.browser.newContext({ javaScriptEnabled: false });
    const page = await bare.newPage();
    await page.goto(`${env.app.url}${href}?move=2`);
    await page.locator('a[data-step="next"]').click();
    await page.waitForURL(/move=3$/);
    expect(await visibleTiles(page)).toBe(all - 2);
    await page.locator('a[data-step="prev"]').click();
    await page.waitForURL(/move=2$/);
    expect(await visibleTiles(page)).toBe(all - 4);
    await bare.close();

    // The player's stats list the achievement with the game that earned it.
    await play.goto(`${env.app.url}/stats`);
    const held = play.locator('#achievements [data-achievement="first-win"][data-earned]');
    expect(await held.textContent()).toContain(seed);
    const hard = play.locator('#achievements [data-achievement="band-hard"][data-earned]');
    expect(await hard.textContent()).toContain(seed);
    await player.close();
  }, 180_000); // a whole game played by clicks, then watched in three browsers: minutes on a busy machine
});
