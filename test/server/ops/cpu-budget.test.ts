import { describe, expect, test } from 'vitest';
import { LocalCounters } from '../../../src/server/services/counters.ts';
import { clientKey } from '../../../src/server/services/limits.ts';
import { CPU_LIMITS, CpuBudget, type CpuLimits } from '../../../src/server/services/cpu-budget.ts';

const LIMITS: CpuLimits = {
  clientBurstMs: 500,
  clientBurstWindowMs: 5_000,
  clientPerMinuteMs: 1_200,
  processWindowMs: 1_000,
  processPerWindowMs: 900,
};

function budget(limits: CpuLimits | false = LIMITS) {
  let now = 1_000_000;
  const clock = () => now;
  return { budget: new CpuBudget(limits, new LocalCounters(clock), clock), advance: (ms: number) => (now += ms) };
}

describe('CpuBudget', () => {
  test('a client spends its burst window, then waits for it to turn', async () => {
    const { budget: b, advance } = budget();
    expect(await b.charge('203.0.113.5', 300, 'upload')).toBeUndefined();
    const refused = await b.charge('203.0.113.77', 300, 'upload'); // the same /24: the same client
    expect(refused).toMatchObject({ code: 'ERR_CPU', retryAfterS: 5 });
    expect(refused?.message).toContain('upload');
    expect(await b.charge('198.51.100.1', 300, 'upload')).toBeUndefined(); // another client is not held
    advance(5_000);
    expect(await b.charge('203.0.113.5', 300, 'upload')).toBeUndefined();
  });

  test('the minute window bounds a client that paces its bursts', async () => {
    const { budget: b, advance } = budget();
    for (let i = 0; i < 4; i++) {
      expect(await b.charge('203.0.113.5', 300, 'editor')).toBeUndefined();
      advance(5_000);
    }
    const refused = await b.charge('203.0.113.5', 300, 'editor');
    expect(refused).toMatchObject({ code: 'ERR_CPU' });
    expect(refused!.retryAfterS).toBeGreaterThan(30);
  });

  test('a cost larger than a window passes an empty one, as that window’s max', async () => {
    const { budget: b } = budget();
    expect(await b.charge('203.0.113.5', 5_000, 'review')).toBeUndefined();
    expect(await b.charge('203.0.113.5', 1, 'review')).toMatchObject({ code: 'ERR_CPU' });
  });

  test('everyone together is held to the process’s share of its window', async () => {
    const { budget: b, advance } = budget();
    expect(await b.charge('192.0.2.1', 450, 'upload')).toBeUndefined();
    expect(await b.charge('198.51.100.1', 450, 'upload')).toBeUndefined();
    expect(await b.charge('203.0.113.1', 100, 'upload')).toMatchObject({ code: 'ERR_CPU_FULL', retryAfterS: 1 });
    advance(1_000);
    expect(await b.charge('203.0.113.1', 100, 'upload')).toBeUndefined();
  });

  test('work done in the deal workers is charged to the client, not to the process’s second', async () => {
    const { budget: b } = budget();
    expect(await b.charge('192.0.2.1', 450, 'review', 'worker')).toBeUndefined();
    expect(await b.charge('198.51.100.1', 450, 'band', 'worker')).toBeUndefined();
    expect(await b.charge('192.0.2.9', 100, 'review', 'worker')).toMatchObject({ code: 'ERR_CPU' }); // its burst
    // The process's window is untouched: the main thread's work of others still fits in all of it.
    expect(await b.charge('203.0.113.1', 450, 'replay')).toBeUndefined();
    expect(await b.charge('203.0.114.1', 450, 'replay')).toBeUndefined();
  });

  test('the shipped process window is a quarter second: a window’s share, then a 503 until it turns', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const b = new CpuBudget(CPU_LIMITS, new LocalCounters(clock), clock);
    expect(CPU_LIMITS.processPerWindowMs / CPU_LIMITS.processWindowMs).toBeCloseTo(0.3); // 30% of the main thread
    expect(await b.charge('192.0.2.1', 60, 'editor')).toBeUndefined();
    expect(await b.charge('198.51.100.1', 60, 'editor')).toMatchObject({ code: 'ERR_CPU_FULL', retryAfterS: 1 });
    now += CPU_LIMITS.processWindowMs;
    expect(await b.charge('198.51.100.1', 60, 'editor')).toBeUndefined();
    // One request costlier than the window passes an empty one, charged as the window's share.
    now += CPU_LIMITS.processWindowMs;
    expect(await b.charge('203.0.113.1', 400, 'upload')).toBeUndefined();
  });

  test('IPv6 clients count by their /64; nothing is counted when the budget is off', async () => {
    const { budget: b } = budget();
    expect(await b.charge(clientKey('2001:db8:1:2::1'), 500, 'band')).toBeUndefined();
    expect(await b.charge(clientKey('2001:db8:1:2:ab::ffff'), 1, 'band')).toMatchObject({ code: 'ERR_CPU' });
    const off = budget(false).budget;
    for (let i = 0; i < 100; i++) expect(await off.charge('2001:db8:1:2::1', 500, 'band')).toBeUndefined();
  });
});
