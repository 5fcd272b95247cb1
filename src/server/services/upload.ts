/**
 * Uploaded or drawn layouts read into layouts with a content id and a clean name (docs/server.md, "Your own
 * layouts").
 */
import { createHash } from 'node:crypto';
import { detectFormat } from '../../formats/detect.ts';
import { checkGnomeMap, scanGnomeMaps } from '../../formats/gnome.ts';
import { makeLayout, sortSlots, validateSlots, type Layout, type Slot } from '../../engine/index.ts';
import { parseKmahjongg } from '../../formats/kmahjongg.ts';

/** Bounds an upload's reading time; a 1,000-tile layout is under 30 KB. */
export const MAX_UPLOAD_BYTES = 96 * 1024;
export const UPLOAD_COST = { baseMs: 5, perKbMs: 0.5 } as const;
export const NAME_MAX = 40; // characters of a display name
export const MAP_NAME_MAX = 100; // characters of the form's map name field
export const CUSTOM_ID = /^c-[0-9a-f]{12}$/;
export const DEFAULT_NAME = 'Custom layout';

export type LayoutFormat = 'kmahjongg' | 'gnome' | 'editor';

export const uploadCostMs = (bytes: number): number => UPLOAD_COST.baseMs + (bytes / 1024) * UPLOAD_COST.perKbMs;

export const isCustomId = (id: string): boolean => CUSTOM_ID.test(id);

export interface ReadLayout {
  readonly layout: Layout; // normalized slots, canonical order
  readonly format: LayoutFormat;
  readonly warnings: readonly string[];
}

export type ReadResult =
  { readonly ok: true; readonly value: ReadLayout } | { readonly ok: false; readonly message: string };

const fail = (message: string): ReadResult => ({ ok: false, message });

function visibleName(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

export function cleanName(raw: string): string {
  const chars = [...visibleName(raw)];
  return (
    (chars.length > NAME_MAX
      ? `${chars
          .slice(0, NAME_MAX - 1)
          .join('')
          .trimEnd()}…`
      : chars.join('')) || DEFAULT_NAME
  );
}

export type NameResult =
  { readonly ok: true; readonly name: string } | { readonly ok: false; readonly message: string };

/** A name a player typed ('' for an empty field): refused, not cut, past NAME_MAX or with nothing to show. */
export function typedName(raw: string): NameResult {
  if (raw.trim() === '') return { ok: true, name: '' };
  const visible = visibleName(raw);
  if (visible === '')
    return { ok: false, message: 'the name has no characters that can be shown; type a name or leave it empty' };
  if ([...visible].length > NAME_MAX)
    return { ok: false, message: `a layout's name is at most ${NAME_MAX} characters` };
  return { ok: true, name: cleanName(visible) };
}

/** Extension dropped, `_` as spaces, an all-lowercase name given a capital. */
export function fileNameTitle(base: string): string {
  const words = visibleName(base.replace(/\.[^.]*$/, '').replace(/_/g, ' '));
  if (words !== words.toLowerCase()) return cleanName(words);
  const [first = '', ...rest] = [...words];
  return cleanName(first.toLocaleUpperCase('en') + rest.join(''));
}

const DESKTOP_GROUPS = new Set(['KMahjonggLayout', 'Desktop Entry']);

/** Reads `.desktop` escapes (\s, \\; \n \t \r as white space). */
const desktopValue = (raw: string): string =>
  raw.replace(/\\(.)/g, (_, c: string) => (c === 's' || c === 'n' || c === 't' || c === 'r' ? ' ' : c));

/** `Name[lang]=`, a regional `Name[lang_…]`, else `Name=`. */
export function readDesktopName(bytes: Uint8Array, lang: string): NameResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'the .desktop file is not text (UTF-8)' };
  }
  const names = new Map<string, string>(); // locale ('' for plain Name=) → first value
  let group = '';
  for (const line of text.split(/\r?\n/)) {
    const head = /^\s*\[([^\]]*)\]\s*$/.exec(line);
    if (head) {
      group = head[1]!;
      continue;
    }
    if (!DESKTOP_GROUPS.has(group)) continue;
    const entry = /^Name(?:\[([A-Za-z@_.-]{1,30})\])?\s*=(.*)$/.exec(line);
    if (!entry) continue;
    const value = visibleName(desktopValue(entry[2]!));
    const locale = entry[1] ?? '';
    if (value !== '' && !names.has(locale)) names.set(locale, value);
  }
  if (names.size === 0)
    return {
      ok: false,
      message:
        'the .desktop file has no Name= line in a [KMahjonggLayout] group; it is not the .desktop of a KMahjongg layout',
    };
  const regional = [...names.keys()].find((l) => l.startsWith(`${lang}_`) || l.startsWith(`${lang}@`));
  const name =
    names.get(lang) ??
    (lang === 'en' ? names.get('') : undefined) ??
    (regional === undefined ? undefined : names.get(regional)) ??
    names.get('') ??
    [...names.values()][0]!;
  return { ok: true, name: cleanName(name) };
}

