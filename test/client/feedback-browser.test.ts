/**
 * The board's feedback in Chromium (SPEC §14, "Feedback"): a free tile that does not match the selection gives a
 * short cue on both tiles and says so in the live region; a shuffle flies each face from its old place to its
 * new one (FLIP), and so does its undo; none of it moves under prefers-reduced-motion.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { afterEach, describe, expect, test } from 'vitest';
import { canMatch, type Face } from '../../src/engine/index.ts';
import { appAndBrowser, HAS_CHROMIUM, settled, tile } from './browser.ts';

const suite = HAS_CHROMIUM ? describe : describe.skip;

interface Seen {
  slot: number;
  cue: string | null; // data-nomatch
  animation: string; // the tile's animation-name then
  rim: string; // the face's box-shadow then
}

suite('feedback on the board in Chromium', () => {
  const env = appAndBrowser();
  let context: BrowserContext | null = null;
  afterEach(async () => {
    await context?.close();
    context = null;
  });

  /** A fresh player on a turtle deal; `reduce`: with prefers-reduced-motion. */
  async function open(seed: string, reduce = false): Promise<Page> {
    context = await env.browser.newContext({
      viewport: { width: 1440, height: 900 },
      reducedMotion: reduce ? 'reduce' : 'no-preference',
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    Object.assign(page, { errors });
    await page.goto(`${env.app.url}/play/turtle/${seed}`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    return page;
  }

  /** Two free tiles that do not match. */
  async function mismatched(page: Page): Promise<[number, number]> {
    const free = await page.$$eval('#board .tile[data-free]', (els) =>
      els.map((el) => [Number(el.getAttribute('data-slot')), el.getAttribute('data-face')!] as const),
    );
    for (const [a, fa] of free)
      for (const [b, fb] of free) if (a !== b && !canMatch(fa as Face, fb as Face)) return [a, b];
    throw new Error('no two free tiles that do not match');
  }

  /** Records every change of data-nomatch on the board's tiles, with the style the tile had then. */
  const watchCues = (page: Page): Promise<void> =>
    page.evaluate(() => {
      const seen: unknown[] = [];
      Object.assign(window, { cuesSeen: seen });
      new MutationObserver((records) => {
        for (const r of records) {
          const el = r.target as HTMLElement;
          seen.push({
            slot: Number(el.dataset.slot),
            cue: el.getAttribute('data-nomatch'),
            animation: getComputedStyle(el).animationName,
            rim: getComputedStyle(el.querySelector('.face')!).boxShadow,
          });
        }
      }).observe(document.getElementById('board')!, {
        subtree: true,
        attributes: true,
        attributeFilter: ['data-nomatch'],
      });
    });
  const cuesSeen = (page: Page): Promise<Seen[]> =>
    page.evaluate(() => (window as unknown as { cuesSeen: Seen[] }).cuesSeen);

  test('two free tiles that do not match: both shake with a red rim, the live region says so, the second is selected', async () => {
    const page = await open('nomatch');
    const [a, b] = await mismatched(page);
    const names = await Promise.all([a, b].map((slot) => tile(page, slot).getAttribute('aria-label')));
    const [nameA, nameB] = names.map((n) => n!.replace(/, free$/, ''));
    await watchCues(page);
    await tile(page, a).click();
    await tile(page, b).click();
    expect(await page.textContent('#message')).toBe(`${nameB} does not match ${nameA}. ${nameB} selected.`);
    expect(await tile(page, b).getAttribute('aria-pressed')).toBe('true');
    expect(await tile(page, a).getAttribute('aria-pressed')).toBe('false');
    const seen = await cuesSeen(page);
    for (const slot of [a, b]) {
      const on = seen.find((s) => s.slot === slot && s.cue !== null);
      expect(on, `tile ${slot} had a cue`).toBeDefined();
      expect(on!.animation).toMatch(/^tile-nomatch-[ab]$/);
      expect(on!.rim).toContain('rgb(198, 40, 40)'); // --tile-miss, light theme
    }
    // the cue is short: both attributes are gone within a moment
    await page.waitForFunction(() => document.querySelectorAll('#board .tile[data-nomatch]').length === 0, null, {
      timeout: 2000,
    });
    expect(seen.filter((s) => s.cue !== null).length).toBe(2); // one cue a tile, no flicker
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
  });

  test('under prefers-reduced-motion the cue is the colour alone', async () => {
    const page = await open('nomatch-calm', true);
    const [a, b] = await mismatched(page);
    await watchCues(page);
    await tile(page, a).click();
    await tile(page, b).click();
    expect(await page.textContent('#message')).toMatch(/ does not match /);
    const on = (await cuesSeen(page)).filter((s) => s.cue !== null);
    expect(on.map((s) => s.slot).sort()).toEqual([a, b].sort());
    for (const s of on) {
      expect(s.animation).toBe('none');
      expect(s.rim).toContain('rgb(198, 40, 40)');
    }
  });

  /**
   * Shuffles (or undoes) by the control's own click inside the page and, at once, reads what the tiles show: the
   * flying ones, their animations, and for each whether it starts where its face was before (the FLIP's first
   * frame: its box, translated, over the box of a slot that had its face).
   */
  const flightOf = (page: Page, action: 'shuffle' | 'undo') =>
    page.evaluate((action) => {
      const tiles = [...document.querySelectorAll<HTMLElement>('#board .tile[data-slot]')].filter((el) => !el.hidden);
      const before = new Map(tiles.map((el) => [el, { face: el.dataset.face, box: el.getBoundingClientRect() }]));
      document.querySelector<HTMLElement>(`[data-action="${action}"]`)!.click();
      const moving = tiles.filter((el) => el.hasAttribute('data-moving'));
      const width = tiles[0]!.getBoundingClientRect().width;
      const fromOld = moving.filter((el) => {
        const box = el.getBoundingClientRect(); // at the animation's start: where the face was
        return tiles.some((other) => {
          const was = before.get(other)!;
          return (
            was.face === el.dataset.face &&
            Math.abs(was.box.left - box.left) < width * 0.1 &&
            Math.abs(was.box.top - box.top) < width * 0.1
          );
        });
      });
      return {
        changed: tiles.filter((el) => before.get(el)!.face !== el.dataset.face).length,
        moving: moving.length,
        animated: moving.filter((el) =>
          el.getAnimations().some((anim) => (anim as CSSAnimation).animationName?.startsWith('tile-fly')),
        ).length,
        fromOld: fromOld.length,
        animatedAll: tiles.reduce((n, el) => n + el.getAnimations().length, 0),
      };
    }, action);

  test('a shuffle flies every face that moved from its old place to its new one, and undo flies them back', async () => {
    const page = await open('fly');
    const shuffled = await flightOf(page, 'shuffle');
    expect(shuffled.changed).toBeGreaterThan(100);
    expect(shuffled.moving).toBe(shuffled.changed);
    expect(shuffled.animated).toBe(shuffled.moving);
    expect(shuffled.fromOld).toBe(shuffled.moving);
    expect(await page.textContent('#message')).toMatch(/^Shuffled\. \d+ pairs? to play\.$/);
    // the flight is short: it lands by itself
    await page.waitForFunction(() => document.querySelectorAll('#board .tile[data-moving]').length === 0, null, {
      timeout: 2000,
    });
    const undone = await flightOf(page, 'undo');
    expect(undone.moving).toBe(undone.changed);
    expect(undone.animated).toBe(undone.moving);
    expect(undone.fromOld).toBe(undone.moving);
    await settled(page);
    expect((page as Page & { errors: string[] }).errors).toEqual([]);
  });

  test('input during the flight works: a pick lands the tiles at once and picks the tile', async () => {
    const page = await open('fly-pick');
    const picked = await page.evaluate(() => {
      document.querySelector<HTMLElement>('[data-action="shuffle"]')!.click();
      const flying = document.querySelectorAll('#board .tile[data-moving]').length;
      const free = document.querySelector<HTMLElement>('#board .tile[data-free][data-moving]')!;
      free.click();
      return {
        flying,
        after: document.querySelectorAll('#board .tile[data-moving]').length,
        selected: free.getAttribute('aria-pressed'),
      };
    });
    expect(picked.flying).toBeGreaterThan(0);
    expect(picked).toMatchObject({ after: 0, selected: 'true' });
  });

  test('under prefers-reduced-motion a shuffle changes the faces in place', async () => {
    const page = await open('fly-calm', true);
    const shuffled = await flightOf(page, 'shuffle');
    expect(shuffled.changed).toBeGreaterThan(100);
    expect(shuffled).toMatchObject({ moving: 0, animated: 0, animatedAll: 0 });
    expect(await page.textContent('#message')).toMatch(/^Shuffled\./);
  });

  test('the CSS alone keeps a tile still under prefers-reduced-motion', async () => {
    const page = await open('fly-css', true);
    // as if the script had not asked matchMedia: the stylesheet turns the flight off by itself
    const names = await page.evaluate(() => {
      const el = document.querySelector<HTMLElement>('#board .tile[data-free]')!;
      el.style.setProperty('--fx', '1');
      el.style.setProperty('--fy', '0');
      el.dataset.moving = 'a';
      const flying = getComputedStyle(el).animationName;
      el.dataset.nomatch = 'a';
      return [flying, getComputedStyle(el).animationName];
    });
    expect(names).toEqual(['none', 'none']);
  });
});
