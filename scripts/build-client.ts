/**
 * Builds the browser assets into public/build/ (docs/contract-board.md, "Assets").
 *
 * - src/client/worker.ts (the solver's Web Worker), src/client/main.ts and src/client/theme.ts (the theme
 *   switch, on every page) are bundled by esbuild as
 *   minified ES modules for current browsers. The worker is written first: main.ts learns its hashed
 *   file name through the `__WORKER_FILE__` define and finds it next to itself
 *   (`new URL(file, import.meta.url)`), so the server needs no route for it.
 * - The face sheets (scripts/face-sheets.ts): each tile set's sprite (scripts/faces/) drawn as one image
 *   per theme, in that theme's colours from site.css (`faces-<set>-<theme>.svg`); board.css gets the rules
 *   that paint them appended.
 * - src/client/site.ts (the other pages' script), src/client/replay.ts (the replay page's) and src/client/sw.ts
 *   (the service worker, served at /sw.js by the server) are bundled too, and the layout editor's script (src/client/editor.ts, which
 *   finds its worker, src/client/editor-worker.ts, through `__EDITOR_WORKER_FILE__`).
 * - public/css/site.css, public/css/board.css and public/css/editor.css are copied (minified by esbuild); the
 *   app's icon is drawn as SVG and PNG (192 and 512 px) by scripts/icon.ts.
 * - Every output name carries the first 8 hex digits of the SHA-256 of its bytes, and
 *   public/build/manifest.json maps the plain names to `build/<name>.<hash>.<ext>`. Each file also gets
 *   pre-compressed `.br` and `.gz` siblings.
 *
 * The folder is emptied first so stale hashed files do not pile up. Run: npm run build
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip as gzipCb } from 'node:zlib';
import { build, transform, type Plugin } from 'esbuild';
import { TILE_SETS, type TileSet } from '../src/shared/tilesets.ts';
import { ART_OF, faceColours, faceRules, faceSheet, THEMES, type Theme } from './face-sheets.ts';
import { spriteOf } from './faces/index.ts';
import { iconPng, iconSvg } from './icon.ts';

export const ICON_PNG_SIZES = [192, 512] as const; // the sizes installers ask for

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const OUT = join(ROOT, 'public', 'build');
const TARGET = ['chrome100', 'firefox100', 'safari15', 'edge100']; // browsers with ES modules in workers

const brotli = promisify(brotliCompress);
const gzip = promisify(gzipCb);

const hashOf = (bytes: string | Uint8Array): string => createHash('sha256').update(bytes).digest('hex').slice(0, 8);

/**
 * Writes `bytes` as build/<stem>.<hash>.<ext>, with .br and .gz copies compressed at the highest levels
 * (for a static server's pre-compressed mode: compressing a script on every request at brotli's top level
 * costs about 100 ms), and returns the manifest path `build/…`.
 */
function emit(stem: string, ext: string, bytes: string | Uint8Array): string {
  const name = `${stem}.${hashOf(bytes)}.${ext}`;
  const file = join(OUT, name);
  writeFileSync(file, bytes);
  const raw = typeof bytes === 'string' ? Buffer.from(bytes) : bytes;
  // compressed on libuv's thread pool, in parallel with the rest of the build
  pending.push(
    brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).then((br) => writeFile(`${file}.br`, br)),
    gzip(raw, { level: 9 }).then((gz) => writeFile(`${file}.gz`, gz)),
  );
  return `build/${name}`;
}
const pending: Promise<void>[] = [];

/**
 * The engine has no I/O and no module that acts when imported, but a bundler cannot know that of its
 * top-level values: the built-in layouts (data made by calls in src/engine/builtins.ts, gallery.ts and
 * shapes.ts) and the solver's tables (solver/playouts.ts, workspace.ts, budget.ts) would be kept wherever the
 * engine's index is imported. Every src/engine module is declared free of side effects, so a bundle that uses
 * none of a module's names leaves it out: app.js and editor.js carry no layout data (about 8 KB gzip) and no
 * solver tables (whose set-up also cost a page's first script run a 32 KB allocation), and the worker, which
 * deals built-in layouts offline and solves, keeps them whole.
 */
const ENGINE = /[\\/]src[\\/]engine[\\/].+\.ts$/;
const engineNoSideEffects: Plugin = {
  name: 'engine-no-side-effects',
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => {
      if (args.kind === 'entry-point') return undefined;
      const path = resolve(args.resolveDir, args.path);
      return ENGINE.test(path) ? { path, sideEffects: false } : undefined;
    });
  },
};

