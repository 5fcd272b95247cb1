/**
 * The board in a real browser (Debian's Chromium, headless, via playwright-core) against the real app
 * on a random port with a fresh database: a whole turtle game won by clicking, play by keyboard only,
 * hint, shuffle, undo/redo, the wobble and the page without script. Screenshots for review:
 * scripts/board-shots.ts.
 */
import { mkdirSync } from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  availablePairs,
  canMatch,
  deal,
  geometryOfDeal,
  makeRng,
  newGame,
  solve,
  statusOf,
  winnability,
  type Deal,
  type Face,
  type Pair,
} from '../../src/engine/index.ts';
import { layoutById } from '../../src/engine/builtins.ts';
import { makeState, moveFocus, pickTile, type Dir, type HeadlessState } from '../../src/client/state.ts';
import { appAndBrowser, HAS_CHROMIUM, pageData, settled, tile } from './browser.ts';

const SHOTS = new URL('../../screenshots/', import.meta.url).pathname;
const SIZES = [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
  { width: 844, height: 390 },
] as const;

const suite = HAS_CHROMIUM ? describe : describe.skip;

const turtle = layoutById('turtle')!;

suite('the board in Chromium', () => {
  const env = appAndBrowser();
  let context: BrowserContext;

  /** A fresh player (new cookie) on a turtle deal. */
  async function open(seed: string, viewport: { width: number; height: number } = SIZES[0]): Promise<Page> {
    context = await env.browser.newContext({ viewport });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    page.on('console', (m) => {
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) errors.push(m.text());
    });
    page.on('response', (r) => {
      if (r.status() >= 400 && !r.url().endsWith('/favicon.ico')) errors.push(`${r.status()} ${r.url()}`);
    });
    await page.goto(`${env.app.url}/play/turtle/${seed}`); // waits for the load event: stylesheets are in
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    (page as Page & { errors: string[] }).errors = errors;
    return page;
  }
  const errorsOf = (page: Page): string[] => (page as Page & { errors: string[] }).errors;

  test('a whole turtle game won by clicking the deal solution', async () => {
    const page = await open('click-win');
    const { deal } = await pageData(page);
    expect(deal.tiles).toHaveLength(144);
    expect(await page.getAttribute('#deal-stats', 'data-won')).toBe('0');
    expect(await page.locator('#board .tile[data-free]').count()).toBeGreaterThan(0);
    // Real pointer clicks at each tile's centre; `force` skips Playwright's wait for two still animation frames
    // (a pair leaving animates beside the next tile), not the click.
    for (const [a, b] of deal.solution) {
      await tile(page, a).click({ force: true });
      await tile(page, b).click({ force: true });
    }
    await expect.poll(() => page.getAttribute('#board', 'data-status')).toBe('won');
    await page.locator('#win-panel').waitFor({ state: 'visible' });
    expect(await page.textContent('#win-panel h2')).toBe('A clean win!');
    expect(await page.textContent('#win-panel [data-win="your-time"]')).toMatch(/^\d+:\d\d$/);
    expect(await page.locator('#win-panel a.button[href="/stats"]').count()).toBe(1);
    expect(await page.locator('#win-panel a[data-win="new"][href^="/play/turtle"]').count()).toBe(1);
    expect(await page.getAttribute('#win-panel a[data-win="band"]', 'href')).toMatch(/^\/play\/turtle\?difficulty=/);
    expect(await page.textContent('#message')).toMatch(/Board cleared/);
    expect(await page.textContent('[data-counter="left"]')).toBe('0');
    await settled(page);
    await expect.poll(() => page.textContent('#win-panel [data-win="best"]')).toBe('Your first win on this layout.');
    // The deal's record counts the win at once, without a reload (its ranked time too, clicked at a person's pace or not).
    await expect.poll(() => page.getAttribute('#deal-stats', 'data-won')).toBe('1');
    expect(await page.textContent('#deal-stats .deal-stats-counts')).toBe('Opened by 1 · won by 1');
    expect(await page.getByRole('button', { name: 'Share this deal' }).isVisible()).toBe(true);
    const stats = await page.evaluate(async () => (await fetch('/api/stats')).json());
    expect(stats).toMatchObject({ won: 1 });
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  }, 90_000);

  test('a game played by keyboard only', async () => {
    const page = await open('keyboard');
    const { deal } = await pageData(page);
    // The same headless state runs here in lockstep, to plan which arrows reach a tile.
    const mirror = makeState({ deal, game: null }, Date.now());
    const path = (s: HeadlessState, to: number): Dir[] => {
      // breadth-first over arrow presses, from the current focus
      const start = s.focus;
      const seen = new Map<number | null, Dir[]>([[start, []]]);
      const queue: (number | null)[] = [start];
      while (queue.length) {
        const at = queue.shift()!;
        if (at === to) return seen.get(at)!;
        for (const dir of ['left', 'right', 'up', 'down'] as const) {
          const probe = { ...s, focus: at } as HeadlessState;
          const next = moveFocus(probe, dir);
          if (!seen.has(next)) {
            seen.set(next, [...seen.get(at)!, dir]);
            queue.push(next);
          }
        }
      }
      throw new Error(`tile ${to} cannot be reached by arrows`);
    };
    const KEYS: Record<Dir, string> = { left: 'ArrowLeft', right: 'ArrowRight', up: 'ArrowUp', down: 'ArrowDown' };
    const PAIRS = 5;
    for (const [a, b] of deal.solution.slice(0, PAIRS)) {
      for (const [slot, key] of [
        [a, 'Enter'],
        [b, ' '],
      ] as const) {
        for (const dir of path(mirror, slot)) {
          await page.keyboard.press(KEYS[dir]);
          moveFocus(mirror, dir);
        }
        expect(await page.evaluate(() => document.activeElement?.getAttribute('data-slot'))).toBe(String(slot));
        await page.keyboard.press(key);
        pickTile(mirror, slot, Date.now());
      }
    }
    expect(await page.textContent('[data-counter="left"]')).toBe(String(144 - 2 * PAIRS));
    expect(await page.getAttribute(`#board .tile[data-slot="${deal.solution[0]![0]}"]`, 'hidden')).not.toBeNull();
    // Z undoes, Y redoes, H hints, all without a mouse
    await page.keyboard.press('z');
    await expect.poll(() => page.textContent('[data-counter="left"]')).toBe(String(144 - 2 * PAIRS + 2));
    await page.keyboard.press('Control+z');
    await expect.poll(() => page.textContent('[data-counter="left"]')).toBe(String(144 - 2 * PAIRS + 4));
    await page.keyboard.press('y');
    await page.keyboard.press('y');
    await expect.poll(() => page.textContent('[data-counter="left"]')).toBe(String(144 - 2 * PAIRS));
    await page.keyboard.press('h');
    await expect.poll(() => page.locator('#board .tile[data-hint]').count()).toBe(2);
    expect(await page.textContent('#message')).toMatch(/^Hint: /);
    // the focused tile has a visible focus ring
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement!).outlineStyle);
    expect(outline).toBe('solid');
    await settled(page);
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  });

  test('keyboard: a skip link to the board, the first arrow moves, Escape clears the selection and its message, N keeps focus on the board', async () => {
    const page = await open('skip-link');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Skip to the board');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    const first = await page.evaluate(() => document.activeElement?.getAttribute('data-slot'));
    expect(first).not.toBeNull(); // two tab stops to the first tile
    await page.keyboard.press('ArrowRight');
    const moved = await page.evaluate(() => document.activeElement?.getAttribute('data-slot'));
    expect(moved).not.toBeNull();
    expect(moved).not.toBe(first); // the first arrow after tabbing in moves
    await page.keyboard.press('Enter');
    expect(await page.textContent('#message')).toMatch(/ selected\.$/);
    await page.keyboard.press('Escape');
    expect(await page.textContent('#message')).toBe('');
    expect(await page.locator('#board .tile.selected').count()).toBe(0);
    await page.keyboard.press('n');
    await page.waitForURL((url) => !url.pathname.endsWith('/skip-link'));
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    await expect.poll(() => page.evaluate(() => document.activeElement?.matches('#board .tile') ?? false)).toBe(true);
    await context.close();
  });

  test('from 1024 px wide the controls make a column: turtle tiles of 50 px or more at 1280×720, how to play in view', async () => {
    const page = await open('a-long-seed-of-32-characters-xyz', { width: 1280, height: 720 });
    const m = await measure(page);
    expect(m.tile).toBeGreaterThanOrEqual(50);
    expect(m.sh).toBeLessThanOrEqual(720);
    const how = page.locator('.how-to');
    expect(await how.isVisible()).toBe(true);
    const box = (await how.boundingBox())!;
    expect(box.y + 40).toBeLessThanOrEqual(720); // the rules begin above the fold
    // Where the column goes on past the fold, it says so (a shade at its bottom edge: cue.ts).
    if (box.y + box.height > 720) expect(await page.getAttribute('.play-side', 'data-more')).toMatch(/below/);
    expect(await how.textContent()).toMatch(/Any flower matches any flower/);
    expect(await page.getAttribute('[data-action="hint"]', 'title')).toBe('Show a pair (H)');
    await context.close();
  });

  test("the phone home page starts with Play and Today's deal above the fold", async () => {
    context = await env.browser.newContext({ viewport: SIZES[1] });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/`);
    for (const name of ['New game', "Today's deal"]) {
      const box = (await page.getByRole('link', { name, exact: true }).boundingBox())!;
      expect(box.y + box.height, name).toBeLessThanOrEqual(SIZES[1].height / 2);
      expect(box.height, name).toBeGreaterThanOrEqual(44);
    }
    await context.close();
  });

  test('hint highlights a legal pair', async () => {
    const page = await open('hint');
    await page.click('[data-action="hint"]');
    const hinted = page.locator('#board .tile[data-hint]');
    await expect.poll(() => hinted.count()).toBe(2);
    const [x, y] = await hinted.evaluateAll((els) =>
      els.map((el) => ({
        face: el.getAttribute('data-face'),
        free: el.hasAttribute('data-free'),
        label: el.getAttribute('aria-label'),
      })),
    );
    expect(x!.free && y!.free).toBe(true);
    expect(canMatch(x!.face as Face, y!.face as Face)).toBe(true);
    expect(x!.label).toMatch(/, free$/);
    expect(await page.textContent('[data-counter="hints"]')).toBe('1');
    await context.close();
  });

  test('shuffle changes the faces and keeps the board finishable', async () => {
    const page = await open('shuffle');
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    await tile(page, a).click();
    await tile(page, b).click();
    await expect.poll(() => tile(page, b).isHidden()).toBe(true);
    const facesNow = (): Promise<(string | null)[]> =>
      page.$$eval('#board .tile', (els: HTMLElement[]) => {
        const faces: (string | null)[] = [];
        for (const el of els)
          faces[Number(el.getAttribute('data-slot'))] = el.hidden ? null : el.getAttribute('data-face');
        return faces;
      });
    const before = await facesNow();
    await page.click('[data-action="shuffle"]');
    await expect.poll(() => page.textContent('[data-counter="shuffles"]')).toBe('1');
    const after = await facesNow();
    expect(after.map((f) => f === null)).toEqual(before.map((f) => f === null)); // same tiles on the board
    expect(after.filter((f, i) => f !== before[i]).length).toBeGreaterThan(10); // faces moved
    expect([...after].filter(Boolean).sort()).toEqual([...before].filter(Boolean).sort()); // the same faces
    const geom = geometryOfDeal(deal);
    const present = Uint8Array.from(after, (f) => (f === null ? 0 : 1));
    expect(solve(geom, present, after as (Face | null)[], { seed: 'check' }).result).toBe('solvable');
    await settled(page);
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  });

  test('undo and redo', async () => {
    const page = await open('undo');
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    expect(await page.getAttribute('[data-action="undo"]', 'aria-disabled')).toBe('true');
    await tile(page, a).click();
    await tile(page, b).click();
    await expect.poll(() => tile(page, a).isHidden()).toBe(true);
    await page.click('[data-action="undo"]');
    expect(await page.textContent('[data-counter="left"]')).toBe('144');
    expect(await tile(page, a).isVisible()).toBe(true);
    expect(await tile(page, b).getAttribute('data-free')).toBe('');
    await page.click('[data-action="redo"]');
    expect(await page.textContent('[data-counter="left"]')).toBe('142');
    await expect.poll(() => tile(page, b).isHidden()).toBe(true);
    expect(await page.getAttribute('[data-action="redo"]', 'aria-disabled')).toBe('true');
    await settled(page);
    // a reload shows the same position, from the server
    await page.reload();
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.textContent('[data-counter="left"]')).toBe('142');
    expect(await tile(page, a).isHidden()).toBe(true);
    await page.click('[data-action="undo"]'); // the undo stack survived the reload
    expect(await page.textContent('[data-counter="left"]')).toBe('144');
    expect(await tile(page, a).isVisible()).toBe(true);
    await settled(page);
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  });

  /** Random legal play (seeded) on a deal until it is stuck, with the solver's verdict, or null if it was won. */
  function playToStuck(deal: Deal): { path: Pair[]; left: number; undoSteps: number | null; ms: number } | null {
    const start = newGame(deal);
    if (!start.ok) throw new Error(start.message);
    let game = start.value;
    const rng = makeRng(deal.seed, 'test-play');
    const path: Pair[] = [];
    while (statusOf(game) === 'playing') {
      const pairs = availablePairs(game);
      const [a, b] = pairs[rng.int(pairs.length)]!;
      const next = applyMove(game, { type: 'match', a, b });
      if (!next.ok) throw new Error(next.message);
      game = next.value;
      path.push([a, b]);
    }
    if (game.left === 0) return null;
    const t = performance.now();
    const w = winnability(game);
    return { path, left: game.left, undoSteps: w.undoSteps, ms: performance.now() - t };
  }

  test('stuck: a calm notice with Shuffle and Undo; "can this still be won?" offers the undo back', async () => {
    // A deal where random play gets stuck and the solver finds the last winnable position quickly, looked for with
    // the engine here (the server deals the same board), then opened.
    let found: (NonNullable<ReturnType<typeof playToStuck>> & { seed: string; dealt: Deal }) | null = null;
    for (let k = 0; k < 20 && !found; k++) {
      const dealt = deal(turtle, `stuck-${k}`);
      if (!dealt.ok) throw new Error(dealt.message);
      const run = playToStuck(dealt.value.deal);
      if (run && run.undoSteps !== null && run.ms < 1500)
        found = { ...run, seed: `stuck-${k}`, dealt: dealt.value.deal };
    }
    expect(found).not.toBeNull();
    const { path, left, undoSteps, seed, dealt } = found!;
    const p = await open(seed);
    expect((await pageData(p)).deal.tiles).toEqual(dealt.tiles);
    for (const [a, b] of path) {
      await tile(p, a).click({ force: true });
      await tile(p, b).click({ force: true });
    }
    await expect.poll(() => p.getAttribute('#board', 'data-status')).toBe('stuck');
    expect(await p.textContent('[data-counter="left"]')).toBe(String(left));
    expect(await p.textContent('[data-counter="pairs"]')).toBe('0');
    const notice = p.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    // At once the plain notice; once the page's own solver has answered (test/client/coach-stuck-browser.test.ts),
    // the same notice says why the win was lost and offers the way back.
    // Its words and buttons read at one moment: the answer may come between two reads.
    const [said, buttons] = await notice.evaluate(
      (el) =>
        [
          el.querySelector('p')?.textContent ?? '',
          [...el.querySelectorAll('button')].map((b) => b.textContent ?? ''),
        ] as const,
    );
    if (said.startsWith('No moves left: the win was lost')) {
      expect(buttons).toContain('Shuffle');
    } else {
      expect(said).toBe('No moves left. Shuffle the tiles or undo a few moves.');
      expect(buttons).toEqual(['Shuffle', 'Undo']);
    }
    expect(await p.textContent('#message')).toBe(''); // said once, in the notice
    // The notice paints over the board's tiles: the topmost element at its centre is the notice.
    const onTop = await notice.evaluate((el) => {
      const r = el.getBoundingClientRect();
      return el.contains(document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2));
    });
    expect(onTop).toBe(true);
    expect(await p.textContent('body')).not.toMatch(/game over/i);

    await p.click('[data-action="check"]');
    const back = notice.getByRole('button', { name: `Undo ${undoSteps} move${undoSteps === 1 ? '' : 's'}` });
    await back.waitFor({ timeout: 60_000 }); // the solver may take seconds, more on a busy machine
    expect(await notice.locator('p').textContent()).toMatch(
      new RegExp(`^No: the win was lost ${undoSteps} moves? ago`),
    );
    expect(await p.textContent('#message')).toBe('');
    await back.click();
    expect(await p.textContent('[data-counter="left"]')).toBe(String(left + 2 * undoSteps!));
    await p.click('[data-action="check"]');
    await expect
      .poll(() => p.textContent('#message'), { timeout: 60_000 })
      .toMatch(/^Yes: this position can still be cleared/);

    // back to the stuck position with redo, then out of it with the notice's Shuffle
    for (let i = 0; i < undoSteps!; i++) await p.keyboard.press('y');
    await expect.poll(() => p.getAttribute('#board', 'data-status')).toBe('stuck');
    await notice.getByRole('button', { name: 'Shuffle' }).click();
    await expect.poll(() => p.getAttribute('#board', 'data-status')).toBe('playing');
    expect(await p.textContent('[data-counter="shuffles"]')).toBe('1');
    await settled(p);
    expect(errorsOf(p)).toEqual([]);
    await context.close();
  }, 180_000);

  test('share copies the link to this deal; new game goes to a fresh deal of the layout', async () => {
    const page = await open('share-me');
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: env.app.url });
    await page.click('[data-action="share"]');
    await expect.poll(() => page.textContent('#message')).toMatch(/^Link copied/);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${env.app.url}/play/turtle/share-me`);
    await page.keyboard.press('n');
    await page.waitForURL(
      (url) => /\/play\/turtle\/[A-Za-z0-9_-]+$/.test(url.pathname) && !url.pathname.endsWith('/share-me'),
    );
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect((await pageData(page)).deal.seed).not.toBe('share-me');
    await context.close();
  });

  test('new game during a game asks first; the game left stays resumable', async () => {
    const page = await open('ask-first');
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    await tile(page, a).click();
    await tile(page, b).click();
    await page.keyboard.press('n');
    const notice = page.locator('#notice');
    await notice.waitFor({ state: 'visible' });
    expect(await notice.locator('p').textContent()).toMatch(/^Start a new game\? This one stays unfinished/);
    expect(await notice.locator('button').allTextContents()).toEqual(['New game', 'Keep playing']);
    await notice.getByRole('button', { name: 'Keep playing' }).click();
    expect(await notice.isVisible()).toBe(false);
    expect(page.url()).toMatch(/\/ask-first$/);
    await page.click('[data-action="new"]');
    await notice.getByRole('button', { name: 'New game' }).click();
    await page.waitForURL((url) => !url.pathname.endsWith('/ask-first'));
    await page.goto(`${env.app.url}/`);
    expect(await page.locator('.card-link.resume').getAttribute('href')).toBe('/play/turtle/ask-first');
    await context.close();
  });

  test('pause (and P) hides the board and stops your clock; the timer can be hidden; both kept across a reload', async () => {
    const page = await open('pause');
    const { deal } = await pageData(page);
    expect(await page.getAttribute('#clock', 'data-ms')).toBe('0');
    await page.waitForTimeout(1200);
    expect(await page.textContent('#clock')).toBe('0:00'); // your clock starts with your first move
    const [a, b] = deal.solution[0]!;
    await tile(page, a).click();
    await tile(page, b).click();
    await page.waitForTimeout(1100);
    await page.keyboard.press('p');
    expect(await tile(page, deal.solution[1]![0]).isVisible()).toBe(false);
    expect(await page.isVisible('.paused-note')).toBe(true);
    expect(await page.getAttribute('#clock', 'data-paused')).toBe('');
    const ms = Number(await page.getAttribute('#clock', 'data-ms'));
    expect(ms).toBeGreaterThanOrEqual(1000);
    const time = await page.textContent('#clock');
    await page.waitForTimeout(2200);
    expect(await page.textContent('#clock')).toBe(time); // paused: your clock stands
    expect(Number(await page.getAttribute('#clock', 'data-ms'))).toBe(ms);
    expect(await page.textContent('.paused-note')).toContain('your clock stopped'); // said once, on the board
    expect(await page.textContent('#message')).not.toContain('your clock stopped');
    await page.keyboard.press('h'); // nothing acts on a hidden board
    expect(await page.locator('#board .tile[data-hint]').count()).toBe(0);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.isVisible('.paused-note')).toBe(true); // the server rendered it paused
    expect(await page.textContent('[data-action="pause"]')).toBe('Resume');
    expect(await page.getAttribute('#clock', 'data-paused')).toBe('');
    // The pause belongs to this deal: another deal (and a new one) opens playing, this one stays paused.
    await page.goto(page.url().replace(/pause[^/?]*$/, 'pause-other'));
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.isVisible('.paused-note')).toBe(false);
    expect(await page.getAttribute('#clock', 'data-paused')).toBeNull();
    expect(await page.textContent('[data-action="pause"]')).toBe('Pause');
    await page.goBack();
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.isVisible('.paused-note')).toBe(true);
    await page.click('.paused-note button');
    expect(await tile(page, deal.solution[1]![0]).isVisible()).toBe(true);
    expect(await page.getAttribute('#clock', 'data-paused')).toBeNull();
    await page.click('[data-action="timer"]');
    expect(await page.isVisible('[data-counter="time"]')).toBe(false);
    await page.reload();
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.isVisible('[data-counter="time"]')).toBe(false);
    expect(await page.getAttribute('[data-action="timer"]', 'aria-pressed')).toBe('false');
    expect(await page.textContent('[data-action="timer"]')).toBe('Show timer'); // a switch keeps its name
    expect(await page.isVisible('.paused-note')).toBe(false);
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  });

  test('sound is off by default; one switch turns it on, and it is remembered', async () => {
    const page = await open('sound');
    const button = page.locator('[data-action="sound"]');
    expect(await button.getAttribute('aria-pressed')).toBe('false');
    expect(await button.textContent()).toBe('Sound'); // a switch keeps its name; aria-pressed says on or off
    await button.click();
    expect(await button.getAttribute('aria-pressed')).toBe('true');
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    await tile(page, a).click();
    await tile(page, b).click(); // a match with sound on: no error
    await page.reload();
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    expect(await page.locator('[data-action="sound"]').getAttribute('aria-pressed')).toBe('true');
    expect(await page.locator('[data-action="sound"]').textContent()).toBe('Sound');
    expect(errorsOf(page)).toEqual([]);
    await context.close();
  });

  test('a click on a blocked tile wobbles it and selects nothing', async () => {
    const page = await open('wobble');
    const blocked = page.locator('#board .tile:not([data-free])').first();
    expect(await blocked.getAttribute('aria-label')).toMatch(/, blocked$/);
    // The wobble ends by itself (a busy machine may read the class after it has gone): record what the tile
    // looked like while it had the class.
    await blocked.evaluate((el) => {
      const seen: string[] = [];
      Object.assign(window, { wobbleSeen: seen });
      new MutationObserver(() => {
        if (el.classList.contains('wobble')) seen.push(getComputedStyle(el).animationName);
      }).observe(el, { attributes: true, attributeFilter: ['class'] });
    });
    await blocked.click();
    expect(await page.evaluate(() => (window as unknown as { wobbleSeen: string[] }).wobbleSeen)).toContain(
      'tile-wobble',
    );
    expect(await page.locator('#board .tile.selected').count()).toBe(0);
    expect(await page.textContent('#message')).toMatch(/is blocked/);
    await context.close();
  });

  test('prefers-reduced-motion: no wobble, and a matched pair goes at once', async () => {
    context = await env.browser.newContext({ viewport: SIZES[0], reducedMotion: 'reduce' });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/play/turtle/calm`);
    await page.waitForFunction(() => document.getElementById('board')?.classList.contains('live'));
    const blocked = page.locator('#board .tile:not([data-free])').first();
    await blocked.click();
    expect(await blocked.evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    const { deal } = await pageData(page);
    const [a, b] = deal.solution[0]!;
    await tile(page, a).click();
    await tile(page, b).click();
    expect(
      await page.evaluate(
        ([x, y]) => [x, y].map((i) => document.querySelector<HTMLElement>(`[data-slot="${i}"]`)!.hidden),
        [a, b],
      ),
    ).toEqual([true, true]);
    await context.close();
  });

  test('text around the board has a contrast of at least 4.5:1', async () => {
    const page = await open('contrast');
    await page.click('#board .tile:not([data-free])'); // a message in the live region
    const low = await page.evaluate(() => {
      const rgb = (c: string): number[] => (c.match(/[\d.]+/g) ?? []).map(Number);
      const lum = ([r, g, b]: number[]): number => {
        const f = (v: number): number => ((v /= 255) <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
        return 0.2126 * f(r!) + 0.7152 * f(g!) + 0.0722 * f(b!);
      };
      const background = (el: Element | null): number[] => {
        for (; el; el = el.parentElement) {
          const c = rgb(getComputedStyle(el).backgroundColor);
          if (c.length === 3 || (c.length === 4 && c[3]! > 0.9)) return c.slice(0, 3);
        }
        return rgb(
          getComputedStyle(document.documentElement)
            .getPropertyValue('--bg')
            .trim()
            .replace(/^#(..)(..)(..)$/, (_, r, g, b) => `${parseInt(r, 16)} ${parseInt(g, 16)} ${parseInt(b, 16)}`),
        );
      };
      const out: string[] = [];
      const selector =
        '#message, .board-help, .controls button:not([aria-disabled="true"]), .counters dt, .counters dd, .share-line';
      for (const el of document.querySelectorAll(selector)) {
        if (!el.textContent?.trim()) continue;
        const a = lum(rgb(getComputedStyle(el).color));
        const b = lum(background(el));
        const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
        if (ratio < 4.5) out.push(`${el.tagName}.${el.className} ${ratio.toFixed(2)}`);
      }
      return out;
    });
    expect(low).toEqual([]);
    await context.close();
  });

  /** Page size and tile width once layout has settled (two frames, so ResizeObserver callbacks ran). */
  const measure = (page: Page) =>
    page.evaluate(async () => {
      for (let i = 0; i < 3; i++) await new Promise((done) => requestAnimationFrame(done));
      return {
        sw: document.documentElement.scrollWidth,
        sh: document.documentElement.scrollHeight,
        tile: document.querySelector('#board .tile')!.getBoundingClientRect().width,
      };
    });

  test('the board fits: no scrollbars at desktop and phone landscape, tiles of 22 px or more in portrait', async () => {
    for (const size of SIZES) {
      const page = await open(`fit-${size.width}`, size);
      const m = await measure(page);
      expect(m.tile, `${size.width}×${size.height}`).toBeGreaterThanOrEqual(22);
      expect(m.sw, `${size.width}×${size.height}`).toBeLessThanOrEqual(size.width);
      if (size.width > size.height) expect(m.sh, `${size.width}×${size.height}`).toBeLessThanOrEqual(size.height);
      // rotating the phone refits the board
      if (size.width === 390) {
        await page.setViewportSize({ width: 844, height: 390 });
        const turned = await measure(page);
        expect(turned.sh).toBeLessThanOrEqual(390);
        expect(turned.tile).toBeGreaterThan(m.tile);
      }
      await context.close();
    }
  });

  test('the board refits when the page stylesheet arrives after the script', async () => {
    context = await env.browser.newContext({ viewport: SIZES[0] });
    const page = await context.newPage();
    await page.route('**/static/build/site.*.css', async (route) => {
      await new Promise((done) => setTimeout(done, 800));
      await route.continue();
    });
    await page.goto(`${env.app.url}/play/turtle/late-css`);
    const m = await measure(page);
    expect(m.sh).toBeLessThanOrEqual(900);
    expect(m.tile).toBeGreaterThan(40);
    await context.close();
  });

  test('without script the server board still shows, positioned by CSS', async () => {
    context = await env.browser.newContext({ viewport: SIZES[0], javaScriptEnabled: false });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/play/turtle/noscript`);
    const boxes = await page.$$eval('#board .tile', (els) =>
      els.map((el) => el.getBoundingClientRect().toJSON() as DOMRect),
    );
    expect(boxes).toHaveLength(144);
    expect(boxes.every((b) => b.width > 30 && b.height > b.width)).toBe(true);
    expect(new Set(boxes.map((b) => `${b.x},${b.y}`)).size).toBe(144); // no two tiles on one spot
    // Controls that need script are not shown as live; the note says what is needed, above the fold, with how to play.
    expect(await page.isVisible('.controls')).toBe(false);
    const note = page.locator('.noscript');
    expect(await note.textContent()).toMatch(/^Playing needs JavaScript/);
    for (const el of [note, page.locator('.how-to')]) {
      const box = (await el.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(SIZES[0].height);
    }
    mkdirSync(SHOTS, { recursive: true });
    await page.screenshot({ path: `${SHOTS}board-noscript-1440x900.png` });
    await context.close();
  });
});
