/**
 * The stats page on a phone (issue 14): at 360 px wide nothing is cut off (each table row is a card with its
 * columns named), and the chart's labels are 12 px or more.
 */
import { describe, expect, test } from 'vitest';
import { appAndBrowser, HAS_CHROMIUM, playByScript } from './browser.ts';

(HAS_CHROMIUM ? describe : describe.skip)('stats on a phone', () => {
  const env = appAndBrowser();

  test('360 px wide: every value of both tables in view, chart labels of 12 px or more', async () => {
    const context = await env.browser.newContext({ viewport: { width: 360, height: 640 } });
    const page = await context.newPage();
    await page.goto(`${env.app.url}/`);
    for (let i = 0; i < 4; i++) await playByScript(page, 'garden', `phone${i}`, i === 3 ? 2 : undefined); // three wins, one unfinished
    await page.goto(`${env.app.url}/stats`);
    const m = await page.evaluate(() => ({
      scrollWidth: document.documentElement.scrollWidth,
      cells: [...document.querySelectorAll('.data-table td, .data-table tbody th')].map((el) => {
        const r = el.getBoundingClientRect();
        return { left: r.left, right: r.right, text: el.textContent!.trim() };
      }),
      ticks: [...document.querySelectorAll('.chart .tick')].map((t) => t.getBoundingClientRect().height),
    }));
    expect(m.scrollWidth).toBeLessThanOrEqual(360);
    expect(m.cells.length).toBeGreaterThan(20);
    for (const c of m.cells) {
      expect(c.left, c.text).toBeGreaterThanOrEqual(0);
      expect(c.right, c.text).toBeLessThanOrEqual(360);
    }
    expect(m.ticks.length).toBeGreaterThan(0);
    for (const h of m.ticks) expect(h).toBeGreaterThanOrEqual(12); // a label's box is about its font size
    await context.close();
  });
});