/** Bundles one entry point to a single minified file held in memory (an ES module unless `format` says). */
async function bundle(
  entry: string,
  define: Record<string, string> = {},
  format: 'esm' | 'iife' = 'esm',
): Promise<string> {
  const result = await build({
    entryPoints: [join(ROOT, entry)],
    bundle: true,
    format,
    minify: !process.env.NO_MINIFY, // NO_MINIFY=1: readable names in a profile
    target: TARGET,
    write: false,
    legalComments: 'none',
    define,
    // Messages reach the browser parsed (src/client/i18n.ts): intl-messageformat without its parser.
    alias: { '@formatjs/icu-messageformat-parser': '@formatjs/icu-messageformat-parser/no-parser.js' },
    plugins: [engineNoSideEffects],
    logLevel: 'warning',
  });
  return result.outputFiles[0]!.text;
}

async function minifyCss(text: string): Promise<string> {
  const result = await transform(text, { loader: 'css', minify: true, target: TARGET });
  return result.code;
}

export async function buildClient(): Promise<Record<string, string>> {
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });
  const manifest: Record<string, string> = {};

  const siteCss = readFileSync(join(ROOT, 'public', 'css', 'site.css'), 'utf8');
  const colours = faceColours(siteCss);
  const sheets = {} as Record<TileSet, Record<Theme, string>>;
  for (const set of TILE_SETS) {
    const sprite = spriteOf(set);
    sheets[set] = {} as Record<Theme, string>;
    for (const theme of THEMES) {
      const name = `faces-${set}-${theme}`;
      manifest[`${name}.svg`] = emit(name, 'svg', faceSheet(sprite, colours[theme], ART_OF[set]));
      sheets[set][theme] = `/static/${manifest[`${name}.svg`]}`;
    }
  }
  const worker = await bundle('src/client/worker.ts');
  manifest['worker.js'] = emit('worker', 'js', worker);
  const file = (key: string): string => JSON.stringify(manifest[key]!.slice('build/'.length));
  // The first game's lesson: fetched by app.js only when it opens (src/client/lesson-boot.ts).
  manifest['tutorial.js'] = emit('tutorial', 'js', await bundle('src/client/tutorial.ts'));
  const app = await bundle('src/client/main.ts', {
    __WORKER_FILE__: file('worker.js'),
    __TUTORIAL_FILE__: file('tutorial.js'),
  });
  manifest['app.js'] = emit('app', 'js', app);
  manifest['site.js'] = emit('site', 'js', await bundle('src/client/site.ts'));
  manifest['replay.js'] = emit('replay', 'js', await bundle('src/client/replay.ts')); // the replay page's steps in place
  manifest['race.js'] = emit('race', 'js', await bundle('src/client/race.ts')); // a race page's live standings
  // A classic script, not a module: module service workers are newer than the browsers in TARGET. The
  // server serves it at /sw.js with the build's version and file list written in front (routes/offline.ts).
  manifest['sw.js'] = emit('sw', 'js', await bundle('src/client/sw.ts', {}, 'iife'));
  manifest['icon.svg'] = emit('icon', 'svg', iconSvg());
  for (const size of ICON_PNG_SIZES) manifest[`icon-${size}.png`] = emit(`icon-${size}`, 'png', iconPng(size));
  manifest['icon-maskable-512.png'] = emit('icon-maskable-512', 'png', iconPng(512, true)); // full bleed, for Android's masks
  manifest['theme.js'] = emit('theme', 'js', await bundle('src/client/theme.ts')); // on every page: the theme switch
  // The layout editor's page: its own small script, and the worker that answers "can this be cleared?".
  manifest['editor-worker.js'] = emit('editor-worker', 'js', await bundle('src/client/editor-worker.ts'));
  manifest['editor.js'] = emit(
    'editor',
    'js',
    await bundle('src/client/editor.ts', { __EDITOR_WORKER_FILE__: file('editor-worker.js') }),
  );

  manifest['site.css'] = emit('site', 'css', await minifyCss(siteCss));
  // board.css, then the lesson's dialog (tutorial.css: a few rules, so the lesson opens with no style to fetch).
  const boardCss = ['board.css', 'tutorial.css']
    .map((name) => readFileSync(join(ROOT, 'public', 'css', name), 'utf8'))
    .join('\n');
  manifest['board.css'] = emit('board', 'css', await minifyCss(`${boardCss}\n${faceRules(sheets)}\n`));
  manifest['editor.css'] = emit(
    'editor',
    'css',
    await minifyCss(readFileSync(join(ROOT, 'public', 'css', 'editor.css'), 'utf8')),
  );

  await Promise.all(pending.splice(0));
  writeFileSync(join(OUT, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
  return manifest;
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const started = performance.now();
  const manifest = await buildClient();
  const ms = Math.round(performance.now() - started);
  console.log(`built ${Object.keys(manifest).length} assets into public/build in ${ms} ms`);
}
