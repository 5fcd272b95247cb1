/**
 * `study --coach` (src/cli/coach.ts; docs/study.md §7): one row per mode and player with the coach's figures,
 * deterministic for a seed; bad flags are a UsageError (exit status 2).
 */
import { describe, expect, test } from 'vitest';
import { UsageError } from '../../src/cli/args.ts';
import { studyCommand } from '../../src/cli/study.ts';
import { REASONS } from '../../src/engine/index.ts';

const run = (argv: string[]): string => studyCommand(argv, () => {});

describe('study --coach', () => {
  test('rows per mode and player whose counts add up, the same on every run', () => {
    const argv = ['--layout', 'turtle', '--coach', '--deals', '3', '--seed', 'coach', '--json'];
    const rows = JSON.parse(run(argv)) as Record<string, unknown>[];
    expect(rows.map((r) => `${r.mode} ${r.player}`)).toEqual([
      'relaxed random',
      'relaxed bot',
      'classic random',
      'classic bot',
    ]);
    for (const r of rows) {
      const reasons = r.reasons as Record<string, number>;
      expect(Object.keys(reasons)).toEqual([...REASONS]);
      const lost = Object.values(reasons).reduce((a, b) => a + b, 0);
      expect(lost).toBe(r.lost);
      expect((r.won as number) + lost + (r.unresolved as number)).toBe(3);
      if (lost > 0) expect(r.named).toBeCloseTo((lost - reasons.none!) / lost, 3);
    }
    const strip = (text: string) => (JSON.parse(text) as Record<string, unknown>[]).map(({ ms: _, ...r }) => r);
    expect(strip(run(argv))).toEqual(rows.map(({ ms: _, ...r }) => r));
    expect(run(['--layout', 'turtle', '--coach', '--deals', '1']).split('\n')[0]).toMatch(/^layout,mode,player,/);
  }, 120_000);

  test.each([
    [['--all', '--coach']],
    [['--layout', 'turtle', '--coach', '--budget', '5']],
    [['--layout', 'turtle', '--coach', '--difficulty']],
    [['--layout', 'nope', '--coach']],
    [['--layout', 'turtle', '--coach', '--deals', '0']],
  ])('%j is a usage error', (argv) => {
    expect(() => run(argv)).toThrow(UsageError);
  });
});
