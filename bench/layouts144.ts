/**
 * Every layout of 144 tiles, named as the benchmarks that race or search them name it (bench/native.ts,
 * bench/search-tail.ts): our built-ins, then the corpus's, each `builtin:ID`, `kmahjongg:ID` or `gnome:ID`.
 */
import { LAYOUTS } from '../src/engine/builtins.ts';
import type { Layout } from '../src/engine/index.ts';
import { corpusLayouts, type Source } from '../src/cli/corpus.ts';

export interface Layout144 {
  readonly name: string;
  readonly source: Source;
  readonly id: string;
  readonly layout: Layout;
}

/** The layouts of 144 tiles, built-ins first, then those of the corpus at `root` that load. */
export function layoutsOf144(root: string): Layout144[] {
  const list: Layout144[] = LAYOUTS.filter((l) => l.slots.length === 144).map((l) => ({
    name: `builtin:${l.id}`,
    source: 'builtin',
    id: l.id,
    layout: l,
  }));
  for (const entry of corpusLayouts(root))
    if (!('error' in entry) && entry.layout.slots.length === 144)
      list.push({ name: `${entry.source}:${entry.id}`, source: entry.source, id: entry.id, layout: entry.layout });
  return list;
}
