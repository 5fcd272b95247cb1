/**
 * Every cache is bounded by bytes, and the bytes are measured, not guessed: the estimates of
 * utils/sizes.ts against the heap. test/support/heap-probe.ts runs in a process of its own with
 * `--expose-gc`, builds each kind of cached value many times the way the server does (deals with their
 * geometry, game states from fresh to the caps, shapes, custom layouts, counter windows, play pages over a
 * real socket), and measures what they hold after a collection. Every estimate must cover what was
 * measured, and be no more than three times it and 4 KB (a cache that overestimates much holds too little).
 *
 * Also the bookkeeping of the byte-bounded map itself, and the cache of game states, which counts each
 * deal its states keep alive once.
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../../src/engine/builtins.ts';
import { deal, newGame, type Deal } from '../../../src/engine/index.ts';
import { ByteLru, ENTRY_BYTES } from '../../../src/server/utils/lru.ts';
import { gameStates } from '../../../src/server/services/game-states.ts';
import { CACHES_TOTAL, dealBytes, flatString, gameBytes, stringBytes } from '../../../src/server/utils/sizes.ts';
import { ROOT } from '../../support/root.ts';

describe('estimates against the heap', () => {
  test(
    'every estimate covers what the heap measures, and at most three times it (and 4 KB)',
    { timeout: 60_000 },
    () => {
      const run = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/support/heap-probe.ts'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 55_000,
      });
      expect(run.status, run.stderr.slice(0, 1000)).toBe(0);
      const rows = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { kind: string; measured: number; estimated: number });
      expect(rows.length).toBeGreaterThanOrEqual(16);
      // Over by a few KB is no matter (a fresh turtle game, ~1 KB, measures anywhere from 0.9 to 1.5 KB).
      const wrong = rows.filter(
        (r) => !(r.measured > 0 && r.estimated >= r.measured && r.estimated <= 3 * r.measured + 4096),
      );
      expect(wrong, JSON.stringify(rows, null, 1)).toEqual([]);
    },
  );

  test('the budgets add up to 128 MB', () => {
    expect(CACHES_TOTAL).toBe(128 * 1024 * 1024);
  });

  test('a kept string is flat: its size is its length (one byte a Latin-1 character, else two)', () => {
    const rope = Array.from({ length: 2000 }, (_, i) => `<b>${i}</b>`).join('');
    expect(flatString(rope)).toBe(rope);
    expect(stringBytes('abc')).toBe(stringBytes('xyz'));
    expect(stringBytes('a−c') - stringBytes('abc')).toBe(3); // U+2212 makes it a two-byte string
  });
});

describe('the byte-bounded map', () => {
  test('past its budget the least recently used go; an entry larger than the budget is not kept', () => {
    const evicted: string[] = [];
    const lru = new ByteLru<string, number>('test', 3 * (100 + ENTRY_BYTES), (key) => evicted.push(key));
    lru.set('a', 1, 100);
    lru.set('b', 2, 100);
    lru.set('c', 3, 100);
    expect(lru.get('a')).toBe(1); // a is now the most recently used
    lru.set('d', 4, 100);
    expect(lru.keys()).toEqual(['c', 'a', 'd']);
    expect(evicted).toEqual(['b']);
    lru.set('huge', 5, 10_000);
    expect(lru.get('huge')).toBeUndefined();
    expect(lru.usage()).toEqual({ bytes: 3 * (100 + ENTRY_BYTES), maxBytes: 3 * (100 + ENTRY_BYTES), entries: 3 });
    lru.resize('a', 100); // grew in place: now the most recently used, and the oldest other goes
    expect(lru.keys()).toEqual(['d', 'a']);
    expect(evicted).toEqual(['b', 'c']);
    lru.delete('a');
    expect(lru.usage().entries).toBe(1);
  });

  test('game states count each deal they keep alive once, and let it go with the last of them', () => {
    const made = deal(layoutById('turtle')!, 'states');
    if (!made.ok) throw new Error(made.message);
    const json = JSON.stringify(made.value.deal);
    const stored = { id: 1, deal: JSON.parse(json) as Deal, json };
    const start = newGame(stored.deal);
    if (!start.ok) throw new Error(start.message);
    const one = gameBytes(start.value) + ENTRY_BYTES;
    const shared = dealBytes(json, 144);
    const states = gameStates(shared + 3 * one);
    for (const id of ['g1', 'g2', 'g3']) states.set(id, start.value, 0, stored);
    expect(states.cache.usage()).toMatchObject({ bytes: shared + 3 * one, entries: 3 });
    expect(states.get('g1', 0)).toBe(start.value);
    expect(states.get('g1', 1)).toBeUndefined(); // another move count: the stored log moved on
    states.set('g4', start.value, 0, stored); // past the budget: g2, the least recently used, goes
    expect(states.get('g2', 0)).toBeUndefined();
    for (const id of ['g1', 'g3', 'g4']) states.delete(id);
    expect(states.cache.usage()).toMatchObject({ bytes: 0, entries: 0 });
  });
});
