/**
 * Clean-ups that shared test modules ask for after every test and after every test file.
 *
 * Most test files share one module cache per worker (vitest.config.ts: `isolate: false`), so a shared module
 * such as test/server/helper.ts is evaluated once per worker, not once per file: hooks it registered at its own
 * top level would belong to the first file that imported it alone. It registers its clean-ups here instead, and
 * this file, a vitest setup file run at the start of every test file, runs them after each test and after
 * each file.
 */
import { afterAll, afterEach } from 'vitest';

interface Cleanups {
  readonly afterTest: (() => Promise<void> | void)[];
  readonly afterFile: (() => Promise<void> | void)[];
}

const KEY = Symbol.for('mahjong.test.cleanups');
const registry = globalThis as { [KEY]?: Cleanups };
const cleanups = (registry[KEY] ??= { afterTest: [], afterFile: [] });

/** Runs `fn` after every test of every file from now on (a shared module calls this once, when it loads). */
export const afterEveryTest = (fn: () => Promise<void> | void): void => void cleanups.afterTest.push(fn);

/** Runs `fn` at the end of every test file from now on (a shared module calls this once, when it loads). */
export const afterEveryFile = (fn: () => Promise<void> | void): void => void cleanups.afterFile.push(fn);

afterEach(async () => {
  for (const fn of cleanups.afterTest) await fn();
});

afterAll(async () => {
  for (const fn of cleanups.afterFile) await fn();
});
