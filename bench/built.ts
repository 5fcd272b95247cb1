/**
 * The engine as it ships, for the benchmarks that time it (bench/engine.ts, bench/native.ts): compiled by
 * `tsc -p src/cli` into dist/ (the command line with the engine and shared code it imports, as `npm install`
 * builds it) and loaded from there. Run through tsx instead, the same code measures about a quarter slower:
 * its transform wraps the closures it makes, which the compiled files do not have.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../test/support/root.ts';

export { ROOT };

/** Compiles the command line (and the engine) into dist/; throws with tsc's first lines when it fails. */
export function compileCli(): void {
  const compiled = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', 'src/cli'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (compiled.status !== 0)
    throw new Error(
      `tsc -p src/cli failed: ${(compiled.stdout + compiled.stderr).trim().split('\n').slice(0, 5).join(' ')}`,
    );
}

/** The engine's module as built: compiles first, then loads dist/engine/index.js. */
export async function builtEngine(): Promise<typeof import('../src/engine/index.ts')> {
  compileCli();
  return (await import(
    pathToFileURL(path.join(ROOT, 'dist/engine/index.js')).href
  )) as typeof import('../src/engine/index.ts');
}
