/**
 * The Dockerfile, checked without a Docker engine (none runs here): parsed into stages and
 * instructions, then held to what docs/operations.md promises. Every path it copies from the
 * build context exists and is not excluded by .dockerignore; every `--from` names an earlier
 * stage; the final stage installs production dependencies only, runs as a non-root user, keeps
 * the data folder on a volume, has a HEALTHCHECK without curl, and starts node directly.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../../support/root.ts';

interface Instruction {
  readonly keyword: string; // upper case
  readonly args: string; // the rest, continuation lines joined
  readonly line: number; // where it starts; 1-based
}

interface Stage {
  readonly image: string;
  readonly name: string | undefined;
  readonly instructions: Instruction[];
}

/** Splits a Dockerfile into stages of instructions (comments dropped, `\` continuations joined). */
function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const start = i;
    let line = lines[i]!.trim();
    if (line === '' || line.startsWith('#')) continue;
    while (line.endsWith('\\') && i + 1 < lines.length) {
      line = line.slice(0, -1).trimEnd();
      const next = lines[++i]!.trim();
      if (!next.startsWith('#')) line += ' ' + next;
    }
    const [keyword = '', ...rest] = line.split(/\s+/);
    const instruction = { keyword: keyword.toUpperCase(), args: rest.join(' '), line: start + 1 };
    if (instruction.keyword === 'FROM') {
      const m = /^(\S+)(?:\s+AS\s+(\S+))?$/i.exec(instruction.args);
      if (!m) throw new Error(`line ${start + 1}: FROM ${instruction.args}`);
      stages.push({ image: m[1]!, name: m[2], instructions: [] });
    } else {
      if (stages.length === 0) throw new Error(`line ${start + 1}: ${keyword} before FROM`);
      stages.at(-1)!.instructions.push(instruction);
    }
  }
  return stages;
}

/** The words of a shell-form argument list, or the items of an exec-form JSON array. */
function words(args: string): string[] {
  return args.startsWith('[') ? (JSON.parse(args) as string[]) : args.split(/\s+/);
}

/** A COPY/ADD: its --flags, sources and destination. */
function parseCopy(args: string): { from: string | undefined; sources: string[]; dest: string } {
  const parts = words(args);
  const flags = parts.filter((p) => p.startsWith('--'));
  const paths = parts.filter((p) => !p.startsWith('--'));
  const from = flags.find((f) => f.startsWith('--from='))?.slice('--from='.length);
  return { from, sources: paths.slice(0, -1), dest: paths.at(-1)! };
}

/** .dockerignore patterns (simple ones: a path, a folder, or `*.ext`). */
function ignored(patterns: readonly string[], file: string): boolean {
  const normal = path.posix.normalize(file).replace(/^\.\/|\/$/g, '');
  return patterns.some((p) => {
    if (p.startsWith('*')) return normal.endsWith(p.slice(1));
    return normal === p || normal.startsWith(`${p}/`);
  });
}

const dockerfile = readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
const stages = parseDockerfile(dockerfile);
const final = stages.at(-1)!;
const build = stages[0]!;
const dockerignore = readFileSync(path.join(ROOT, '.dockerignore'), 'utf8')
  .split('\n')
  .map((l) => l.trim())
  .filter((l) => l && !l.startsWith('#'));
const all = (stage: Stage, keyword: string): Instruction[] => stage.instructions.filter((i) => i.keyword === keyword);
const runs = (stage: Stage): string =>
  all(stage, 'RUN')
    .map((i) => i.args)
    .join('\n');