export function normalizeSlots(slots: readonly Slot[]): Slot[] {
  let minX = Infinity;
  let minY = Infinity;
  let minZ = Infinity;
  for (const s of slots) {
    minX = Math.min(minX, s.x);
    minY = Math.min(minY, s.y);
    minZ = Math.min(minZ, s.z);
  }
  return sortSlots(slots.map((s) => ({ x: s.x - minX, y: s.y - minY, z: s.z - minZ })));
}

export const slotsJson = (slots: readonly Slot[]): string => JSON.stringify(slots.map((s) => [s.x, s.y, s.z]));

export const customId = (normalized: readonly Slot[]): string =>
  `c-${createHash('sha256').update(slotsJson(normalized)).digest('hex').slice(0, 12)}`;

export const parseSlotsJson = (json: string): Slot[] =>
  (JSON.parse(json) as [number, number, number][]).map(([x, y, z]) => ({ x, y, z }));

/** Read as an upload is: same shape, same id. */
export function readDrawn(slots: readonly Slot[], name: string): ReadResult {
  const valid = validateSlots(slots);
  if (!valid.ok) return fail(valid.message);
  const normalized = normalizeSlots(valid.value);
  const id = customId(normalized);
  const layout = makeLayout(id, cleanName(name), `Your own layout, ${normalized.length} tiles`, normalized);
  return { ok: true, value: { layout, format: 'editor', warnings: [] } };
}

/** Some old browsers send a whole path. */
const baseName = (filename: string): string => filename.split(/[\\/]/).pop() ?? '';

export interface DesktopFile {
  readonly bytes: Uint8Array;
  readonly lang: string;
}

/** `mapName` picks a GNOME map (empty: the first); `desktop` names a `.layout`. */
export function readUpload(bytes: Uint8Array, filename: string, mapName: string, desktop?: DesktopFile): ReadResult {
  if (bytes.length === 0)
    return fail(filename ? `${cleanName(baseName(filename))} is empty` : 'choose a .layout or .map file to upload');
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return fail('the file is not text (UTF-8); a layout file is a KMahjongg .layout or a GNOME Mahjongg .map');
  }
  if (text.includes('\0'))
    return fail('the file is not text; a layout file is a KMahjongg .layout or a GNOME Mahjongg .map');
  const base = baseName(filename);
  const kind = detectFormat(base, text);
  if (kind === null)
    return fail(
      'unknown layout format: expected a KMahjongg .layout (its first line is kmahjongg-layout-v1.0 or v1.1) or a GNOME Mahjongg .map (a <mahjongg> element)',
    );
  let name: string;
  let slots: readonly Slot[];
  let warnings: readonly string[] = [];
  if (kind === 'kmahjongg') {
    if (mapName !== '')
      return fail('a map name picks one map of a GNOME .map file; this is a KMahjongg .layout, so leave it empty');
    const parsed = parseKmahjongg(text, 'upload');
    if (!parsed.ok) return fail(parsed.message);
    if (desktop) {
      const named = readDesktopName(desktop.bytes, desktop.lang);
      if (!named.ok) return fail(named.message);
      name = named.name;
    } else name = fileNameTitle(base);
    slots = parsed.value.layout.slots;
    warnings = parsed.value.warnings;
  } else {
    if (desktop)
      return fail(
        'a .desktop file names a KMahjongg .layout beside it; a GNOME .map names its own maps, so send it alone',
      );
    // Only the chosen map's tiles are checked: that is most of the work.
    const parsed = scanGnomeMaps(text);
    if (!parsed.ok) return fail(parsed.message);
    const maps = parsed.value;
    const wanted = mapName.toLowerCase();
    const map =
      mapName === ''
        ? maps[0]
        : (maps.find((m) => m.name === mapName || m.id === mapName) ??
          maps.find((m) => m.name.toLowerCase() === wanted));
    if (!map) {
      const listed = maps
        .slice(0, 20)
        .map((m) => m.name)
        .join(', ');
      return fail(
        `no map called ${JSON.stringify(mapName)} in this file; its maps: ${listed}${maps.length > 20 ? ', …' : ''}`,
      );
    }
    const checked = checkGnomeMap(map);
    if (!checked.ok) return fail(checked.message);
    name = cleanName(map.name);
    slots = checked.value.layout.slots;
  }
  const normalized = normalizeSlots(slots);
  const id = customId(normalized);
  const layout = makeLayout(id, name, `Your own layout, ${normalized.length} tiles`, normalized);
  return { ok: true, value: { layout, format: kind, warnings } };
}
