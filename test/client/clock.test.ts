/** Your clock kept in this browser between page loads (src/client/clock.ts), on a store in memory. */
import { describe, expect, test } from 'vitest';
import { dropClock, keepClock, keptClock } from '../../src/client/clock.ts';
import type { KeptStore } from '../../src/client/sync.ts';

const T0 = 1_700_000_000_000; // ms epoch
const DAY = 86_400_000;

function memory(): KeptStore & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    keys: () => [...map.keys()],
    get: (key) => map.get(key) ?? null,
    set: (key, value) => void map.set(key, value),
    remove: (key) => void map.delete(key),
  };
}

describe('the kept clock', () => {
  test('a game’s time comes back for that game only; a game id not heard yet matches', () => {
    const store = memory();
    keepClock(store, 'turtle/a/relaxed', 'g1', 61_499.6, T0);
    expect(keptClock(store, 'turtle/a/relaxed', 'g1', T0 + 1000)).toBe(61_500);
    expect(keptClock(store, 'turtle/a/relaxed', null, T0)).toBe(61_500);
    expect(keptClock(store, 'turtle/a/relaxed', 'g2', T0)).toBeNull(); // another game of the deal
    expect(keptClock(store, 'turtle/b/relaxed', 'g1', T0)).toBeNull();
    keepClock(store, 'turtle/c/classic', null, 5000, T0); // kept before the server made the game
    expect(keptClock(store, 'turtle/c/classic', 'g3', T0)).toBe(5000);
  });

  test('the latest time of a deal replaces the one before; old entries are ignored, a win drops its own', () => {
    const store = memory();
    keepClock(store, 'turtle/a/relaxed', 'g1', 1000, T0);
    keepClock(store, 'turtle/b/relaxed', 'g2', 2000, T0);
    keepClock(store, 'turtle/a/relaxed', 'g1', 3000, T0 + 10);
    expect(keptClock(store, 'turtle/a/relaxed', 'g1', T0)).toBe(3000);
    expect(JSON.parse(store.map.get('mahjong:clock')!)).toHaveLength(2);
    expect(keptClock(store, 'turtle/b/relaxed', 'g2', T0 + 31 * DAY)).toBeNull();
    dropClock(store, 'turtle/a/relaxed');
    expect(keptClock(store, 'turtle/a/relaxed', 'g1', T0)).toBeNull();
    expect(keptClock(store, 'turtle/b/relaxed', 'g2', T0)).toBe(2000);
    dropClock(store, 'turtle/b/relaxed');
    expect(store.map.size).toBe(0);
  });

  test('at most 20 games are kept, the newest', () => {
    const store = memory();
    for (let i = 0; i < 25; i++) keepClock(store, `turtle/s${i}/relaxed`, null, i * 1000, T0 + i);
    expect(JSON.parse(store.map.get('mahjong:clock')!)).toHaveLength(20);
    expect(keptClock(store, 'turtle/s24/relaxed', null, T0)).toBe(24_000);
    expect(keptClock(store, 'turtle/s4/relaxed', null, T0)).toBeNull();
  });

  test('no storage, or a broken entry: nothing kept, no error', () => {
    keepClock(null, 'turtle/a/relaxed', null, 1000, T0);
    expect(keptClock(null, 'turtle/a/relaxed', null, T0)).toBeNull();
    const store = memory();
    store.map.set('mahjong:clock', '{not json');
    expect(keptClock(store, 'turtle/a/relaxed', null, T0)).toBeNull();
    store.map.set('mahjong:clock', '[{"deal":"turtle/a/relaxed","game":null,"ms":"x","at":1700000000000}]');
    expect(keptClock(store, 'turtle/a/relaxed', null, T0)).toBeNull();
    keepClock(store, 'turtle/a/relaxed', null, 1000, T0); // a broken list is written anew
    expect(keptClock(store, 'turtle/a/relaxed', null, T0)).toBe(1000);
    const full: KeptStore = {
      ...store,
      set: () => {
        throw new Error('QuotaExceededError');
      },
    };
    expect(() => keepClock(full, 'turtle/b/relaxed', null, 1000, T0)).not.toThrow();
  });
});