describe('Dockerfile', () => {
  test('multi-stage, on the current Node LTS slim image (the app needs Node 20 or newer)', () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    for (const stage of stages) {
      const m = /^node:(\d+)-slim$/.exec(stage.image);
      expect(m, stage.image).not.toBeNull();
      expect(Number(m![1])).toBeGreaterThanOrEqual(20);
    }
    expect(dockerfile).toMatch(/#.*Node(\.js)? 20 or newer/);
  });

  test('every path copied from the build context exists and is not excluded by .dockerignore', () => {
    const copies = stages
      .flatMap((s) => [...all(s, 'COPY'), ...all(s, 'ADD')].map((i) => parseCopy(i.args)))
      .filter((c) => !c.from);
    expect(copies.length).toBeGreaterThan(0);
    for (const copy of copies)
      for (const source of copy.sources) {
        expect(existsSync(path.join(ROOT, source)), `COPY ${source}`).toBe(true);
        expect(ignored(dockerignore, source), `COPY ${source} is in .dockerignore`).toBe(false);
      }
  });

  test('every COPY --from names an earlier stage, and what it copies is made there', () => {
    stages.forEach((stage, index) => {
      for (const copy of all(stage, 'COPY')
        .map((i) => parseCopy(i.args))
        .filter((c) => c.from)) {
        const earlier = stages.slice(0, index).map((s) => s.name);
        expect(earlier, `--from=${copy.from}`).toContain(copy.from);
      }
    });
    // The native module copied into the final stage is where better-sqlite3 builds it.
    const native = all(final, 'COPY')
      .map((i) => parseCopy(i.args))
      .find((c) => c.sources.some((s) => s.endsWith('.node')));
    expect(native).toBeDefined();
    expect(existsSync(path.join(ROOT, native!.sources[0]!.replace(/^\/app\//, '')))).toBe(true);
  });

  test('the build stage installs the compilers better-sqlite3 needs and all dependencies, type-checks and builds', () => {
    const script = runs(build);
    expect(script).toMatch(/apt-get install[^\n]*python3/);
    expect(script).toMatch(/apt-get install[^\n]*\bmake\b/);
    expect(script).toMatch(/apt-get install[^\n]*g\+\+/);
    expect(script).toMatch(/rm -rf \/var\/lib\/apt\/lists/);
    // All dependencies, without `prepare` (the build, before the source is copied), then the native installs.
    expect(script).toMatch(/^npm ci --ignore-scripts && npm rebuild better-sqlite3 esbuild$/m);
    expect(script).toMatch(/npm run typecheck:src && npm run build/); // a commit that fails tsc makes no image
  });

  test('the final stage: production dependencies only, the compiled app and the built client, no source', () => {
    const script = runs(final);
    expect(script).toMatch(/npm ci --omit=dev/);
    expect(script).not.toMatch(/apt-get|g\+\+/);
    const copied = all(final, 'COPY').map((i) => parseCopy(i.args));
    const destinations = copied.map((c) => c.dest.replace(/^\.\//, '').replace(/\/$/, ''));
    for (const needed of ['dist', 'views', 'migrations', 'public']) expect(destinations, needed).toContain(needed);
    expect(destinations).not.toContain('src'); // TypeScript does not run in production
    expect(copied.find((c) => c.dest.includes('dist'))!.from).toBe(build.name); // the compiled server
    expect(copied.find((c) => c.dest.includes('public'))!.from).toBe(build.name); // the built bundle
    const pkg = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).toContain('better-sqlite3'); // needed at run time
    for (const tool of ['tsx', 'typescript', 'esbuild']) expect(Object.keys(pkg.devDependencies), tool).toContain(tool); // build only
  });

  test('runs as a non-root user, with the data folder on a volume it owns', () => {
    const users = all(final, 'USER');
    expect(users.length).toBeGreaterThan(0);
    const user = users.at(-1)!.args.split(':')[0];
    expect(['root', '0']).not.toContain(user);
    const cmd = all(final, 'CMD').at(-1)!;
    expect(users.at(-1)!.line).toBeLessThan(cmd.line);
    const volumes = all(final, 'VOLUME').flatMap((v) => words(v.args));
    expect(volumes).toContain('/app/data');
    expect(runs(final)).toMatch(new RegExp(`chown ${user}(:\\S+)? /app/data`));
    const env = all(final, 'ENV')
      .map((e) => e.args)
      .join(' ');
    expect(env).toMatch(/DATABASE_PATH=\/app\/data\//);
  });

  test('has a HEALTHCHECK that asks /healthz with node (no curl in slim images), and exposes 3000', () => {
    const health = all(final, 'HEALTHCHECK');
    expect(health).toHaveLength(1);
    const cmd = health[0]!.args.slice(health[0]!.args.indexOf('CMD') + 3).trim();
    const argv = words(cmd);
    expect(argv[0]).toBe('node');
    expect(cmd).toContain('/healthz');
    expect(cmd).not.toMatch(/curl|wget/);
    expect(all(final, 'EXPOSE').map((e) => e.args)).toContain('3000');
  });

  test('starts the server with node directly (signals reach it; npm would not pass SIGTERM on)', () => {
    const argv = words(all(final, 'CMD').at(-1)!.args);
    expect(argv[0]).toBe('node');
    expect(argv).not.toContain('npm');
    expect(argv).toEqual(['node', 'dist/server/server.js']); // no loader: plain compiled JavaScript
    // `npm run build` emits it there: src/server/tsconfig.json compiles src/ into dist/.
    expect(existsSync(path.join(ROOT, 'src/server/server.ts'))).toBe(true);
    const tsconfig = JSON.parse(readFileSync(path.join(ROOT, 'src/server/tsconfig.json'), 'utf8')) as {
      compilerOptions: Record<string, unknown>;
    };
    expect(tsconfig.compilerOptions).toMatchObject({
      rootDir: '..',
      outDir: '../../dist',
      rewriteRelativeImportExtensions: true,
    });
  });
});

describe('.dockerignore', () => {
  test('keeps local state and secrets out of the build context', () => {
    for (const p of ['node_modules', '.git', 'data', 'public/build', '.env*']) expect(dockerignore).toContain(p);
  });
});
