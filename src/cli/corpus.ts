/**
 * The layout corpus, other games' files read but never copied: `kmahjongg/*.layout` (and `.desktop` names) and
 * `gnome/*.map`, in the folder MAHJONG_LAYOUTS_DIR (README.md, "Configuration").
 */
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import type { Layout } from '../engine/index.ts';
import { UsageError, type Env } from './args.ts';
import { readLayoutFile, readText } from './source.ts';
import { parseGnomeMaps } from '../formats/gnome.ts';

export const DEFAULT_CORPUS_DIR = '../shared/layouts'; // relative to the working directory

/** The corpus folder, absolute: MAHJONG_LAYOUTS_DIR, else DEFAULT_CORPUS_DIR, from `cwd`. */
export const corpusDir = (env: Env = process.env, cwd: string = process.cwd()): string =>
  path.resolve(cwd, env.MAHJONG_LAYOUTS_DIR || DEFAULT_CORPUS_DIR);

export type Source = 'builtin' | 'kmahjongg' | 'gnome';

/** A corpus layout, or the reason its file could not be read. */
export type CorpusEntry =
  | { readonly source: Source; readonly id: string; readonly layout: Layout }
  | { readonly source: Source; readonly id: string; readonly error: string };

const filesIn = (dir: string, ext: string): string[] =>
  existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.toLowerCase().endsWith(ext))
        .sort()
    : [];

const messageOf = (e: unknown): string => (e instanceof Error ? e.message : String(e));

/** Every layout of the corpus at `root` (GNOME maps first), or [] when the folder is absent. */
export function corpusLayouts(root: string = corpusDir()): CorpusEntry[] {
  const entries: CorpusEntry[] = [];
  for (const file of filesIn(path.join(root, 'gnome'), '.map')) {
    const full = path.join(root, 'gnome', file);
    try {
      const parsed = parseGnomeMaps(readText(full));
      if (!parsed.ok) throw new UsageError(`${full}: ${parsed.message}`);
      for (const map of parsed.value) entries.push({ source: 'gnome', id: map.id, layout: map.layout });
    } catch (e) {
      entries.push({ source: 'gnome', id: file, error: messageOf(e) });
    }
  }
  for (const file of filesIn(path.join(root, 'kmahjongg'), '.layout')) {
    const id = file.slice(0, -'.layout'.length);
    try {
      entries.push({ source: 'kmahjongg', id, layout: readLayoutFile(path.join(root, 'kmahjongg', file)).layout });
    } catch (e) {
      entries.push({ source: 'kmahjongg', id, error: messageOf(e) });
    }
  }
  return entries;
}
