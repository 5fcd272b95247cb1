/**
 * Helpers for the real-browser tests: Debian's Chromium driven by playwright-core, and the app on a
 * random port with a fresh database.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import type { Deal, Move } from '../../src/engine/index.ts';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

if (!HAS_CHROMIUM)
  console.warn(`\n*** ${CHROMIUM} is missing: the client's browser tests are SKIPPED (apt-get install chromium) ***\n`);

/** The sizes screenshots are reviewed at (scripts/theme-shots.ts, scripts/layout-shots.ts): desktop, portrait and landscape phone. */
export const REVIEW_SIZES = [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'portrait', width: 390, height: 844 },
  { name: 'landscape', width: 844, height: 390 },
] as const;

/** Every width from a small phone to a large desktop (docs/contracts.md, "Phones"): the sizes the width tests visit. */
export const WIDTH_SIZES = [
  { width: 320, height: 568 },
  { width: 360, height: 640 },
  { width: 390, height: 844 },
  { width: 844, height: 390 },
  { width: 768, height: 1024 },
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
  { width: 1920, height: 1080 },
] as const;

/** A browser context of a review size: a phone's (touch, mobile viewport) below 900 px wide. */
export const reviewContext = (browser: Browser, size: (typeof REVIEW_SIZES)[number]) =>
  browser.newContext({
    viewport: { width: size.width, height: size.height },
    hasTouch: size.width < 900,
    isMobile: size.width < 900,
  });

export async function launch(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
}

export interface Running {
  readonly url: string; // http://127.0.0.1:<port>
  readonly app: import('fastify').FastifyInstance; // for looking at the database
  close(): Promise<void>;
}

/**
 * The real app (src/server/app.ts) on a random port with a database in a temporary folder. The first game's
 * lesson stays shut unless `tutorial` (tutorial-browser.test.ts): the other tests play as returning players.
 */
export async function startApp({ tutorial = false } = {}): Promise<Running> {
  const dir = mkdtempSync(join(tmpdir(), 'mahjong-client-'));
  const { buildApp } = await import('../../src/server/app.ts');
  const app = buildApp({
    databasePath: join(dir, 'test.db'),
    logger: false,
    cookieSecret: 'x'.repeat(32),
    rateLimit: false,
    tutorial,
  });
  const url = await app.listen({ port: 0, host: '127.0.0.1' });
  return {
    url: url.replace('localhost', '127.0.0.1'),
    app,
    close: async () => {
      await app.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface PageData {
  deal: Deal;
  game: { id: string; log: Move[]; startedAt: number } | null;
}

export const pageData = (page: Page): Promise<PageData> =>
  page.$eval('#deal-data', (el) => JSON.parse(el.textContent!) as PageData);

export const tile = (page: Page, slot: number) => page.locator(`#board .tile[data-slot="${slot}"]`);

/**
 * Plays `pairs` by clicking their tiles inside the page (the element's click, which the board handles as it
 * handles a tap or a mouse click), and checks after each pair that both tiles left the board. Playwright's
 * pointer clicks wait for each tile to be in view and still, which a whole game pays 144 times; this is for the
 * games whose subject is not the pointer (board-browser.test.ts wins a whole game with real pointer clicks).
 */
export async function clickPairs(page: Page, pairs: readonly (readonly [number, number])[]): Promise<void> {
  const stayed = await page.evaluate((list) => {
    const at = (slot: number) => document.querySelector<HTMLElement>(`#board .tile[data-slot="${slot}"]`);
    const gone = (slot: number) => {
      const el = at(slot);
      return el !== null && (el.hidden || el.classList.contains('leaving'));
    };
    for (const [a, b] of list) {
      at(a)?.click();
      at(b)?.click();
      if (!gone(a) || !gone(b)) return `${a} ${b}`;
    }
    return null;
  }, pairs);
  expect(stayed, 'the pair that stayed on the board').toBeNull();
}

/** Sends what the page has waiting now (not after the batch delay), and waits until the server has it all. */
export const settled = async (page: Page): Promise<unknown> => {
  await page.evaluate(() => (globalThis as { __mahjong?: { sendNow?: () => void } }).__mahjong?.sendNow?.());
  return page.waitForFunction(() => {
    const s = (globalThis as { __mahjong?: { sync?: { acked: number; log: unknown[]; inFlight: boolean } } }).__mahjong;
    return s?.sync ? s.sync.acked >= s.sync.log.length && !s.sync.inFlight : true;
  });
};

/**
 * The app and Chromium for a describe block: started before its tests, closed after them. Read
 * `env.app` and `env.browser` inside tests.
 */
export function appAndBrowser(): { app: Running; browser: Browser } {
  const env = {} as { app: Running; browser: Browser };
  beforeAll(async () => {
    [env.app, env.browser] = await Promise.all([startApp(), launch()]);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.app?.close();
  });
  return env;
}

/**
 * Plays a game of a deal through the API from the page, as a script would (all at once: unranked):
 * its first `pairs` pairs of the solution, or all of them. Returns the moves API's answer.
 */
export const playByScript = (
  page: Page,
  layout: string,
  seed: string,
  pairs?: number,
): Promise<Record<string, unknown>> =>
  page.evaluate(
    async ([layout, seed, pairs]) => {
      const post = (url: string, body: unknown) =>
        fetch(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(body),
        }).then((r) => r.json());
      const g = await post('/api/games', { layout, seed });
      const solution = (g.solution as number[][]).slice(0, pairs ?? undefined);
      return post(`/api/games/${g.id}/moves`, { moves: solution.map(([a, b]) => ({ type: 'match', a, b })) });
    },
    [layout, seed, pairs ?? null] as const,
  );
