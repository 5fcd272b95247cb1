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
 *
 * Names are each player's own (docs/server.md, "Your own layouts"): a layout is one row per shape, but whoever
 * uploads, saves or renames it keeps their name of it (layout_names), shown to them alone; everyone else sees
 * the neutral `customName`. At most LAYOUT_NAMES_MAX names a player.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { geometryOf, makeLayout, type Layout, type Slot } from '../../engine/index.ts';
import type { Refusal } from '../errors.ts';
import type { CustomLayoutRow } from '../stores/types.ts';
import { layoutGrowth, layoutNameGrowth } from './growth.ts';
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
  type DesktopFile,
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

/** Whose names a page may show: the requesting player's (none for a player made just now, who has none). */
export const viewerOf = (request: FastifyRequest): string | undefined =>
  request.isNewPlayer ? undefined : request.playerId;

/** The most layouts one player keeps a name of (a new name past it is refused: 409 ERR_LAYOUT_NAMES_FULL). */
export const LAYOUT_NAMES_MAX = 200;

/**
 * The name a custom layout is shown by, to everyone but the players who named it (docs/server.md, "Your own
 * layouts"): a built-in's name for a built-in's shape, else a neutral one made of its id ("Custom layout
 * c-3f9a1b2c4d5e"), in the page's language (English without `i18n`). Never another player's words: the id comes
 * from the shape, so the first to store a shape would otherwise name it for everyone ("Scam: free coins at …" on
 * an upload of a well-known layout).
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

/** A custom layout's picture, named in the page's language ("Name: 50 tiles in 3 layers"); `name` the viewer's own. */
export const customPicture = (info: CustomLayoutInfo, i18n: Namer, name = customName(info.id, i18n)): string =>
  namedPicture(info.drawing, pictureLabel(i18n.t, name, info.tiles, info.layers));

export interface UploadInput {
  readonly bytes: Uint8Array;
  readonly filename: string; // as the browser sent it
  readonly mapName: string; // the form's map field; '' for the first map
  readonly desktop?: DesktopFile; // a KMahjongg .desktop sent beside a .layout, naming it
  readonly title: string; // the name typed in the form (typedName); '' to take the file's
  readonly playerId: string; // the uploader, who keeps the name
  readonly client: string; // clientKey of the request, for the budget
}

export interface DrawnInput {
  readonly slots: readonly Slot[]; // as the editor drew them (any position: they are normalized)
  readonly name: string; // the name typed in (typedName), or the default the page offered
  readonly typed: boolean; // whether `name` was typed (it then replaces the player's name given before)
  readonly playerId: string; // who saves it, and keeps the name
  readonly client: string; // clientKey of the request, for the budget
}

/** A player's named layout, for their own lists (the home page). */
export interface NamedLayout {
  readonly id: string;
  readonly name: string;
  readonly tiles: number;
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
  namer(ids: Iterable<string>, i18n?: Namer, playerId?: string): Promise<(id: string) => string>;
  /**
   * A layout's name for one viewer (`playerId`; undefined for a new player): their own if they named it, else
   * `neutral`, which is what a page shows everyone else (its link preview, an image cached for all).
   */
  viewerName(id: string, i18n: Namer, playerId: string | undefined): Promise<{ name: string; neutral: string }>;
  /** The player's own name of a custom layout; undefined when they never named it. */
  ownName(playerId: string, id: string): Promise<string | undefined>;
  /** The player's named layouts, the latest named first. */
  named(playerId: string): Promise<NamedLayout[]>;
  /** Reads, checks and stores an uploaded layout, and keeps the uploader's name of it. */
  upload(input: UploadInput): Promise<UploadResult>;
  /** Checks and stores a layout drawn in the layout editor: the same checks, budgets and limits as an upload. */
  save(input: DrawnInput): Promise<UploadResult>;
  /** Changes the player's name of a layout they named before (`name`: typedName's, not empty). */
  rename(playerId: string, id: string, name: string, client: string): Promise<Refusal | undefined>;
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

  const namesFull: Refusal = {
    ok: false,
    code: 'ERR_LAYOUT_NAMES_FULL',
    message: `you have named ${LAYOUT_NAMES_MAX} layouts, as many as one player keeps; rename one of them instead`,
  };

