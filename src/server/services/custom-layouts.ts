/**
 * Players' own layouts, checked by dealing them once, stored by content id, named by each player for themselves
 * (docs/server.md, "Your own layouts"); `fastify.layouts` answers for every id, built in or custom.
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

/** The built-in whose shape has this upload id. */
let builtinShapes: Map<string, string> | undefined;
export function builtinOfShape(id: string): string | undefined {
  builtinShapes ??= new Map(LAYOUTS.map((l) => [customId(normalizeSlots(l.slots)), l.id]));
  return builtinShapes.get(id);
}

/** A player made just now has no names. */
export const viewerOf = (request: FastifyRequest): string | undefined =>
  request.isNewPlayer ? undefined : request.playerId;

export const LAYOUT_NAMES_MAX = 200;

/** The name everyone but its namers see: never another player's words. */
export function customName(id: string, i18n?: Namer): string {
  const builtin = builtinOfShape(id);
  if (builtin) return layoutName(builtin, i18n);
  return i18n ? i18n.t('custom.name', { id }) : `${DEFAULT_NAME} ${id}`;
}

/** A custom layout as kept: `name` is its neutral English one. */
export interface CustomLayoutInfo {
  readonly custom: true;
  readonly id: string;
  readonly name: string;
  readonly tiles: number;
  readonly layers: number;
  readonly drawing: LayoutDrawing;
  readonly layout: Layout;
  readonly format: CustomLayoutRow['format'];
}

/** `name`: the viewer's own. */
export const customPicture = (info: CustomLayoutInfo, i18n: Namer, name = customName(info.id, i18n)): string =>
  namedPicture(info.drawing, pictureLabel(i18n.t, name, info.tiles, info.layers));

export interface UploadInput {
  readonly bytes: Uint8Array;
  readonly filename: string;
  readonly mapName: string; // '' for the first map
  readonly desktop?: DesktopFile;
  readonly title: string; // typedName's; '' to take the file's
  readonly playerId: string;
  readonly client: string; // clientKey, for the budget
}

export interface DrawnInput {
  readonly slots: readonly Slot[]; // any position: they are normalized
  readonly name: string; // typedName's, or the page's default
  readonly typed: boolean; // a typed name replaces the player's earlier one
  readonly playerId: string;
  readonly client: string;
}

export interface NamedLayout {
  readonly id: string;
  readonly name: string;
  readonly tiles: number;
}

export type UploadResult =
  { readonly ok: true; readonly id: string; readonly created: boolean; readonly warnings: readonly string[] } | Refusal;

export interface Layouts {
  exists(id: string): Promise<boolean>;
  /** Undefined for an unknown or built-in id. */
  custom(id: string): Promise<CustomLayoutInfo | undefined>;
  /** Custom layouts by the viewer's or the neutral name; built-ins in `i18n`'s language. */
  namer(ids: Iterable<string>, i18n?: Namer, playerId?: string): Promise<(id: string) => string>;
  /** The viewer's name, and the `neutral` one everyone else sees. */
  viewerName(id: string, i18n: Namer, playerId: string | undefined): Promise<{ name: string; neutral: string }>;
  ownName(playerId: string, id: string): Promise<string | undefined>;
  named(playerId: string): Promise<NamedLayout[]>;
  upload(input: UploadInput): Promise<UploadResult>;
  /** The same checks, budgets and limits as an upload. */
  save(input: DrawnInput): Promise<UploadResult>;
  rename(playerId: string, id: string, name: string, client: string): Promise<Refusal | undefined>;
}

export interface CustomLayoutsOptions {
  newLayouts?: NewLayoutLimits | false; // false: unlimited (benchmarks)
  now: () => number;
}

const HOUR = 3_600_000; // ms

export function infoOf(row: CustomLayoutRow): CustomLayoutInfo {
  const name = customName(row.id);
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
    drawing: { viewBox: drawing.viewBox, body: flatString(drawing.body) },
    layout,
    format: row.format,
  };
}

async function customLayoutsPlugin(fastify: FastifyInstance, opts: CustomLayoutsOptions): Promise<void> {
  const repo = fastify.customLayoutsStore;
  // Custom layouts never change: kept parsed, with their pictures.
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
      // 48 bits of hash: a clash is unlikely, but must not lead to someone else's layout.
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

  const keepName = async (playerId: string, id: string, name: string, client: string): Promise<Refusal | undefined> => {
    const grown = await fastify.growth.take(client, layoutNameGrowth(name));
    if (grown) return grown;
    const kept = await repo.keepName(playerId, id, name, opts.now(), LAYOUT_NAMES_MAX);
    return kept === 'full' ? namesFull : undefined;
  };

  /** A `typed` name replaces the player's; any other only names a layout they have not named. */
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
      // Charged by size before reading.
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
