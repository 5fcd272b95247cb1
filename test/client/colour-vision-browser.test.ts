/**
 * Every tile set's 42 faces are told apart at 24 CSS px, also under protanopia, deuteranopia and
 * tritanopia, in every theme (docs/client.md, "Told apart, also under colour-vision deficiencies"): rendered in Chromium from the set's
 * preview page, simulated and measured by test/client/colour-vision.ts. The smallest distance between two
 * faces that do not match must stay at least MIN_DISTANCE (mean ΔE00 per pixel), a bar today's classic set
 * clears with a little room (its closest pair, 6 and 8 of characters in the dark theme, measures 1.93 under
 * protanopia). Prints every figure as one JSON line.
 */
import { describe, expect, test } from 'vitest';
import { TILE_SETS } from '../../src/shared/tilesets.ts';
import { appAndBrowser, HAS_CHROMIUM } from './browser.ts';
import { closestPairs, renderFaces, VISIONS } from './colour-vision.ts';

const MIN_DISTANCE = 1.8;
const THEMES = ['light', 'dark', 'contrast'] as const;

const suite = HAS_CHROMIUM ? describe : describe.skip;

suite('faces told apart under colour-vision deficiencies', { timeout: 300_000 }, () => {
  const env = appAndBrowser();

  test.each(TILE_SETS)('the %s set, in every theme and vision', async (set) => {
    const figures: Record<string, Record<string, string>> = {};
    for (const theme of THEMES) {
      const closest = closestPairs(await renderFaces(env.browser, env.app.url, set, theme));
      figures[theme] = Object.fromEntries(
        VISIONS.map((v) => [v, `${closest[v].distance.toFixed(2)} ${closest[v].a}/${closest[v].b}`]),
      );
      for (const vision of VISIONS)
        expect(
          closest[vision].distance,
          `${set} ${theme} ${vision}: ${closest[vision].a}/${closest[vision].b}`,
        ).toBeGreaterThanOrEqual(MIN_DISTANCE);
    }
    console.log(`colour vision (${set}, mean ΔE00 of the closest pair at 24 px): ${JSON.stringify(figures)}`);
  });
});
