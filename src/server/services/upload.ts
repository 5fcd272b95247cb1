/**
 * Reading an uploaded layout file (POST /layouts; docs/contracts.md, "Layout files"): a KMahjongg `.layout` or a GNOME
 * Mahjongg `.map`, read by the engine's parsers, into a layout with its content id; and a layout drawn
 * in the layout editor (POST /layouts/editor), read the same way (`readDrawn`).
 *
 * Rules we chose (docs/server.md, "Your own layouts"):
 * - The format is told by the file name's extension, else by the text (formats/detect.ts, as the CLI's --layout-file).
 *   The file must be UTF-8 text; anything else is refused before a parser sees it.
 * - The id is `c-` plus the first 12 hex characters of the sha256 of the *normalized slot list*, not
 *   of the file's bytes: the layout moved so its lowest x, y and z are 0 (only differences between
 *   tiles matter to the rules), in canonical slot order, written as JSON `[[x,y,z],…]`. So the same
 *   file gives the same id, and so does the same shape in another file (comments, line endings, a
 *   KMahjongg grid and a GNOME map of it, a board shifted by half a tile). The name is not part of it.
 * - The name read from the file is the GNOME map's name, or for a KMahjongg `.layout` the `Name=` of the `.desktop` sent
 *   beside it (in the uploader's language where it has one), else the file's name (fileNameTitle); cleaned:
 *   control and format characters (bidi overrides among them) dropped, white space collapsed, at most NAME_MAX
 *   characters. It names the layout for its uploader alone (custom-layouts.ts); pages escape it like any text.
 * Whether the layout can be cleared is the dealer's question (a deal in a worker, with a deadline).
 */
import { createHash } from 'node:crypto';
import { detectFormat } from '../../formats/detect.ts';
import { checkGnomeMap, scanGnomeMaps } from '../../formats/gnome.ts';
import { makeLayout, sortSlots, validateSlots, type Layout, type Slot } from '../../engine/index.ts';
import { parseKmahjongg } from '../../formats/kmahjongg.ts';

/**
 * A layout file is a few KB (the corpus' largest is 3.6 KB, GNOME's own 13.7 KB; a 1,000-tile layout is under
 * 30 KB in either format, a KMahjongg grid of one whole 256 × 256 layer 66 KB). Reading costs the main thread
 * up to about 0.45 ms a KB (markup of tiny elements), so this bounds one upload's time.
 */
export const MAX_UPLOAD_BYTES = 96 * 1024;
/** The main thread's time an upload may take, charged before it is read (docs/operations.md, "CPU budgets"). */
export const UPLOAD_COST = { baseMs: 5, perKbMs: 0.5 } as const;
export const NAME_MAX = 40; // characters of a display name
export const MAP_NAME_MAX = 100; // characters of the form's map name field
export const CUSTOM_ID = /^c-[0-9a-f]{12}$/;
export const DEFAULT_NAME = 'Custom layout';

export type LayoutFormat = 'kmahjongg' | 'gnome' | 'editor'; // the file it came from, or the layout editor

/** The estimated cost of reading an upload of `bytes` (UPLOAD_COST), in ms: known before reading it. */
export const uploadCostMs = (bytes: number): number => UPLOAD_COST.baseMs + (bytes / 1024) * UPLOAD_COST.perKbMs;

/** Is this a custom layout's id (`c-` and 12 lowercase hex)? */
export const isCustomId = (id: string): boolean => CUSTOM_ID.test(id);

export interface ReadLayout {
  readonly layout: Layout; // id `c-…`, the cleaned name, normalized slots in canonical order
  readonly format: LayoutFormat;
  readonly warnings: readonly string[]; // oddities the parser read anyway
}

export type ReadResult =
  { readonly ok: true; readonly value: ReadLayout } | { readonly ok: false; readonly message: string };

const fail = (message: string): ReadResult => ({ ok: false, message });

/** A name's characters with control and format characters dropped and white space collapsed; '' when none are left. */
function visibleName(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
}

/** A display name safe to show anywhere: no control or format characters, one space at most, NAME_MAX characters. */
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

/**
 * A name a player typed for their layout (the upload form's, the editor's, a rename's), cleaned as cleanName does;
 * '' for an empty field (the name then comes from the file). Refused rather than cut: a name longer than NAME_MAX
 * characters, or one with nothing that can be shown (only control or format characters).
 */
