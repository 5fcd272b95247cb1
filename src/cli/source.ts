/**
 * A command's layout: `--layout ID` or `--layout-file PATH [--name]` (a `.layout` or `.map`, recognised by
 * formats/detect.ts). Every problem is a UsageError naming the path.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { LAYOUTS, layoutById } from '../engine/builtins.ts';
import { detectFormat } from '../formats/detect.ts';
import { parseGnomeMaps } from '../formats/gnome.ts';
import { geometryOf, type Layout } from '../engine/index.ts';
import { parseDesktopName, parseKmahjongg } from '../formats/kmahjongg.ts';
import { exactlyOne, quote, UsageError, type Flags } from './args.ts';

export const MAX_FILE_BYTES = 4 * 1024 * 1024; // layouts are a few KB

/** Flags of every command that takes a layout by id or file. */
export const LAYOUT_FLAGS = { layout: 'value', 'layout-file': 'value', name: 'value' } as const;

export interface LoadedLayout {
  readonly layout: Layout;
  readonly warnings: readonly string[]; // oddities the parser read anyway
}

/** The built-in layout with this id, or a UsageError listing the ids. */
export function builtinLayout(id: string): Layout {
  const layout = layoutById(id);
  if (!layout)
    throw new UsageError(`unknown layout ${quote(id)}; built-in layouts: ${LAYOUTS.map((l) => l.id).join(', ')}`);
  return layout;
}

/** Reads the layout chosen by --layout or --layout-file [--name]. */
export function layoutFromFlags(flags: Flags): LoadedLayout {
  const which = exactlyOne(flags, ['layout', 'layout-file']);
  if (which === 'layout') {
    if (flags.has('name')) throw new UsageError(`${flags.command}: --name goes with --layout-file, not --layout`);
    return { layout: builtinLayout(flags.required('layout')), warnings: [] };
  }
  return readLayoutFile(flags.required('layout-file'), flags.text('name'));
}

/** Reads a file as text, with one-line errors. */
export function readText(file: string): string {
  let size: number;
  try {
    const stat = statSync(file);
    if (stat.isDirectory()) throw new UsageError(`cannot read ${file}: it is a directory`);
    size = stat.size;
  } catch (e) {
    if (e instanceof UsageError) throw e;
    throw new UsageError(`cannot read ${file}: ${systemReason(e)}`);
  }
  if (size > MAX_FILE_BYTES)
    throw new UsageError(
      `cannot read ${file}: ${size} bytes is too large for a layout file (at most ${MAX_FILE_BYTES})`,
    );
  try {
    return readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${systemReason(e)}`);
  }
}

const systemReason = (e: unknown): string => {
  const code = (e as { code?: string }).code;
  if (code === 'ENOENT') return 'no such file';
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'EISDIR') return 'it is a directory';
  return code ?? (e instanceof Error ? e.message.split('\n')[0]! : String(e));
};

/** Reads a `.layout` or `.map` file; `name` picks a map of a `.map` file. */
export function readLayoutFile(file: string, name?: string): LoadedLayout {
  const text = readText(file);
  const kind = detectFormat(file, text);
  if (kind === null)
    throw new UsageError(`${file}: unknown layout format; expected a KMahjongg .layout or a GNOME Mahjongg .map file`);
  const loaded = kind === 'kmahjongg' ? readKmahjongg(file, text, name) : readGnome(file, text, name);
  const geom = geometryOf(loaded.layout);
  if (!geom.ok) throw new UsageError(`${file}: ${geom.message}`);
  return loaded;
}

function readKmahjongg(file: string, text: string, name: string | undefined): LoadedLayout {
  if (name !== undefined) throw new UsageError(`--name picks a map of a .map file; ${file} is a KMahjongg layout`);
  const id = path.basename(file).replace(/\.[^.]*$/, '') || 'layout';
  const parsed = parseKmahjongg(text, id, desktopName(file) ?? undefined);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.message}`);
  return { layout: parsed.value.layout, warnings: parsed.value.warnings };
}

/** The display name in the `.desktop` file beside a `.layout`, when there is one. */
function desktopName(file: string): string | null {
  const desktop = file.replace(/\.[^./\\]*$/, '') + '.desktop';
  try {
    return statSync(desktop).size <= MAX_FILE_BYTES ? parseDesktopName(readFileSync(desktop, 'utf8')) : null;
  } catch {
    return null; // no desktop file: the layout is named after its file
  }
}

function readGnome(file: string, text: string, name: string | undefined): LoadedLayout {
  const parsed = parseGnomeMaps(text);
  if (!parsed.ok) throw new UsageError(`${file}: ${parsed.message}`);
  const maps = parsed.value;
  if (maps.length === 0) throw new UsageError(`${file}: the file holds no <map>`);
  if (name === undefined) return { layout: maps[0]!.layout, warnings: [] };
  const wanted = name.toLowerCase();
  const map = maps.find((m) => m.name === name || m.id === name) ?? maps.find((m) => m.name.toLowerCase() === wanted);
  if (!map)
    throw new UsageError(
      `${file}: no map named ${quote(name)}; maps: ${maps.map((m) => `${m.name} (${m.id})`).join(', ')}`,
    );
  return { layout: map.layout, warnings: [] };
}
