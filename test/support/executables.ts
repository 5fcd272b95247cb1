/**
 * Debian binaries the tests start for themselves (haproxy, redis-server): where they are, and the one loud
 * reason their tests are skipped when they are not. With `CI` set a missing binary is an error instead: CI
 * installs them (.ci/run).
 */
import { accessSync, constants } from 'node:fs';
import path from 'node:path';

/** The binary `name`: the path in the environment variable `envVar`, else the first on PATH or in `extraDirs`. */
export function findExecutable(name: string, envVar: string, extraDirs: readonly string[] = []): string | undefined {
  const fromEnv = process.env[envVar];
  if (fromEnv) return fromEnv;
  const dirs = [...(process.env.PATH ?? '').split(':'), ...extraDirs].filter(Boolean);
  for (const dir of dirs) {
    const file = path.join(dir, name);
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // not here
    }
  }
  return undefined;
}

/**
 * Why `tests` cannot run here (`reason`), or undefined when `found` is a binary. Warns once, loudly, when
 * they will be skipped; throws in CI, where they must run.
 */
export function missingReason(found: string | undefined, reason: string, tests: string): string | undefined {
  if (found) return undefined;
  if (process.env.CI) throw new Error(`${reason}; CI must run ${tests}`);
  console.warn(`\n*** SKIPPING ${tests}: ${reason} ***\n`);
  return reason;
}
