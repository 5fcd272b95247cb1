/**
 * Players' own layouts: uploads read into layouts (upload.ts), and layouts drawn in the layout
 * editor, checked by dealing them once (the dealer, in a worker), stored by content id, and
 * looked up beside the built-ins.
 *
 * `fastify.layouts` answers for every layout id, built in or custom: its info for pages, its name
 * for stats. Custom layouts never change, so they are kept parsed (with their picture) in an LRU.
 *
 * A stored layout is a write any visitor can cause, so new ones are budgeted (limits.ts
 * NEW_LAYOUT_LIMITS): per client (an IPv4 /24 or IPv6 /64) an hour, and for everyone an hour.
 * Uploading a layout that is stored already costs nothing and leads to its page.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { geometryOf, makeLayout, type Layout, type Slot } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import type { CustomLayoutRow } from '../stores/types.ts';
import { layoutGrowth } from './growth.ts';
import { budgetGroup, NEW_LAYOUT_LIMITS, WindowBudget, type NewLayoutLimits } from './limits.ts';
import { layoutName, type Namer } from './layouts.ts';
import { ByteLru } from '../utils/lru.ts';
import { CACHE_BUDGETS, customLayoutBytes, flatString } from '../utils/sizes.ts';
import {
  customId,
  DEFAULT_NAME,
  isCustomId,
  normalizeSlots,
  parseSlotsJson,
  readDrawn,
  readUpload,
  slotsJson,
  uploadCostMs,
  type ReadLayout,
} from './upload.ts';
import { pictureLabel } from '../../shared/draft.ts';
import { layoutDrawing, namedPicture, type LayoutDrawing } from '../../shared/picture.ts';
import { LAYOUTS, layoutById } from '../../engine/builtins.ts';

declare module 'fastify' {
  interface FastifyInstance {
    layouts: Layouts;
  }
}

/**
 * Built-in layouts by the id their shape gets as an upload (`c-` + 12 hex of the normalized slots): an upload of a
 * built-in's shape is named as that built-in. Made on first use.
 */
let builtinShapes: Map<string, string> | undefined;
export function builtinOfShape(id: string): string | undefined {
  builtinShapes ??= new Map(LAYOUTS.map((l) => [customId(normalizeSlots(l.slots)), l.id]));
  return builtinShapes.get(id);
}

/**
 * The name a custom layout is shown by, to everyone (docs/server.md, "Your own layouts"): a built-in's name for a
 * built-in's shape, else a neutral one made of its id ("Custom layout c-3f9a1b2c4d5e"), in the page's language
 * (English without `i18n`). Never the name in the file or typed in the editor: the id comes from the shape, so
 * the first to store a shape would otherwise name it for everyone ("Scam: free coins at …" on an upload of a
 * well-known layout).
 */
export function customName(id: string, i18n?: Namer): string {
  const builtin = builtinOfShape(id);
  if (builtin) return layoutName(builtin, i18n);
  return i18n ? i18n.t('custom.name', { id }) : `${DEFAULT_NAME} ${id}`;
}

/** A custom layout as the server keeps it: its name is its neutral one (`customName`), in English. */
export interface CustomLayoutInfo {
  readonly custom: true;
  readonly id: string;
  readonly name: string;
  readonly tiles: number;
  readonly layers: number;
  readonly drawing: LayoutDrawing; // its picture, named per page (`customPicture`)
  readonly layout: Layout;
  readonly format: CustomLayoutRow['format'];
}

/** A custom layout's picture, named in the page's language ("Name: 50 tiles in 3 layers"). */
export const customPicture = (info: CustomLayoutInfo, i18n: Namer): string =>
  namedPicture(info.drawing, pictureLabel(i18n.t, customName(info.id, i18n), info.tiles, info.layers));

export interface UploadInput {
  readonly bytes: Uint8Array;
  readonly filename: string; // as the browser sent it
  readonly mapName: string; // the form's map field; '' for the first map
  readonly client: string; // clientKey of the request, for the budget
}

export interface DrawnInput {
  readonly slots: readonly Slot[]; // as the editor drew them (any position: they are normalized)
  readonly name: string; // the name typed in; '' for the default
  readonly client: string; // clientKey of the request, for the budget
}

export type UploadResult =
  { readonly ok: true; readonly id: string; readonly created: boolean; readonly warnings: readonly string[] } | Refusal;

export interface Layouts {
  /** Whether there is a layout by this id, built in or custom. */
  exists(id: string): Promise<boolean>;
  /** A custom layout's info; undefined for an unknown (or built-in) id. */
  custom(id: string): Promise<CustomLayoutInfo | undefined>;
  /**
   * Names the given ids: built-ins by their name (in the language of `i18n`, else the engine's English, as the
   * API does), custom layouts by theirs, anything else by its id.
   */
  namer(ids: Iterable<string>, i18n?: Namer): Promise<(id: string) => string>;
  /** Reads, checks and stores an uploaded layout. */
  upload(input: UploadInput): Promise<UploadResult>;
  /** Checks and stores a layout drawn in the layout editor: the same checks, budgets and limits as an upload. */
  save(input: DrawnInput): Promise<UploadResult>;
}

export interface CustomLayoutsOptions {
  newLayouts?: NewLayoutLimits | false; // the budget of new layouts; false: unlimited (benchmarks)
  now: () => number;
}

const HOUR = 3_600_000; // ms

