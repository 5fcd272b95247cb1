/**
 * Your own layouts in a real browser: a bad file is refused on the form with its reason,
 * a good one (from the layout corpus at MAHJONG_LAYOUTS_DIR when present) leads to its page, and a new game
 * of it plays by clicking, with the moves verified by the server.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { BATCH_MS } from '../../src/client/sync.ts';
import { corpusDir } from '../../src/cli/corpus.ts';
import { appAndBrowser, HAS_CHROMIUM, pageData, settled, tile } from './browser.ts';

const CLUBS = path.join(corpusDir(), 'kmahjongg/clubs.layout'); // 74 tiles, 2 layers

/** The file to upload: the corpus' Clubs, or (without the corpus) a small map made here. */
function goodFile(): { name: string; mimeType: string; buffer: Buffer; tiles: number } {
  if (existsSync(CLUBS))
    return { name: 'clubs.layout', mimeType: 'text/plain', buffer: readFileSync(CLUBS), tiles: 74 };
  const tiles = Array.from({ length: 12 }, (_, i) => `<tile x="${i % 6}" y="${Math.floor(i / 6)}"/>`).join('');
  return {
    name: 'small.map',
    mimeType: 'application/xml',
    buffer: Buffer.from(`<mahjongg><map name="clubs">${tiles}</map></mahjongg>`),
    tiles: 12,
  };
}

const PAIRS = 3;

describe.skipIf(!HAS_CHROMIUM)('your own layout in a real browser', () => {
  const env = appAndBrowser();

  test('upload a bad file (the reason shows), then a good one, start a game of it and play pairs', async () => {
    const { app, browser } = env;
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    page.on('request', (r) => {
      if (!r.url().startsWith(app.url) && !r.url().startsWith('data:'))
        problems.push(`third-party request: ${r.url()}`);
    });

    await page.goto(`${app.url}/`);
    await page.getByRole('link', { name: 'Upload your own layout' }).click();
    await page.waitForURL(/\/layouts\/new$/);

    // A lone tower: four tiles on one another.
    const tower =
      '<mahjongg><map name="Tower"><tile x="0" y="0" z="0"/><tile x="0" y="0" z="1"/><tile x="0" y="0" z="2"/><tile x="0" y="0" z="3"/></map></mahjongg>';
    await page.setInputFiles('#file', { name: 'tower.map', mimeType: 'application/xml', buffer: Buffer.from(tower) });
    const refused = page.waitForResponse((r) => r.url().endsWith('/layouts') && r.request().method() === 'POST');
    await page.getByRole('button', { name: 'Upload and check' }).click();
    const refusedRes = await refused;
    expect(refusedRes.status(), await refusedRes.text()).toBe(400);
    await expect
      .poll(() => page.textContent('#upload-error'))
      .toMatch(/cannot be cleared: 4 of the 4 tiles are stacked on one another/);
    expect(await page.getAttribute('#file', 'aria-invalid')).toBe('true');

    const good = goodFile();
    await page.setInputFiles('#file', { name: good.name, mimeType: good.mimeType, buffer: good.buffer });
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.waitForURL(/\/layouts\/c-[0-9a-f]{12}$/);
    const id = /\/layouts\/(c-[0-9a-f]{12})$/.exec(page.url())![1]!;
    expect(await page.textContent('h1')).toBe(good.name === 'clubs.layout' ? 'Clubs' : 'clubs'); // the uploader's own name, from the file
    expect(await page.textContent('.layout-meta')).toContain(`${good.tiles} tiles`);

    await page.getByRole('link', { name: 'New game', exact: true }).click();
    await page.waitForURL(new RegExp(`/play/${id}/[A-Za-z0-9]{8}$`));
    await expect.poll(() => page.locator('#board .tile').count()).toBe(good.tiles);
    const { deal } = await pageData(page);
    expect(deal.layout).toBe(id);
    for (const [a, b] of deal.solution.slice(0, PAIRS)) {
      await tile(page, a).click();
      await tile(page, b).click();
      await expect.poll(() => page.locator(`#board .tile[data-slot="${b}"]:not([hidden])`).count()).toBe(0);
    }
    await settled(page);
    await expect
      .poll(() => app.app.db!.prepare('SELECT move_count, tiles_left, layout FROM games').get(), {
        timeout: BATCH_MS + 5000,
      })
      .toEqual({ move_count: PAIRS, tiles_left: good.tiles - 2 * PAIRS, layout: id });
    expect(problems).toEqual([]);
    await page.close();
  });

  test('the form names the layout for its uploader, who renames it on its page; a friend sees the neutral name', async () => {
    const { app, browser } = env;
    const page = await browser.newPage({ viewport: { width: 390, height: 844 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${app.url}/layouts/new`);
    const good = goodFile();
    await page.setInputFiles('#file', { name: good.name, mimeType: good.mimeType, buffer: good.buffer });
    expect(await page.getAttribute('#layout-title', 'maxlength')).toBe('40');
    await page.fill('#layout-title', 'Garden path');
    await page.getByRole('button', { name: 'Upload and check' }).click();
    await page.waitForURL(/\/layouts\/c-[0-9a-f]{12}$/);
    const id = /\/layouts\/(c-[0-9a-f]{12})$/.exec(page.url())![1]!;
    expect(await page.textContent('h1')).toBe('Garden path');
    expect(await page.title()).toBe('Garden path · Mahjong solitaire');

    // The rename form: on a phone its field and button fit the screen.
    const field = await page.locator('#rename-name').boundingBox();
    expect(field!.x + field!.width).toBeLessThanOrEqual(390);
    expect(field!.height).toBeGreaterThanOrEqual(44);
    await page.fill('#rename-name', 'Garden walk');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect.poll(() => page.textContent('h1')).toBe('Garden walk');
    await page.fill('#rename-name', '\u202e');
    await page.getByRole('button', { name: 'Rename', exact: true }).click();
    await expect.poll(() => page.textContent('#rename-error')).toMatch(/no characters that can be shown/);
    expect(await page.getAttribute('#rename-name', 'aria-invalid')).toBe('true');

    // The home page lists it, by the player's name.
    await page.goto(`${app.url}/`);
    expect(await page.textContent(`.own-layouts a[href="/layouts/${id}"]`)).toBe('Garden walk');

    // A friend with the link: the neutral name, no rename form.
    const friend = await browser.newPage();
    await friend.goto(`${app.url}/layouts/${id}`);
    expect(await friend.textContent('h1')).toBe(`Custom layout ${id}`);
    expect(await friend.locator('#rename-name').count()).toBe(0);
    expect(await friend.content()).not.toContain('Garden');
    expect(problems).toEqual([]);
    await friend.close();
    await page.close();
  });
});
