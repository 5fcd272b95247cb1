/**
 * The play page on phones (docs/client.md, "Layout of the play page"; docs/contracts.md, "Phones"), in
 * Chromium with touch at a device scale of 3, as a phone shows it: at 390×844, 360×640 and 844×390 the
 * board's window (#board-view) takes most of the screen, the controls are in view and never over the
 * board, the whole turtle shows at Fit, nothing shifts after the first paint, and taps are sent as real
 * touch events over the DevTools protocol (Input.dispatchTouchEvent): two quick taps on two tiles are two
 * tile taps, never a zoom; a double tap on empty board space zooms. Screenshots go to screenshots/.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, CDPSession, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { FAMILIES } from '../../src/engine/builtins.ts';
import { appAndBrowser, HAS_CHROMIUM, pageData } from './browser.ts';

const SHOTS = new URL('../../screenshots/', import.meta.url).pathname;
const suite = HAS_CHROMIUM ? describe : describe.skip;

const PHONES = [
  { width: 390, height: 844, share: 0.65 }, // portrait: the board's window at least 65% of the height
  { width: 360, height: 640, share: 0.65 },
  { width: 844, height: 390, share: 0.8 }, // landscape: at least 80%
] as const;

/** Collects layout shifts from the first paint on (CLS as Lighthouse sums them: shifts without recent input). */
const CLS_PROBE = `
  window.__cls = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
`;

interface Rect {
  left: number;
  top: number;
  right: number;
  bottom: number;
  width: number;
  height: number;
}

const rectOf = (page: Page, selector: string): Promise<Rect> =>
  page.$eval(selector, (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left, top: r.top, right: r.right, bottom: r.bottom, width: r.width, height: r.height };
  });

/** The centre of a tile on screen, in CSS px. */
async function centre(page: Page, slot: number): Promise<{ x: number; y: number }> {
  const r = await rectOf(page, `#board .tile[data-slot="${slot}"]`);
  return { x: r.left + r.width / 2, y: r.top + r.height / 2 };
}

/** A tap as a finger makes it: touchStart and touchEnd at one point, through the DevTools protocol. */
/**
 * A tap: touch start and end 40 ms apart. The events carry their own time stamps (`at`, ms since the epoch; now
 * by default), so the page measures the taps as the test meant them however long a busy machine takes to deliver.
 */
async function tap(cdp: CDPSession, where: { x: number; y: number }, at = Date.now()): Promise<void> {
  const start = { type: 'touchStart' as const, touchPoints: [{ x: where.x, y: where.y, id: 1 }], timestamp: at / 1000 };
  await cdp.send('Input.dispatchTouchEvent', start);
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [], timestamp: (at + 40) / 1000 });
}

/** Two taps `gap` ms apart (start to start), as a quick player makes them. */
async function twoTaps(cdp: CDPSession, a: { x: number; y: number }, b: { x: number; y: number }, gap = 150) {
  const started = Date.now();
  await tap(cdp, a, started);
  await new Promise((done) => setTimeout(done, Math.max(0, gap - (Date.now() - started))));
  await tap(cdp, b, started + gap);
}

const zoomed = (page: Page): Promise<boolean> => page.$eval('#board-view', (el) => el.hasAttribute('data-zoomed'));