/** A stored custom layout as pages show it: parsed, with its geometry and its picture. */
export function infoOf(row: CustomLayoutRow): CustomLayoutInfo {
  const name = customName(row.id); // the row's own name (the file's) is kept, never shown: see customName
  const layout = makeLayout(row.id, name, `Your own layout, ${row.tiles} tiles`, parseSlotsJson(row.slots));
  const geom = geometryOf(layout);
  if (!geom.ok) throw new Error(`stored layout ${row.id} is invalid: ${geom.message}`);
  const drawing = layoutDrawing(geom.value);
  return {
    custom: true,
    id: row.id,
    name,
    tiles: row.tiles,
    layers: geom.value.extent.depth,
    drawing: { viewBox: drawing.viewBox, body: flatString(drawing.body) }, // kept: flat, so its size is its length (utils/sizes.ts)
    layout,
    format: row.format,
  };
}

async function customLayoutsPlugin(fastify: FastifyInstance, opts: CustomLayoutsOptions): Promise<void> {
  const repo = fastify.customLayoutsStore;
  // Kept parsed with their pictures, bounded by bytes (a 1,000-tile one with its geometry is about 1 MB).
  const kept = new ByteLru<string, CustomLayoutInfo>('custom layouts', CACHE_BUDGETS.layouts);
  fastify.caches.push(kept);
  const limits = opts.newLayouts === false ? undefined : (opts.newLayouts ?? NEW_LAYOUT_LIMITS);
  const perClient = limits && new WindowBudget('layouts', limits.perHour, HOUR, fastify.counters);
  const everyone = limits && new WindowBudget('layouts-everyone', limits.globalPerHour, HOUR, fastify.counters);

  const custom = async (id: string): Promise<CustomLayoutInfo | undefined> => {
    if (!isCustomId(id)) return undefined;
    const cached = kept.get(id);
    if (cached) return cached;
    const row = await repo.find(id);
    if (!row) return undefined;
    const info = infoOf(row);
    kept.set(id, info, customLayoutBytes(info.tiles, info.drawing.body, info.name));
    return info;
  };

  const store = async (read: ReadLayout, client: string): Promise<UploadResult> => {
    const { layout, format, warnings } = read;
    const slots = slotsJson(layout.slots);
    const existing = await repo.find(layout.id);
    if (existing) {
      // 48 bits of a hash: two different shapes under one id are unlikely (about one pair in 16 million
      // layouts), but a clash must not send the uploader to someone else's layout.
      if (existing.slots !== slots)
        return {
          ok: false,
          code: 'ERR_LAYOUT_CLASH',
          message: `another layout already has this one's id (${layout.id}); it cannot be stored`,
        };
      return { ok: true, id: layout.id, created: false, warnings };
    }
    const checked = await fastify.dealer.check(layout, client);
    if (!checked.ok) return checked;
    // Budgeted only now: a file that is refused, or stored already, costs nothing.
    const grown = await fastify.growth.take(client, layoutGrowth(slots.length, layout.name));
    if (grown) return grown;
    const group = budgetGroup(client);
    const wait = await perClient?.take(group);
    if (wait !== undefined)
      return {
        ok: false,
        code: 'ERR_NEW_LAYOUTS',
        retryAfterS: wait,
        message: `at most ${limits!.perHour} new layouts an hour from your network; try again in ${Math.ceil(wait / 60)} min`,
      };
    const full = await everyone?.take('everyone');
    if (full !== undefined)
      return {
        ok: false,
        code: 'ERR_NEW_LAYOUTS_FULL',
        retryAfterS: full,
        message: `the server takes at most ${limits!.globalPerHour} new layouts an hour; try again in ${Math.ceil(full / 60)} min`,
      };
    const row: CustomLayoutRow = {
      id: layout.id,
      name: layout.name,
      format,
      tiles: layout.slots.length,
      slots,
      created_at: opts.now(),
    };
    const stored = await repo.store(row);
    if (stored.row.slots !== slots)
      return {
        ok: false,
        code: 'ERR_LAYOUT_CLASH',
        message: `another layout already has this one's id (${layout.id}); it cannot be stored`,
      };
    return { ok: true, id: layout.id, created: stored.created, warnings };
  };

  const layouts: Layouts = {
    async exists(id) {
      return layoutById(id) !== undefined || (await custom(id)) !== undefined;
    },
    custom,
    async namer(ids, i18n) {
      const wanted = [...new Set(ids)].filter(isCustomId);
      const stored = wanted.length > 0 ? await repo.names(wanted) : new Map<string, string>();
      return (id) => (stored.has(id) ? customName(id, i18n) : layoutName(id, i18n));
    },
    async upload(input) {
      // The file's reading is charged to the client's CPU budget before it starts (by its size alone).
      const refused = await fastify.cpuBudget.charge(input.client, uploadCostMs(input.bytes.length), 'upload');
      if (refused) return refused;
      const read = readUpload(input.bytes, input.filename, input.mapName);
      if (!read.ok) return { ok: false, code: 'ERR_LAYOUT', message: read.message };
      return store(read.value, input.client);
    },
    async save(input) {
      const read = readDrawn(input.slots, input.name);
      if (!read.ok) return { ok: false, code: 'ERR_LAYOUT', message: read.message };
      return store(read.value, input.client);
    },
  };
  fastify.decorate('layouts', layouts);
}

export default fp(customLayoutsPlugin, {
  name: 'layouts',
  dependencies: ['stores', 'dealer', 'counters', 'growth', 'cpu-budget'],
});
