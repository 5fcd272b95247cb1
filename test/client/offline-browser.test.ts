/**
 * Offline and installable in a real browser (docs/contracts.md, "Offline and installable"): with the
 * network gone, a deal link of a built-in layout opens (dealt in the browser: the same board the server deals) and
 * plays to a win, which waits in this browser, is listed on the stats page, and is sent and verified by the server
 * when the network returns. A new build's service worker replaces the old cache.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { BrowserContext, Page } from 'playwright-core';
import type { Deal, Mode } from '../../src/engine/index.ts';
import { PUBLIC_DIR } from '../../src/server/plugins/assets.ts';
import { appAndBrowser, clickPairs, HAS_CHROMIUM, launch } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

/** Opens `path` and waits until the page's script has the board. */
async function openBoard(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'), null, {
    timeout: 20_000,
  });
}

/** `promise`, or an error naming `what` after `ms` (page.evaluate has no timeout of its own: a step never hangs the test). */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, late]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Loads the home page and waits until the service worker controls it (and so has the app's files). A worker whose
 * install failed (one of its files not fetched, on a busy machine) is tried again on the next load, as a player's
 * next visit would: up to three loads.
 */
async function installed(page: Page, url: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${url}/`, { timeout: 20_000 });
    try {
      await page.waitForFunction(() => navigator.serviceWorker.controller !== null, null, { timeout: 15_000 });
      return;
    } catch (e) {
      if (attempt === 3) throw e;
    }
  }
}

/**
 * Closes a server of the deployment test. Connections the browser still holds open are cut after 5 s (the deploy is
 * under test here, not a graceful stop), and a close that still does not end fails the test by name.
 */
async function closeApp(app: {
  close(): PromiseLike<unknown>;
  server: { closeAllConnections(): void };
}): Promise<void> {
  const cut = setTimeout(() => app.server.closeAllConnections(), 5_000);
  try {
    await within(20_000, 'closing the server', Promise.resolve(app.close()));
  } finally {
    clearTimeout(cut);
  }
}

const pageDeal = (page: Page): Promise<Deal> =>
  page.evaluate(() => (globalThis as unknown as { __mahjong: { state: { deal: Deal } } }).__mahjong.state.deal);
const cacheNames = (page: Page): Promise<string[]> => page.evaluate(() => caches.keys());

suite('offline in Chromium', () => {
  const env = appAndBrowser();

  async function newContext(): Promise<BrowserContext> {
    return env.browser.newContext({ viewport: { width: 1280, height: 860 } });
  }

  test('offline: a built-in layout and seed opens and is played to a win, waits in the browser, and the server verifies it when the network returns', async () => {
    const context = await newContext();
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await installed(page, env.app.url);
    await openBoard(page, `${env.app.url}/play/turtle/online-first`);
    // The page's deal is kept for its link, written by the service worker (shell.ts keepDeal, sw.ts).
    const kept = (): Promise<unknown> =>
      page.evaluate(async () => {
        const found = await (await caches.open('mahjong-deals')).match('/api/deals/turtle/online-first');
        const body = found ? ((await found.json()) as { name: string; deal: { seed: string } }) : null;
        return body && { name: body.name, seed: body.deal.seed };
      });
    await expect.poll(kept).toEqual({ name: 'Turtle', seed: 'online-first' });
    await page.goto(`${env.app.url}/stats`); // kept by the service worker as last seen

    await context.setOffline(true);
    await openBoard(page, `${env.app.url}/play/garden/offline-win`);
    expect(await page.textContent('h1.play-title')).toBe('Garden deal offline-win');
    expect(await page.getAttribute('#board', 'data-layout')).toBe('garden');
    expect(await page.textContent('#message')).toContain('You are offline');
    const deal = await pageDeal(page);
    expect(deal).toMatchObject({ layout: 'garden', seed: 'offline-win', mode: 'relaxed' });
    expect(await page.locator('#board .tile:not([hidden])').count()).toBe(deal.tiles.length);

    // The solution comes with the deal the engine made here; the player plays it by clicking.
    await clickPairs(page, deal.solution);
    expect(await page.getAttribute('#board', 'data-status')).toBe('won');
    expect(await page.getAttribute('#sync-status', 'data-sync')).toBe('offline');
    expect(await page.isVisible('#win-panel')).toBe(true);
    expect(env.app.app.db!.prepare('SELECT COUNT(*) AS n FROM games').get()).toEqual({ n: 0 }); // nothing reached the server

    // The stats page (as last seen online) says what waits in this browser.
    await page.goto(`${env.app.url}/stats`);
    await expect.poll(() => page.getAttribute('#waiting', 'data-waiting')).toBe('1');
    expect(await page.textContent('#waiting li')).toBe(
      `Garden, deal offline-win: won, ${deal.solution.length} moves to send`,
    );
    expect(await page.textContent('#waiting [data-waiting="note"]')).toContain('You are offline');

    // The network returns: the waiting game is sent from this page, made on the server and replayed.
    await context.setOffline(false);
    await expect.poll(() => page.getAttribute('#waiting', 'data-waiting'), { timeout: 30_000 }).toBe('0');
    const stats = (await page.evaluate(() => fetch('/api/stats').then((r) => r.json()))) as {
      played: number;
      won: number;
      history: { layout: string; seed: string; result: string | null }[];
    };
    expect(stats).toMatchObject({ played: 1, won: 1 });
    expect(stats.history[0]).toMatchObject({ layout: 'garden', seed: 'offline-win', result: 'won' });
    const row = env.app.app.db!.prepare("SELECT moves_json, result FROM games WHERE result = 'won'").get() as {
      moves_json: string;
      result: string;
    };
    expect(JSON.parse(row.moves_json)).toEqual(deal.solution.map(([a, b]) => ({ type: 'match', a, b })));
    // The board the browser dealt is the one the server deals for that link.
    const server = (await page.evaluate(() => fetch('/api/deals/garden/offline-win').then((r) => r.json()))) as Deal;
    expect(server).toEqual(deal);
    expect(errors).toEqual([]);
    await context.close();
  }, 120_000);

  test("offline boards equal the server's for several layouts, seeds and both modes, with the player's switches; New game gets a fresh seed", async () => {
    const context = await newContext();
    const page = await context.newPage();
    await installed(page, env.app.url);
    await context.setOffline(true);
    const cases: [string, string, Mode][] = [
      ['turtle', 'eq-1', 'relaxed'],
      ['turtle', 'eq-2', 'classic'],
      ['pyramid', 'Eq_3', 'classic'],
      ['fortress', 'eq-4', 'relaxed'],
      ['butterfly', 'eq-5', 'classic'],
      ['spiral', 'x', 'relaxed'],
    ];
    const dealt: Deal[] = [];
    for (const [layout, seed, mode] of cases) {
      await openBoard(page, `${env.app.url}/play/${layout}/${seed}${mode === 'classic' ? '?mode=classic' : ''}`);
      dealt.push(await pageDeal(page));
      // The board on the page is the deal: every tile in its slot with its face.
      const faces = await page.$$eval('#board .tile', (els) =>
        els.map((el) => [Number((el as HTMLElement).dataset.slot), (el as HTMLElement).dataset.face]),
      );
      expect(faces.length).toBe(dealt.at(-1)!.tiles.length);
      for (const [slot, face] of faces) expect(face).toBe(dealt.at(-1)!.tiles[slot as number]!.face);
    }
    // The switches kept in the prefs cookie hold offline too (the cached page has none of them rendered).
    await context.addCookies([{ name: 'mj_prefs', value: 'timer-off.highlight-off', url: env.app.url }]);
    await openBoard(page, `${env.app.url}/play/turtle/eq-1`);
    expect(await page.getAttribute('html', 'data-highlight')).toBe('off');
    expect(await page.getAttribute('.counters', 'data-timer')).toBe('off');
    expect(await page.isVisible('.counters [data-counter="time"]')).toBe(false);
    await context.clearCookies({ name: 'mj_prefs' });
    await page.goto(`${env.app.url}/play/heart?mode=classic`); // "New game": the service worker picks the seed
    expect(page.url()).toMatch(/\/play\/heart\/[A-Za-z0-9]{8}\?mode=classic$/);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    await context.setOffline(false);
    for (const [i, [layout, seed, mode]] of cases.entries()) {
      const res = await fetch(`${env.app.url}/api/deals/${layout}/${seed}?mode=${mode}`);
      expect(dealt[i], `${layout} ${seed} ${mode}`).toEqual(await res.json());
    }
    await context.close();
  }, 120_000);
});

suite('a new deployment in Chromium', () => {
  test("a new build's service worker takes over and deletes the old cache; the offline page then loads the new files", async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mahjong-sw-'));
    const publicDir = join(dir, 'public');
    cpSync(PUBLIC_DIR, publicDir, { recursive: true });
    const { buildApp } = await import('../../src/server/app.ts');
    const start = async (port: number) => {
      const app = buildApp({
        databasePath: join(dir, 'test.db'),
        logger: false,
        cookieSecret: 'x'.repeat(32),
        rateLimit: false,
        publicDir,
      });
      await app.listen({ port, host: '127.0.0.1' });
      return app;
    };
    let app = await start(0);
    const port = (app.server.address() as { port: number }).port;
    const url = `http://127.0.0.1:${port}`;
    const browser = await within(30_000, 'starting Chromium', launch());
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      await installed(page, url);
      const before = await within(10_000, 'caches.keys()', cacheNames(page));
      expect(before).toEqual([`mahjong-${app.assets.version}`]);
      const oldCss = app.assets.url('site.css')!;

      // Deploy a new build: a changed stylesheet under a new hashed name (so a new manifest and version).
      await closeApp(app);
      const manifestFile = join(publicDir, 'build', 'manifest.json');
      const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, string>;
      const newName = 'build/site.0ff1ce00.css';
      writeFileSync(
        join(publicDir, newName),
        `${readFileSync(join(publicDir, manifest['site.css']!), 'utf8')}\n/* deployed again */\n`,
      );
      rmSync(join(publicDir, manifest['site.css']!)); // the old build's files are gone from the server
      writeFileSync(manifestFile, JSON.stringify({ ...manifest, 'site.css': newName }));
      app = await start(port);
      expect(app.assets.version).not.toBe(before[0]!.slice('mahjong-'.length));

      // Online, pages come from the network: the new page asks for the new stylesheet at once.
      await page.reload({ timeout: 20_000 });
      expect(await page.getAttribute('link[rel="stylesheet"]', 'href')).toBe(`/static/${newName}`);
      // Asks for the new worker now (a browser does on its own within a day); its install is awaited through the caches.
      await within(
        10_000,
        'the registration',
        page.evaluate(() =>
          navigator.serviceWorker.getRegistration().then((r) => {
            void r?.update().catch(() => undefined);
          }),
        ),
      );
      await expect
        .poll(() => within(5_000, 'caches.keys()', cacheNames(page)), { timeout: 30_000 })
        .toEqual([`mahjong-${app.assets.version}`]);

      // Offline, the kept offline page is the new build's, with its files in the cache.
      await context.setOffline(true);
      await openBoard(page, `${url}/play/garden/after-deploy`);
      expect(await page.getAttribute('link[rel="stylesheet"]', 'href')).toBe(`/static/${newName}`);
      expect(await page.evaluate(() => getComputedStyle(document.querySelector('.site-header')!).display)).toBe('flex'); // styled
      expect(oldCss).not.toBe(`/static/${newName}`);
      await context.close();
    } finally {
      await within(20_000, 'closing the browser', browser.close());
      await closeApp(app);
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});
