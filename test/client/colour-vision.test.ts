/**
 * The colour maths of test/client/colour-vision.ts against published figures: CIEDE2000 on pairs of the
 * test data of Sharma, Wu and Dalal (2005), and what the Machado et al. (2009) simulations must do.
 */
import { describe, expect, test } from 'vitest';
import { deltaE2000, distance, labOf, MACHADO } from './colour-vision.ts';

describe('colour vision maths', () => {
  test.each([
    // L1, a1, b1, L2, a2, b2, ΔE00 (Sharma et al. 2005, table 1: pairs 1, 7, 17, 25, 34)
    [50, 2.6772, -79.7751, 50, 0, -82.7485, 2.0425],
    [50, 0, 0, 50, -1, 2, 2.3669],
    [50, 2.5, 0, 73, 25, -18, 27.1492],
    [60.2574, -34.0099, 36.2677, 60.4626, -34.1751, 39.4387, 1.2644],
    [2.0776, 0.0795, -1.135, 0.9033, -0.0636, -0.5514, 0.9082],
  ])('ΔE00 of (%f, %f, %f) and (%f, %f, %f) is %f', (l1, a1, b1, l2, a2, b2, want) => {
    expect(deltaE2000(l1, a1, b1, l2, a2, b2)).toBeCloseTo(want, 4);
    expect(deltaE2000(l2, a2, b2, l1, a1, b1)).toBeCloseTo(want, 4);
  });

  test('white stays white and black black in every simulation; sRGB white is L 100', () => {
    for (const vision of ['normal', 'protanopia', 'deuteranopia', 'tritanopia'] as const) {
      const [l, a, b] = labOf(255, 255, 255, vision);
      expect(l).toBeCloseTo(100, 0);
      expect(Math.abs(a) + Math.abs(b)).toBeLessThan(1.5);
      expect(labOf(0, 0, 0, vision)[0]).toBeCloseTo(0, 6);
    }
    for (const m of Object.values(MACHADO))
      for (let row = 0; row < 3; row++) expect(m[row * 3]! + m[row * 3 + 1]! + m[row * 3 + 2]!).toBeCloseTo(1, 2);
  });

  test('red and green, far apart for normal vision, come close for protanopes and deuteranopes but not tritanopes', () => {
    const gap = (vision: Parameters<typeof labOf>[3]): number =>
      deltaE2000(...labOf(200, 53, 43, vision), ...labOf(47, 128, 72, vision)); // the light theme's --f-red and --f-green
    expect(gap('normal')).toBeGreaterThan(50);
    expect(gap('protanopia')).toBeLessThan(gap('normal') / 2);
    expect(gap('deuteranopia')).toBeLessThan(gap('normal') / 2);
    expect(gap('tritanopia')).toBeGreaterThan(gap('normal') / 2);
  });

  test('the distance of two faces is the mean over their pixels, 0 for the same image', () => {
    const a = Float64Array.from([50, 0, 0, 50, 0, 0]);
    const b = Float64Array.from([50, 0, 0, 60, 0, 0]);
    expect(distance(a, a)).toBe(0);
    expect(distance(a, b)).toBeCloseTo(deltaE2000(50, 0, 0, 60, 0, 0) / 2, 10);
    expect(distance(a, b, 0.1)).toBeGreaterThan(0.1); // stops early above a limit, still above it
  });
});