  /** Keeps the player's name of a stored layout, its bytes paid from the client's day of growth. */
  const keepName = async (playerId: string, id: string, name: string, client: string): Promise<Refusal | undefined> => {
    const grown = await fastify.growth.take(client, layoutNameGrowth(name));
    if (grown) return grown;
    const kept = await repo.keepName(playerId, id, name, opts.now(), LAYOUT_NAMES_MAX);
    return kept === 'full' ? namesFull : undefined;
  };

  /**
   * store(), then the player's name of it: `typed` (the player's own words) replaces a name they gave before,
   * a name from the file or the default only names a layout they have not named. A player with
   * LAYOUT_NAMES_MAX names is refused a new one before the work.
   */
  const storeNamed = async (
    read: ReadLayout,
    name: string,
    typed: boolean,
    playerId: string,
    client: string,
  ): Promise<UploadResult> => {
    const id = read.layout.id;
    const before = await layouts.ownName(playerId, id);
    if (before === undefined && (await repo.playerLayouts(playerId, LAYOUT_NAMES_MAX)).length >= LAYOUT_NAMES_MAX)
      return namesFull;
    const stored = await store(read, client);
    if (!stored.ok || (before !== undefined && (!typed || before === name))) return stored;
    return (await keepName(playerId, id, name, client)) ?? stored;
  };

  const layouts: Layouts = {
    async exists(id) {
      return layoutById(id) !== undefined || (await custom(id)) !== undefined;
    },
    custom,
    async namer(ids, i18n, playerId) {
      const wanted = [...new Set(ids)].filter(isCustomId);
      const stored = wanted.length > 0 ? await repo.names(wanted) : new Map<string, string>();
      const own =
        playerId !== undefined && stored.size > 0
          ? await repo.playerNames(playerId, [...stored.keys()])
          : new Map<string, string>();
      return (id) => own.get(id) ?? (stored.has(id) ? customName(id, i18n) : layoutName(id, i18n));
    },
    async viewerName(id, i18n, playerId) {
      const neutral = (await layouts.namer([id], i18n))(id);
      const own = playerId === undefined ? undefined : await layouts.ownName(playerId, id);
      return { name: own ?? neutral, neutral };
    },
    async ownName(playerId, id) {
      return isCustomId(id) ? (await repo.playerNames(playerId, [id])).get(id) : undefined;
    },
    async named(playerId) {
      const rows = await repo.playerLayouts(playerId, LAYOUT_NAMES_MAX);
      return rows.map((r) => ({ id: r.layout, name: r.name, tiles: r.tiles }));
    },
    async upload(input) {
      // The files' reading is charged to the client's CPU budget before it starts (by their size alone).
      const bytes = input.bytes.length + (input.desktop?.bytes.length ?? 0);
      const refused = await fastify.cpuBudget.charge(input.client, uploadCostMs(bytes), 'upload');
      if (refused) return refused;
      const read = readUpload(input.bytes, input.filename, input.mapName, input.desktop);
      if (!read.ok) return { ok: false, code: 'ERR_LAYOUT', message: read.message };
      const typed = input.title !== '';
      return storeNamed(read.value, typed ? input.title : read.value.layout.name, typed, input.playerId, input.client);
    },
    async save(input) {
      const read = readDrawn(input.slots, input.name);
      if (!read.ok) return { ok: false, code: 'ERR_LAYOUT', message: read.message };
      return storeNamed(read.value, read.value.layout.name, input.typed, input.playerId, input.client);
    },
    async rename(playerId, id, name, client) {
      if ((await layouts.ownName(playerId, id)) === undefined)
        return {
          ok: false,
          code: 'ERR_NOT_NAMER',
          message: 'only a player who uploaded or saved this layout can name it; upload or save it to name it',
        };
      return keepName(playerId, id, name, client);
    },
  };
  fastify.decorate('layouts', layouts);
}

export default fp(customLayoutsPlugin, {
  name: 'layouts',
  dependencies: ['stores', 'dealer', 'counters', 'growth', 'cpu-budget'],
});
