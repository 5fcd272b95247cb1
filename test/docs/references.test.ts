/**
 * The project's references to its own docs and files hold: a clone has everything a comment or a page
 * points at. Every path of a source, test, page, style, migration or doc file named anywhere exists. Nothing in src/ or docs/ names a file outside the repository (the product's contracts are
 * docs/contracts.md's, not a folder beside the checkout's), and every reference of the form
 * `docs/<page>.md, "Heading"` (or README.md's), in any source, test or page, names a heading that file has.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, test } from 'vitest';
import { ROOT } from '../support/root.ts';

/** Every file under `dir` (relative to the root) whose name ends in one of `extensions`. */
function filesUnder(dir: string, extensions: readonly string[]): string[] {
  const found: string[] = [];
  const walk = (rel: string): void => {
    for (const name of readdirSync(path.join(ROOT, rel))) {
      const child = path.join(rel, name);
      if (statSync(path.join(ROOT, child)).isDirectory()) walk(child);
      else if (extensions.some((ext) => name.endsWith(ext))) found.push(child);
    }
  };
  walk(dir);
  return found.sort();
}

const TEXT = ['.ts', '.md', '.eta', '.css', '.sql', '.json'];
const read = (rel: string): string => readFileSync(path.join(ROOT, rel), 'utf8');

describe('references', () => {
  test('nothing in src/ or docs/ points outside the repository', () => {
    const outside: string[] = [];
    for (const file of [...filesUnder('src', TEXT), ...filesUnder('docs', TEXT)]) {
      read(file)
        .split('\n')
        .forEach((line, i) => {
          // The layout corpus's folder is a documented setting (README.md, "Configuration"): its default may be named.
          if (/MAHJONG_LAYOUTS_DIR|DEFAULT_CORPUS_DIR/.test(line)) return;
          if (/\bSPEC\b|SPEC\.md|STYLE\.md|\.\.\/shared\/(layouts|peers|hooks)\b/.test(line))
            outside.push(`${file}:${i + 1}: ${line.trim()}`);
        });
    }
    expect(outside).toEqual([]);
  });

  test('every `docs/<page>.md, "Heading"` names a heading of that file', () => {
    const headings = new Map<string, string[]>();
    const headingsOf = (doc: string): string[] => {
      let list = headings.get(doc);
      if (!list) {
        list = read(doc)
          .split('\n')
          .filter((l) => l.startsWith('#'))
          .map((l) => l.replace(/^#+\s*/, '').trim());
        headings.set(doc, list);
      }
      return list;
    };
    // "Your own layouts" names the heading "Your own layouts (`/layouts/new`, …)"; "The solver's measurements"
    // names "5. The solver's measurements".
    const names = (heading: string, wanted: string): boolean =>
      heading === wanted ||
      heading.startsWith(`${wanted} (`) ||
      heading.startsWith(`${wanted}:`) ||
      heading.replace(/^\d+\.\s+/, '') === wanted;
    const reference =
      /((?:docs\/[\w-]+\.md)|README\.md)(?:,\s*|\s*\(|\s+promises\s+\()((?:"[^"\n]+"(?:,\s*|\s+and\s+)?)+)/g;
    const files = ['README.md', ...['src', 'docs', 'test', 'bench', 'scripts'].flatMap((d) => filesUnder(d, TEXT))];
    const broken: string[] = [];
    let checked = 0;
    for (const file of files) {
      const flat = read(file).replace(/\n\s*(?:\*|\/\/)?\s*/g, ' '); // a reference may run over comment lines
      for (const [, doc, quoted] of flat.matchAll(reference)) {
        for (const [, wanted] of quoted!.matchAll(/"([^"]+)"/g)) {
          checked++;
          const known = existsSync(path.join(ROOT, doc!)) && headingsOf(doc!).some((h) => names(h, wanted!));
          if (!known) broken.push(`${file}: ${doc}, "${wanted}"`);
        }
      }
    }
    expect(broken).toEqual([]);
    expect(checked).toBeGreaterThan(100); // the pattern still finds the references
  });

  test('every file path named in src/, test/, docs/, bench/, scripts/, views/, migrations/ and README.md exists', () => {
    // A path is named from the root ("src/server/app.ts"), from its own folder ("./render.ts"), or from a part
    // of src/ or test/ as the comments of that part do ("services/growth.ts", "client/audit.ts").
    const bases = [
      '',
      ...['server', 'client', 'engine', 'cli', 'shared', 'formats'].map((part) => `src/${part}`),
      'src',
      'test',
      'test/server',
      'public',
      'public/css',
      'views',
    ];
    const named = /(?<![\w/.:%-])((?:\.\/|[\w-]+\/)+[\w.-]+\.(?:ts|md|eta|css|sql|csv))\b/g;
    const files = [
      'README.md',
      ...['src', 'test', 'docs', 'bench', 'scripts', 'views', 'migrations'].flatMap((d) => filesUnder(d, TEXT)),
    ];
    const missing: string[] = [];
    let checked = 0;
    for (const file of files) {
      for (const [, cited] of read(file).matchAll(named)) {
        if (/NNN|^(node_modules|dist|build)\//.test(cited!)) continue; // a pattern, or what a build or install makes
        checked++;
        const here = path.dirname(file);
        if (![...bases, here, path.dirname(here)].some((base) => existsSync(path.join(ROOT, base, cited!))))
          missing.push(`${file}: ${cited}`);
      }
    }
    expect(missing).toEqual([]);
    expect(checked).toBeGreaterThan(500); // the pattern still finds the paths
  });
});
