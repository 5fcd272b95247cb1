/**
 * Offline dealing in Node (src/client/worker.ts's `deal` answer, src/client/shell.ts's link parsing):
 * the browser's dealer gives exactly the deal JSON the server's dealer stores, for every built-in layout
 * in both modes.
 */
import { describe, expect, test } from 'vitest';
import { LAYOUTS, MODES } from '../../src/engine/index.ts';
import { dealKey } from '../../src/server/schemas/common.ts';
import { runDealTask } from '../../src/server/services/deal-worker.ts';
import { parseDealPath } from '../../src/client/shell.ts';
import { answer } from '../../src/client/worker.ts';

describe('the browser deals like the server', () => {
  const cases = LAYOUTS.flatMap((l) => MODES.map((mode) => [l.id, mode] as const));
  test.each(cases)("%s, %s: the worker's deal is the server's deal JSON", (layout, mode) => {
    for (const seed of ['offline-1', 'Zq9_x-2']) {
      const server = runDealTask(dealKey(layout, seed, mode));
      const browser = answer({ id: 7, kind: 'deal', layout, seed, mode });
      if (!server.ok) {
        expect(browser.kind).toBe('error'); // a layout dealt relaxed only fails the same way
        continue;
      }
      expect(browser.kind).toBe('deal');
      if (browser.kind !== 'deal') return;
      expect(JSON.stringify(browser.deal)).toBe(server.json);
      expect(browser.name).toBe(LAYOUTS.find((l) => l.id === layout)!.name);
    }
  });

  test('an unknown layout or a bad seed is an error, not a deal', () => {
    expect(answer({ id: 1, kind: 'deal', layout: 'nope', seed: 'a', mode: 'relaxed' })).toEqual({
      id: 1,
      kind: 'error',
      message: 'there is no built-in layout called nope',
    });
    expect(answer({ id: 2, kind: 'deal', layout: 'turtle', seed: 'a b', mode: 'relaxed' }).kind).toBe('error');
  });
});

describe('deal links', () => {
  test.each([
    ['/play/turtle/k3v9x2', '', { layout: 'turtle', seed: 'k3v9x2', mode: 'relaxed' }],
    ['/play/garden/x_-Y', '?mode=classic', { layout: 'garden', seed: 'x_-Y', mode: 'classic' }],
    ['/play/garden/x', '?mode=weird', { layout: 'garden', seed: 'x', mode: 'relaxed' }],
    ['/play/c-0123456789ab/s1', '', { layout: 'c-0123456789ab', seed: 's1', mode: 'relaxed' }],
  ])('%s%s is a deal', (path, search, expected) => {
    expect(parseDealPath(path, search)).toEqual(expected);
  });

  test.each([
    '/',
    '/play/turtle',
    '/play/turtle/',
    '/play/turtle/a b',
    '/play/turtle/%E0%A4%A',
    '/stats',
    `/play/t/${'x'.repeat(33)}`,
  ])('%s is not', (path) => {
    expect(parseDealPath(path, '')).toBeNull();
  });
});