export function typedName(raw: string): NameResult {
  if (raw.trim() === '') return { ok: true, name: '' };
  const visible = visibleName(raw);
  if (visible === '')
    return { ok: false, message: 'the name has no characters that can be shown; type a name or leave it empty' };
  if ([...visible].length > NAME_MAX)
    return { ok: false, message: `a layout's name is at most ${NAME_MAX} characters` };
  return { ok: true, name: cleanName(visible) };
}

/**
 * A name from a file's name: its extension dropped, underscores made spaces, and a name written all in small letters
 * given a capital first letter ("stairs_to_heaven.layout": "Stairs to heaven"); a name with capitals of its own
 * keeps them ("X_shaped.layout": "X shaped"). Nothing else is changed or added.
 */
export function fileNameTitle(base: string): string {
  const words = visibleName(base.replace(/\.[^.]*$/, '').replace(/_/g, ' '));
  if (words !== words.toLowerCase()) return cleanName(words);
  const [first = '', ...rest] = [...words];
  return cleanName(first.toLocaleUpperCase('en') + rest.join(''));
}

/** The groups of a KMahjongg `.desktop` file whose keys name the layout. */
const DESKTOP_GROUPS = new Set(['KMahjonggLayout', 'Desktop Entry']);

/** A `.desktop` value with its escapes read (\s a space, \\ a backslash; \n \t \r white space). */
const desktopValue = (raw: string): string =>
  raw.replace(/\\(.)/g, (_, c: string) => (c === 's' || c === 'n' || c === 't' || c === 'r' ? ' ' : c));

/**
 * The layout's name in a KMahjongg `.desktop` file (`Name=`, and `Name[xx]=` per language, in its
 * [KMahjonggLayout] group), in the language `lang` (one of ours: `pt` takes `Name[pt]`, else `Name[pt_BR]`; `zh`
 * the first `Name[zh_…]`), else the plain `Name=`; cleaned as cleanName does. Every failure is a message for the form.
 */
export function readDesktopName(bytes: Uint8Array, lang: string): NameResult {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return { ok: false, message: 'the .desktop file is not text (UTF-8)' };
  }
  const names = new Map<string, string>(); // locale ('' for the plain Name=) → value, the first of each
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

/** The slots moved so the lowest x, y and z are 0, in canonical order. */
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

/** The JSON the id is hashed from and the store keeps: `[[x,y,z],…]`. */
export const slotsJson = (slots: readonly Slot[]): string => JSON.stringify(slots.map((s) => [s.x, s.y, s.z]));

/** The content id of normalized slots: `c-` + 12 hex of sha256(slotsJson). */
export const customId = (normalized: readonly Slot[]): string =>
  `c-${createHash('sha256').update(slotsJson(normalized)).digest('hex').slice(0, 12)}`;

/** Slots from the store's JSON. */
export const parseSlotsJson = (json: string): Slot[] =>
  (JSON.parse(json) as [number, number, number][]).map(([x, y, z]) => ({ x, y, z }));

/**
 * A layout drawn in the layout editor (POST /layouts/editor), read as an upload is: the same checks of its
 * tiles, the same normalizing and content id (so a drawn layout and the same shape uploaded share one
 * page), and a name cleaned the same way. Whether it can be cleared is the dealer's question, as for a file.
 */
export function readDrawn(slots: readonly Slot[], name: string): ReadResult {
  const valid = validateSlots(slots);
  if (!valid.ok) return fail(valid.message);
  const normalized = normalizeSlots(valid.value);
  const id = customId(normalized);
  const layout = makeLayout(id, cleanName(name), `Your own layout, ${normalized.length} tiles`, normalized);
  return { ok: true, value: { layout, format: 'editor', warnings: [] } };
}

/** The base name of an uploaded file (browsers send only that; some old ones a whole path). */
const baseName = (filename: string): string => filename.split(/[\\/]/).pop() ?? '';

/** A KMahjongg `.desktop` file sent beside a `.layout`, to name it; `lang` the uploader's page language. */
export interface DesktopFile {
  readonly bytes: Uint8Array;
  readonly lang: string;
}

/**
 * Reads an uploaded file: `filename` as the browser sent it, `mapName` the form's map field (empty:
 * the first map), `desktop` a KMahjongg `.desktop` beside it (its name is the layout's). Every failure is a
 * message for the form.
 */
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
    // The whole file is read, but only the chosen map's tiles are checked: that is most of the work.
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
