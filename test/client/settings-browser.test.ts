/**
 * The play page's feedback and settings in Chromium (docs/client.md, "The menu's switches" and "Restart this
 * deal"): restart takes every move back as undos after a question, the free tiles' highlight can be switched
 * off (kept in the prefs cookie and rendered by the server), the switches keep their names and say their state
 * with aria-pressed, the win panel's personal best agrees with the times it shows, and a reload goes on with
 * your clock from the time shown, not from the last move's.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, pageData, settled } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

/** m:ss (or h:mm:ss) → whole seconds. */
const seconds = (text: string): number => text.split(':').reduce((total, part) => total * 60 + Number(part), 0);

suite('feedback and settings in Chromium', () => {
  const env = appAndBrowser();
  let context: BrowserContext | null = null;

  afterEach(async () => {
    await context?.close();
    context = null;
  });

  /** A fresh player (new cookie) on a turtle deal, the script running; errors and failed requests collected. */
  async function open(seed: string, viewport = { width: 1440, height: 900 }): Promise<Page & { errors: string[] }> {
    context = await env.browser.newContext({ viewport });
    const page = (await context.newPage()) as Page & { errors: string[] };
    page.errors = [];
    page.on('pageerror', (e) => page.errors.push(e.message));
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) page.errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${env.app.url}/play/turtle/${seed}`);
    await live(page);
    return page;
  }
  const live = (page: Page) => page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
  const gameRow = (id: string) =>
    env.app.app.db!.prepare('SELECT move_count, tiles_left, undos, play_ms FROM games WHERE id = ?').get(id) as {
      move_count: number;
      tiles_left: number;
      undos: number;
      play_ms: number | null;
    };
  const gameId = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { __mahjong: { state: { gameId: string } } }).__mahjong.state.gameId);

  test('restart asks first, then takes every move back as undos: all tiles back, not clean, the server agrees', async () => {
    const page = await open('restart');
    const { deal } = await pageData(page);
    const restart = page.locator('[data-action="restart"]');
    expect(await restart.textContent()).toBe('Restart this deal');
    expect(await restart.getAttribute('aria-disabled')).toBe('true'); // no move yet
    await restart.click({ force: true }); // Playwright waits for an aria-disabled button to be enabled
    expect(await page.isVisible('#notice')).toBe(false);
    await clickPairs(page, deal.solution.slice(0, 2));
    await expect.poll(() => page.locator('#board .tile:not([hidden])').count()).toBe(140); // once they have left
    expect(await restart.getAttribute('aria-disabled')).toBeNull();

    await restart.click();
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await notice.locator('p').textContent()).toMatch(/^Restart this deal\? Every move is undone/);
    expect(await notice.locator('button').allTextContents()).toEqual(['Restart', 'Keep playing']);
    await notice.getByRole('button', { name: 'Keep playing' }).click(); // nothing happens
    expect(await notice.isVisible()).toBe(false);
    await expect.poll(() => page.locator('#board .tile:not([hidden])').count()).toBe(140); // once they have left

    await restart.click();
    await notice.getByRole('button', { name: 'Restart' }).click();
    await expect.poll(() => page.locator('#board .tile:not([hidden])').count()).toBe(144);
    const faces = await page.$$eval('#board .tile', (els) =>
      els
        .sort((a, b) => Number((a as HTMLElement).dataset.slot) - Number((b as HTMLElement).dataset.slot))
        .map((el) => (el as HTMLElement).dataset.face),
    );
    expect(faces).toEqual(deal.tiles.map((t) => t.face)); // the deal's own board
    expect(await page.textContent('#message')).toBe('Back to the start of the deal: 2 moves undone.');
    expect(await restart.getAttribute('aria-disabled')).toBe('true'); // nothing left to take back
    expect(await page.getAttribute('[data-action="redo"]', 'aria-disabled')).toBeNull(); // redo plays them again
    expect(await page.getAttribute('#clock', 'data-ms')).not.toBe('0'); // your clock runs on
    await settled(page);
    const id = await gameId(page);
    expect(gameRow(id)).toMatchObject({ move_count: 4, tiles_left: 144, undos: 2 }); // as two undos: not clean
    expect(page.errors).toEqual([]);
  });

  test('the free tiles’ highlight switches off and on without a reload, and a reload keeps it', async () => {
    const page = await open('highlight');
    /** How a tile of the bottom layer looks: its lift, its face's rim, its overlay (dimmed or lit). */
    const lookOf = (selector: string) =>
      page.$eval(selector, (el) => ({
        transform: getComputedStyle(el).transform,
        rim: getComputedStyle(el.querySelector('.face')!).boxShadow,
        overlay: getComputedStyle(el, '::after').backgroundColor,
      }));
    const look = () => lookOf('#board .tile[data-free][style$="--z:0"]');
    const blocked = () => lookOf('#board .tile:not([data-free])[style$="--z:0"]');
    const lit = await look();
    expect(lit.transform).not.toBe('none'); // lifted, with the warm rim
    expect(await blocked()).not.toEqual(lit); // a blocked tile looks otherwise
    const button = page.locator('[data-action="highlight"]');
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    expect(await page.getAttribute('html', 'data-highlight')).toBeNull();

    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await page.getAttribute('html', 'data-highlight')).toBe('off');
    await expect.poll(async () => (await look()).transform).toBe('none'); // the lift's transition is short
    const plain = await look();
    expect(plain.rim).not.toBe(lit.rim);
    // Free and blocked tiles now look alike; data-free still says which are free.
    expect(await blocked()).toEqual(plain);
    expect(await page.locator('#board .tile[data-free]').count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => document.cookie)).toContain('highlight-off');

    await page.reload();
    await live(page);
    const html = await page.evaluate(() => fetch(location.href).then((r) => r.text()));
    expect(html).toMatch(/<html [^>]*data-highlight="off"/); // rendered by the server: no flash
    expect(await page.getAttribute('[data-action="highlight"]', 'aria-pressed')).toBe('false');
    expect(await look()).toEqual(plain);

    await page.click('[data-action="highlight"]');
    expect(await page.getAttribute('html', 'data-highlight')).toBeNull();
    await expect.poll(look).toEqual(lit);
    expect(page.errors).toEqual([]);
  });

  test('the switches keep their names and say their state with aria-pressed, drawn on the switch', async () => {
    const page = await open('switches');
    for (const [action, name] of [
      ['timer', 'Show timer'],
      ['sound', 'Sound'],
      ['highlight', 'Highlight free tiles'],
    ] as const) {
      const button = page.locator(`[data-action="${action}"]`);
      const state = () =>
        button.evaluate((el) => ({
          pressed: el.getAttribute('aria-pressed'),
          name: el.textContent,
          track: getComputedStyle(el, '::after').backgroundColor,
        }));
      const before = await state();
      expect(before.name).toBe(name);
      expect(['true', 'false']).toContain(before.pressed);
      await button.click();
      await expect.poll(async () => (await state()).track).not.toBe(before.track); // the switch shows it (after its transition)
      const after = await state();
      expect(after.name).toBe(name);
      expect(after.pressed).toBe(before.pressed === 'true' ? 'false' : 'true');
      expect(await page.getByRole('button', { name, pressed: after.pressed === 'true' }).count()).toBe(1);
    }
    expect(page.errors).toEqual([]);
  });

  test('the personal best’s gain is the difference of the times shown', async () => {
    const page = await open('best-second');
    // A first win on the turtle by this player, whose own time (playMs) was 0:55.
    await page.evaluate(async () => {
      const post = (url: string, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json() as Promise<Record<string, unknown>>);
      const g = await post('/api/games', { layout: 'turtle', seed: 'best-first' });
      const moves = (g.solution as number[][]).map(([a, b]) => ({ type: 'match', a, b }));
      const won = await post(`/api/games/${String(g.id)}/moves`, { at: 0, moves, playMs: 55_000 });
      if (won.status !== 'won') throw new Error(JSON.stringify(won));
    });
    const { deal } = await pageData(page);
    await clickPairs(page, deal.solution.slice(0, 1));
    await page.waitForTimeout(1300); // a time with milliseconds: what made 0:26 of 0:55 − 0:28
    await clickPairs(page, deal.solution.slice(1));
    const best = page.locator('#win-panel [data-win="best"]');
    await best.waitFor({ state: 'visible' });
    const yours = seconds((await page.textContent('#win-panel [data-win="your-time"]'))!);
    const text = (await best.textContent())!;
    const [, gain, before] = /: (\d+:\d\d) faster than your (\d+:\d\d)\.$/.exec(text) ?? [];
    expect(before, text).toBe('0:55');
    expect(seconds(gain!)).toBe(55 - yours);
    expect(page.errors).toEqual([]);
  });

  test('a reload goes on with your clock from the time shown, not from the last move’s', async () => {
    const page = await open('reload-clock');
    const { deal } = await pageData(page);
    await clickPairs(page, deal.solution.slice(0, 1));
    await settled(page); // the server heard your time at the move: about 0:00
    const ms = async () => Number(await page.getAttribute('#clock', 'data-ms')); // drawn once a second
    await expect.poll(ms).toBeGreaterThanOrEqual(3000);
    const shown = await ms();
    const heard = gameRow(await gameId(page)).play_ms ?? 0;
    expect(heard).toBeLessThan(1500);
    await page.reload();
    await live(page);
    expect(Number(await page.getAttribute('#clock', 'data-ms'))).toBeGreaterThanOrEqual(shown);
    expect(seconds((await page.textContent('#clock'))!)).toBeGreaterThanOrEqual(3);
    // Still ticking from there, and the next batch tells the server.
    await clickPairs(page, deal.solution.slice(1, 2));
    await settled(page);
    expect(gameRow(await gameId(page)).play_ms).toBeGreaterThanOrEqual(shown);
    expect(page.errors).toEqual([]);
  });
});