suite('the play page on phones, with touch', { timeout: 90_000 }, () => {
  const env = appAndBrowser();
  let context: BrowserContext | undefined;
  afterEach(async () => {
    await context?.close();
    context = undefined;
  });

  /** A page in a new phone context of `size` (touch, one device pixel per CSS pixel: layout, not pixels). */
  async function phonePage(size: { width: number; height: number }): Promise<Page> {
    context = await env.browser.newContext({
      viewport: { width: size.width, height: size.height },
      deviceScaleFactor: 1,
      hasTouch: true,
      isMobile: true,
    });
    return context.newPage();
  }

  async function open(seed: string, size: { width: number; height: number }): Promise<{ page: Page; cdp: CDPSession }> {
    context = await env.browser.newContext({
      viewport: { width: size.width, height: size.height },
      deviceScaleFactor: 3,
      hasTouch: true,
      isMobile: true,
    });
    await context.addInitScript(CLS_PROBE);
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    await page.goto(`${env.app.url}/play/turtle/${seed}`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    (page as Page & { errors: string[] }).errors = errors;
    return { page, cdp: await context.newCDPSession(page) };
  }

  test.each(PHONES)(
    '$width×$height: the board gets the screen, the bar is in view and never over it, no layout shift',
    async (size) => {
      const { page } = await open(`phone-${size.width}`, size);
      const view = await rectOf(page, '#board-view');
      expect(view.height / size.height, 'the board window share').toBeGreaterThanOrEqual(size.share);
      // The whole turtle at Fit, inside its window and the screen.
      const board = await rectOf(page, '#board');
      expect(board.left).toBeGreaterThanOrEqual(view.left - 1);
      expect(board.right).toBeLessThanOrEqual(Math.min(view.right, size.width) + 1);
      expect(board.top).toBeGreaterThanOrEqual(view.top - 1);
      expect(board.bottom).toBeLessThanOrEqual(Math.min(view.bottom, size.height) + 1);
      expect(await zoomed(page)).toBe(false);
      // Hint, Undo, Shuffle, − Fit + and the menu: on screen, 44 px tall, never over the board's window.
      const controls = await page.$$eval('.controls button', (els) =>
        els.map((el) => {
          const r = el.getBoundingClientRect();
          return {
            name: el.getAttribute('aria-label') ?? el.textContent,
            left: r.left,
            top: r.top,
            right: r.right,
            bottom: r.bottom,
            height: r.height,
          };
        }),
      );
      expect(controls.map((c) => c.name)).toEqual([
        'Hint',
        'Undo',
        'Shuffle',
        'Zoom out',
        'Fit the board',
        'Zoom in',
        'Menu: more controls, the rules, the theme',
      ]);
      for (const c of controls) {
        expect(c.left >= 0 && c.right <= size.width && c.top >= 0 && c.bottom <= size.height, c.name!).toBe(true);
        expect(c.height, c.name!).toBeGreaterThanOrEqual(44);
        const overlaps = c.left < view.right && c.right > view.left && c.top < view.bottom && c.bottom > view.top;
        expect(overlaps, `${c.name} over the board`).toBe(false);
      }
      // The page is the screen: nothing to scroll, and nothing moved after the first paint.
      expect(await page.evaluate(() => document.documentElement.scrollHeight)).toBeLessThanOrEqual(size.height);
      await page.waitForTimeout(1000);
      expect(await page.evaluate(() => (globalThis as { __cls?: number }).__cls)).toBeLessThanOrEqual(0.05);
      // The rules and the rest of the controls are one tap away, in the menu.
      await page.tap('.menu-toggle');
      await page.locator('#game-menu').waitFor({ state: 'visible' });
      for (const action of ['redo', 'new', 'check', 'share', 'pause', 'timer', 'sound'])
        expect(await page.isVisible(`#game-menu [data-action="${action}"]`), action).toBe(true);
      expect(await page.textContent('#game-menu .how-to')).toMatch(/Any flower matches any flower/);
      const menu = await rectOf(page, '#game-menu');
      expect(menu.top >= 0 && menu.bottom <= size.height).toBe(true);
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({ path: `${SHOTS}phone-${size.width}x${size.height}-menu.png` });
      await page.keyboard.press('Escape');
      await page.locator('#game-menu').waitFor({ state: 'hidden' });
      await page.screenshot({ path: `${SHOTS}phone-${size.width}x${size.height}.png` });
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
    },
  );

  test.each(PHONES)(
    '$width×$height: every action of the menu closes it, and its answer is on top (one tap each)',
    async (size) => {
      const { page, cdp } = await open(`phone-menu-${size.width}`, size);
      const { deal } = await pageData(page);
      const [a, b] = deal.solution[0]!;
      await tap(cdp, await centre(page, a));
      await tap(cdp, await centre(page, b));
      await expect.poll(() => page.textContent('[data-counter="left"]')).toBe('142');
      /** Whether the element's centre is what a tap there reaches (nothing, the sheet least of all, over it). */
      const onTop = (selector: string) =>
        page.evaluate((sel) => {
          const el = document.querySelector<HTMLElement>(sel);
          if (!el || el.offsetParent === null) return false;
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return hit !== null && el.contains(hit);
        }, selector);
      const fromMenu = async (action: string): Promise<void> => {
        const toggle = await page.locator('.menu-toggle').boundingBox();
        await tap(cdp, { x: toggle!.x + toggle!.width / 2, y: toggle!.y + toggle!.height / 2 });
        await page.locator('#game-menu').waitFor({ state: 'visible' });
        const button = await page.locator(`#game-menu [data-action="${action}"]`).boundingBox();
        await tap(cdp, { x: button!.x + button!.width / 2, y: button!.y + button!.height / 2 });
        await page.locator('#game-menu').waitFor({ state: 'hidden' });
      };
      await fromMenu('check'); // "Yes: …" or "No: …", never behind the sheet
      await expect.poll(() => page.textContent('#message')).toMatch(/^(Yes|No)/);
      expect(await onTop('#message')).toBe(true);
      await fromMenu('new'); // a game under way: "Start a new game?" with its two buttons
      await expect.poll(() => onTop('#notice [data-do="stay"]')).toBe(true);
      expect(await onTop('#notice [data-do="new!"]')).toBe(true);
      await page.locator('#notice [data-do="stay"]').tap();
      await fromMenu('pause');
      await expect.poll(() => onTop('.paused-note .button')).toBe(true);
      await page.locator('.paused-note .button').tap();
      expect(await page.getAttribute('#clock', 'data-paused')).toBeNull();
      await fromMenu('sound');
      expect(await page.getAttribute('[data-action="sound"]', 'aria-pressed')).toBe('true');
      expect((page as Page & { errors: string[] }).errors).toEqual([]);
    },
  );

  test.each(PHONES.slice(0, 2))(
    '$width×$height: a first visit’s main button (home, and stats with no games) deals an easy portrait deal; every portrait layout’s tiles are big at Fit',
    async (size) => {
      const page = await phonePage(size);
      await page.goto(`${env.app.url}/`);
      // The portrait family is offered first, and the page has no horizontal overflow.
      const firstLink = await page.$$eval('.family-nav li', (all) => {
        const at = (el: Element) => el.getBoundingClientRect();
        return all.sort((a, b) => at(a).top - at(b).top || at(a).left - at(b).left)[0]!.textContent;
      });
      expect(firstLink).toMatch(/Portrait/);
      const firstFamily = await page.$$eval(
        '.layouts > .family',
        (all) => all.sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top)[0]!.id,
      );
      expect(firstFamily).toBe('family-portrait');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(size.width);
      await page.locator('.button.primary').first().tap();
      await page.waitForURL(/\/play\/[a-z]+\/[A-Za-z0-9_-]+/);
      const { deal } = await pageData(page);
      const portrait = FAMILIES.find((f) => f.id === 'portrait')!.layouts.map((l) => l.id);
      expect(portrait).toContain(deal.layout);
      expect(deal.difficulty?.band).toBe('easy');
      // A player with no games meets the same first game from the stats page (its empty state's main button).
      await context!.clearCookies();
      await page.goto(`${env.app.url}/stats`);
      await page.locator('.empty-state .button.primary >> visible=true').tap();
      await page.waitForURL(/\/play\/[a-z]+\/[A-Za-z0-9_-]+/);
      const fromStats = (await pageData(page)).deal;
      expect(portrait).toContain(fromStats.layout);
      expect(fromStats.difficulty?.band).toBe('easy');
      // At Fit, the tiles of every portrait layout are at least 40 px wide at 390×844, 36 px at 360×640.
      const least = size.width === 390 ? 40 : 36;
      for (const id of portrait) {
        await page.goto(`${env.app.url}/play/${id}/big-tiles`);
        await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
        const width = await page.$eval('#board .tile', (el) => el.getBoundingClientRect().width);
        expect(width, id).toBeGreaterThanOrEqual(least);
        expect(await zoomed(page)).toBe(false);
      }
    },
  );

  test('two quick taps on two matching free tiles match them, and never zoom', async () => {
    const { page, cdp } = await open('phone-taps', PHONES[0]);
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    await twoTaps(cdp, await centre(page, a), await centre(page, b), 150);
    await expect.poll(() => page.getAttribute(`#board .tile[data-slot="${a}"]`, 'hidden')).toBe('');
    expect(await page.getAttribute(`#board .tile[data-slot="${b}"]`, 'hidden')).toBe('');
    expect(await page.textContent('[data-counter="left"]')).toBe('142');
    expect(await zoomed(page)).toBe(false);
  });

  test('two quick taps on neighbouring tiles under 30 px apart are two tile taps; a blocked tile tapped twice wobbles, never zooms', async () => {
    const { page, cdp } = await open('phone-neighbours', PHONES[0]);
    const { deal } = await pageData(page);
    // A free tile and its neighbour on the same row, closer than a double tap's slop.
    const picked = await page.evaluate((tiles) => {
      const free = [...document.querySelectorAll<HTMLElement>('#board .tile[data-free]')].map((el) =>
        Number(el.dataset.slot),
      );
      for (const i of free) {
        const t = tiles[i]!;
        const j = tiles.findIndex((u) => u.z === t.z && u.y === t.y && u.x === t.x + 2);
        if (j >= 0) return [i, j];
      }
      return null;
    }, deal.tiles);
    expect(picked).not.toBeNull();
    const [first, second] = picked!;
    const p = await centre(page, first!);
    const q = await centre(page, second!);
    expect(Math.hypot(p.x - q.x, p.y - q.y)).toBeLessThan(30);
    await twoTaps(cdp, p, q, 150);
    await expect.poll(() => page.textContent('#message')).not.toBe('');
    expect(await zoomed(page)).toBe(false);
    // The second tap was a tile tap: it selected (a free tile) or wobbled (a blocked one), never the first again.
    const secondFree = (await page.getAttribute(`#board .tile[data-slot="${second}"]`, 'data-free')) !== null;
    if (secondFree) expect(await page.getAttribute(`#board .tile[data-slot="${second}"]`, 'class')).toMatch(/selected/);
    else expect(await page.textContent('#message')).toMatch(/is blocked/);

    // A blocked tile, tapped twice quickly: it wobbles each time and the board stays fitted.
    const blocked = Number(await page.getAttribute('#board .tile:not([data-free])', 'data-slot'));
    const at = await centre(page, blocked);
    await twoTaps(cdp, at, at, 150);
    await expect.poll(() => page.textContent('#message')).toMatch(/is blocked/);
    expect(await zoomed(page)).toBe(false);
  });

  test('a double tap on the board’s empty space zooms in, and again back to fit', async () => {
    const { page, cdp } = await open('phone-empty', PHONES[0]);
    const view = await rectOf(page, '#board-view');
    const board = await rectOf(page, '#board');
    const empty = { x: view.left + view.width / 2, y: (view.top + board.top) / 2 }; // above the fitted board
    expect(
      await page.evaluate(({ x, y }) => document.elementFromPoint(x, y)?.closest('.tile') ?? null, empty),
    ).toBeNull();
    await twoTaps(cdp, empty, empty, 120);
    await expect.poll(() => zoomed(page)).toBe(true);
    const tile = await page.$eval('#board .tile', (el) => el.getBoundingClientRect().width);
    expect(tile).toBeGreaterThanOrEqual(40); // a comfortable touch target
    const zoomedView = await rectOf(page, '#board-view');
    expect(zoomedView.height).toBe(view.height); // zooming never moves the page around the board
    // Zoomed, the board fills its window: a spot of it with no tile (the turtle has gaps) zooms back.
    const gap = await page.evaluate((v) => {
      for (let y = v.top + 4; y < v.bottom; y += 6)
        for (let x = v.left + 4; x < v.right; x += 6) {
          const el = document.elementFromPoint(x, y);
          if (el?.closest('#board-view') && !el.closest('.tile')) return { x, y };
        }
      return null;
    }, zoomedView);
    expect(gap).not.toBeNull();
    await twoTaps(cdp, gap!, gap!, 120);
    await expect.poll(() => zoomed(page)).toBe(false);
  });

  test.each(PHONES)(
    '$width×$height: a classic deal’s title shows its name, seed and both badges (mode and band) whole',
    async (size) => {
      const page = await phonePage(size);
      await page.goto(`${env.app.url}/play/turtle/phone-badges?mode=classic`);
      await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
      const title = await page.$eval('.play-title', (el) => {
        const box = el.getBoundingClientRect();
        const whole = (sel: string) => {
          const r = el.querySelector(sel)?.getBoundingClientRect();
          return !!r && r.width > 0 && r.bottom <= box.bottom + 1 && r.right <= box.right + 1 && r.left >= box.left - 1;
        };
        // Clamped text that overflows shows an ellipsis: its content is taller than its box.
        return {
          fits: el.scrollHeight <= el.clientHeight + 1,
          band: whole('.badge.band'),
          badges: el.querySelectorAll('.badge').length,
        };
      });
      expect(title, `${size.width}×${size.height}`).toEqual({ fits: true, band: true, badges: 2 });
    },
  );

  test.each([PHONES[0], PHONES[2]])(
    '$width×$height in de, ru, vi, ja and ar: no word of the bar, the counters or the menu is broken or cut',
    async (size) => {
      const page = await phonePage(size);
      const modes: Record<string, string> = {};
      for (const lang of ['de', 'ru', 'vi', 'ja', 'ar']) {
        await page.context().addCookies([{ name: 'lang', value: lang, url: env.app.url }]);
        await page.goto(`${env.app.url}/play/turtle/phone-words`);
        await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
        await page.tap('.menu-toggle');
        await page.locator('#game-menu').waitFor({ state: 'visible' });
        const found = await page.evaluate(() => {
          const problems: string[] = [];
          const inside = (r: DOMRect, box: DOMRect) =>
            r.left >= box.left - 1 && r.right <= box.right + 1 && r.top >= box.top - 1 && r.bottom <= box.bottom + 1;
          /** Each word of `el` on one line (a word broken in two has two boxes), inside `box`. */
          const words = (el: Element, box: DOMRect, name: string) => {
            const walker = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
            for (let node = walker.nextNode(); node; node = walker.nextNode()) {
              for (const m of (node.textContent ?? '').matchAll(/\S+/g)) {
                const range = document.createRange();
                range.setStart(node, m.index);
                range.setEnd(node, m.index + m[0].length);
                const rects = [...range.getClientRects()].filter((r) => r.width > 0);
                if (rects.length !== 1) problems.push(`${name}: "${m[0]}" broken`);
                else if (!inside(rects[0]!, box)) problems.push(`${name}: "${m[0]}" cut`);
              }
            }
          };
          const bar = document.querySelector('.controls')!;
          const compact = bar.classList.contains('compact');
          for (const b of bar.querySelectorAll<HTMLElement>('button')) {
            const r = b.getBoundingClientRect();
            if (r.left < 0 || r.right > innerWidth || r.bottom > innerHeight)
              problems.push(`${b.dataset.action} off screen`);
            const label = b.querySelector('.label');
            const icon = b.querySelector('.icon');
            if (label && label.getBoundingClientRect().width > 1) words(label, r, `bar ${b.dataset.action}`);
            else if (icon && icon.getBoundingClientRect().width < 16)
              problems.push(`${b.dataset.action}: neither word nor sign`);
          }
          const counters = document.querySelector('.counters')!;
          for (const c of counters.children) words(c, counters.getBoundingClientRect(), 'counters');
          for (const b of document.querySelectorAll('#game-menu .menu-controls button'))
            words(b, b.getBoundingClientRect(), `menu ${(b as HTMLElement).dataset.action}`);
          return { problems, compact };
        });
        expect(found.problems, `${lang} ${size.width}×${size.height}`).toEqual([]);
        modes[lang] = found.compact ? 'signs' : 'words';
      }
      // Words where they fit; Russian's do not beside − Fit + and the menu in portrait: the signs then.
      if (size.width < size.height)
        expect(modes).toEqual({ de: 'words', ru: 'signs', vi: 'words', ja: 'words', ar: 'words' });
      else expect(Object.values(modes).every((m) => m === 'words')).toBe(true);
    },
  );
});
