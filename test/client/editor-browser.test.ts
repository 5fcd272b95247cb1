/**
 * The layout editor in a real browser: a small layout built by clicking cells, the worker's answer
 * to "can this be cleared?" (no for a lone tower of two, yes once it has partners), undo, the keyboard, saving
 * it to a `c-…` link and playing it to a win; and the same edits without script, one page load a click.
 */
import { describe, expect, test } from 'vitest';
import type { Page } from 'playwright-core';
import { appAndBrowser, HAS_CHROMIUM, pageData, tile } from './browser.ts';

/** Waits for the status to answer for `tiles` tiles; returns its text. */
async function answered(page: Page, tiles: number, clearable: 'yes' | 'no'): Promise<string> {
  await page.waitForSelector(`#editor-status[data-tiles="${tiles}"][data-clearable="${clearable}"]`);
  return (await page.textContent('#editor-status'))!;
}

describe.skipIf(!HAS_CHROMIUM)('the layout editor in a real browser', () => {
  const env = appAndBrowser();

  test('build a tower of two (cannot be cleared), give it partners (can be), save it and play it', async () => {
    const { app, browser } = env;
    const page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
    await page.goto(`${app.url}/`);
    await page.getByRole('link', { name: 'Open the editor' }).click();
    await page.waitForSelector('#editor[data-live]');

    await page.click('[data-cell="2,2"]');
    await page.click('[data-action="layer-up"]');
    await page.click('[data-cell="2,2"]');
    expect(await answered(page, 2, 'no')).toMatch(/cannot be cleared: a lone tower/);
    expect(await page.getAttribute('#editor-status', 'data-reason')).toBe('tower');
    expect(await page.isDisabled('[data-action="save"]')).toBe(true);
    expect(await page.locator('#editor-grid .et.on').count()).toBe(1);
    expect(await page.locator('#editor-grid .et.ghost').count()).toBe(1); // the layer below

    // Partners on the bottom layer: one by the mouse, one by the keyboard.
    await page.click('[data-action="layer-down"]');
    await page.click('[data-cell="6,2"]');
    expect(await answered(page, 3, 'no')).toMatch(/3 tiles · cannot be cleared: tiles leave in pairs/);
    await page.focus('[data-cell="6,2"]');
    for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowRight', 'Enter']) await page.keyboard.press(key);
    expect(await answered(page, 4, 'yes')).toBe('4 tiles · can be cleared');
    expect(await page.getAttribute('[data-cell="10,2"]', 'aria-pressed')).toBe('true');
    // Undo and redo (Ctrl+Z, Ctrl+Y).
    await page.keyboard.press('Control+z');
    await answered(page, 3, 'no');
    await page.keyboard.press('Control+y');
    await answered(page, 4, 'yes');
    expect(page.url()).toMatch(/\/layouts\/editor\?layout=[A-Za-z0-9_-]{16}$/); // the address holds the draft

    await page.fill('#editor-name', 'Tiny <tower>');
    await page.click('[data-action="save"]');
    await page.waitForURL(/\/layouts\/c-[0-9a-f]{12}$/);
    const id = /\/layouts\/(c-[0-9a-f]{12})$/.exec(page.url())![1]!;
    expect(await page.textContent('h1')).toBe('Tiny <tower>'); // the name typed in: the saver's own, shown to them
    expect(await page.textContent('.layout-meta')).toContain('4 tiles · 2 layers · drawn in the layout editor');

    await page.getByRole('link', { name: 'New game', exact: true }).click();
    await page.waitForURL(new RegExp(`/play/${id}/[A-Za-z0-9]{8}$`));
    const { deal } = await pageData(page);
    expect(deal.tiles).toHaveLength(4);
    for (const [a, b] of deal.solution) {
      await tile(page, a).click();
      await tile(page, b).click();
    }
    await page.waitForSelector('#board[data-status="won"]');
    expect(problems).toEqual([]);
    await page.close();
  });

  test('open a built-in layout in the editor; without script, every click is a page load that does the same', async () => {
    const { app, browser } = env;
    const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(`${app.url}/layouts/editor`);
    await page.selectOption('#editor-from', 'garden');
    await page.getByRole('button', { name: 'Open in the editor' }).click();
    await page.waitForURL(/layout=/);
    expect(await page.getAttribute('#editor-status', 'data-tiles')).toBe('40');
    expect(await page.getAttribute('#editor-status', 'data-clearable')).toBe('yes');
    expect(await page.inputValue('#editor-name')).toBe('Garden');

    await page.click('[data-cell="0,0"]'); // the corner: garden's tiles start two half tiles in
    await page.waitForSelector('#editor-status[data-tiles="41"]');
    expect(await page.getAttribute('#editor-status', 'data-clearable')).toBe('no');
    expect(await page.textContent('#editor-status')).toMatch(/41 tiles · cannot be cleared: tiles leave in pairs/);
    await page.click('[data-action="layer-up"]');
    await page.click('[data-action="layer-up"]');
    await page.click('[data-cell="0,0"]'); // on layer 3, above the corner tile: a partner for it
    await page.waitForSelector('#editor-status[data-tiles="42"]');
    expect(await page.getAttribute('#editor-status', 'data-clearable')).toBe('yes');
    expect(await page.textContent('#editor-layer')).toBe('Layer 3');
    await context.close();
  });
});
