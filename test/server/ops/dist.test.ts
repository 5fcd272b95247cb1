/**
 * The production build : `npm run build` compiles the server and the CLI into
 * dist/, and they run with plain node and production dependencies only. A resolve hook refuses every
 * devDependency (tsx, esbuild, typescript, …), so an import of one anywhere — the server, the deal worker,
 * the CLI — fails here instead of in the image, where `npm ci --omit=dev` leaves them out.
 *
 * It runs what `npm run build` last made (`npm test` builds first); run `npm run build` before running
 * this file alone.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { startServer, type ServerProcess } from '../process.ts';
import { ROOT } from '../../support/root.ts';

const DIST = path.join(ROOT, 'dist');
const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
};
const DEV = Object.keys(pkg.devDependencies);

/** The package a bare specifier names (`@scope/name/sub` → `@scope/name`); undefined for relative or URL ones. */
function packageOf(specifier: string): string | undefined {
  if (/^(\.|\/|node:|file:|data:)/.test(specifier)) return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/** Every .js file under `dir`. */
function jsFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.join(e.parentPath, e.name));
}

let work: string;
let guard: string; // node arguments that load the hook refusing devDependencies

beforeAll(() => {
  if (!existsSync(path.join(DIST, 'server/server.js'))) throw new Error('dist/ is missing: run `npm run build` first');
  work = mkdtempSync(path.join(tmpdir(), 'mahjong-dist-'));
  const hooks = path.join(work, 'hooks.mjs');
  writeFileSync(
    hooks,
    `const DEV = new Set(${JSON.stringify(DEV)});
export async function resolve(specifier, context, next) {
  const parts = specifier.split('/');
  const name = specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
  if (DEV.has(name)) throw new Error(\`devDependency \${specifier} imported by \${context.parentURL}\`);
  return next(specifier, context);
}
`,
  );
  const register = path.join(work, 'register.mjs');
  writeFileSync(
    register,
    `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`,
  );
  guard = pathToFileURL(register).href;
});

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe('dist/', () => {
  test('holds plain JavaScript for the server, its deal worker and the CLI, importing production dependencies only', () => {
    for (const file of ['server/server.js', 'server/services/deal-worker.js', 'cli/main.js', 'engine/index.js'])
      expect(existsSync(path.join(DIST, file)), file).toBe(true);
    const builtins = new Set(builtinModules);
    const imported = new Set<string>();
    for (const file of jsFiles(DIST)) {
      const text = readFileSync(file, 'utf8');
      expect(text, `${file} still imports a .ts file`).not.toMatch(/from ['"][^'"]+\.ts['"]/);
      const specifiers = [
        ...text.matchAll(/\bfrom\s*['"]([^'"]+)['"]/g), // import … from 'x', export … from 'x'
        ...text.matchAll(/\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g), // import('x')
        ...text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm), // import 'x'
      ].map((m) => m[1]!);
      for (const specifier of specifiers) {
        const name = packageOf(specifier);
        if (name && !builtins.has(name)) imported.add(name);
      }
    }
    expect(imported.size).toBeGreaterThan(5);
    for (const name of imported)
      expect(Object.keys(pkg.dependencies), `${name} is not a production dependency`).toContain(name);
    for (const tool of ['tsx', 'esbuild', 'typescript']) expect(Object.keys(pkg.dependencies)).not.toContain(tool);
  });

  test('the guard refuses a devDependency (so the tests below can fail)', () => {
    const run = spawnSync(
      process.execPath,
      ['--import', guard, '--input-type=module', '-e', "await import('tsx/esm/api')"],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(run.status).not.toBe(0);
    expect(run.stderr).toContain('devDependency tsx/esm/api');
  });

  test('the CLI runs with node from dist/', () => {
    const run = spawnSync(process.execPath, ['--import', guard, 'dist/cli/main.js', 'layouts'], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const layouts = JSON.parse(run.stdout) as { id: string }[];
    expect(layouts.map((l) => l.id)).toContain('turtle');
    const bad = spawnSync(
      process.execPath,
      ['--import', guard, 'dist/cli/main.js', 'deal', '--layout', 'nope', '--seed', 'a'],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('node dist/server/server.js', () => {
  let server: ServerProcess;

  beforeAll(async () => {
    // One deal worker, so a classic deal runs the compiled worker file.
    server = await startServer(path.join(work, 'mahjong.db'), { DEAL_WORKERS: '1' }, [
      '--import',
      guard,
      'dist/server/server.js',
    ]);
  });

  afterAll(async () => {
    server?.child.kill('SIGTERM');
    await server?.exited;
  });

  test('answers /healthz and serves pages with their built assets', async () => {
    const health = await fetch(`${server.base}/healthz`);
    expect(health.status).toBe(200);
    const home = await fetch(`${server.base}/`);
    expect(home.status).toBe(200);
    expect(await home.text()).toContain('/play/turtle');
    const board = await fetch(`${server.base}/play/turtle/dist1`);
    expect(board.status).toBe(200);
    const script = /src="(\/static\/build\/app\.[0-9a-f]{8}\.js)"/.exec(await board.text());
    expect(script, 'the board page links the hashed client bundle').not.toBeNull();
    expect((await fetch(server.base + script![1]!)).status).toBe(200);
  });

  test('makes a classic deal in the compiled deal worker', async () => {
    const res = await fetch(`${server.base}/api/deals/turtle/dist1?mode=classic`);
    expect(res.status).toBe(200);
    const deal = (await res.json()) as { mode: string; tiles: unknown[] };
    expect(deal.mode).toBe('classic');
    expect(deal.tiles).toHaveLength(144);
    expect(server.stderr()).toBe('');
    expect(server.logs.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('npm start', () => {
  test('runs dist/ without rebuilding: two started at once from one checkout both serve', async () => {
    const pkgScripts = (
      JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
    ).scripts;
    expect(pkgScripts.start).toBe('node dist/server/server.js');
    expect(pkgScripts.prepare).toBe('npm run --silent build'); // `npm install` and `npm ci` build
    const npm = process.env.npm_execpath?.endsWith('npm-cli.js')
      ? process.env.npm_execpath
      : path.join(path.dirname(process.execPath), '../lib/node_modules/npm/bin/npm-cli.js');
    const built = readFileSync(path.join(DIST, 'server/server.js'), 'utf8');
    const servers = await Promise.all(
      ['a', 'b'].map((name) => startServer(path.join(work, `start-${name}.db`), {}, [npm, 'start', '--silent'])),
    );
    try {
      expect(servers[0]!.base).not.toBe(servers[1]!.base);
      for (const server of servers) {
        expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
        expect((await fetch(`${server.base}/api/deals/turtle/start1?mode=relaxed`)).status).toBe(200);
      }
      // Nothing was rebuilt under them.
      expect(readFileSync(path.join(DIST, 'server/server.js'), 'utf8')).toBe(built);
    } finally {
      // npm runs the server as its child: both go (the server left running was a leak of every test run).
      for (const server of servers) server.stop('SIGTERM');
      await Promise.all(servers.map((s) => s.exited));
    }
  });
});
