/**
 * The built-in layouts as pages show them, named from the catalogs in the player's language; the engine's English
 * names are the CLI's and the API's.
 */
import { pictureLabel } from '../../shared/draft.ts';
import { FAMILIES, LAYOUTS, layoutById } from '../../engine/builtins.ts';
import { geometryOf, type Layout } from '../../engine/index.ts';
import { layoutDrawing, namedPicture, type LayoutDrawing } from '../../shared/picture.ts';
import type { Lang } from '../../shared/i18n.ts';
import type { Translator } from './i18n.ts';

/** The request's translator: its language and messages. */
export type Namer = Pick<Translator, 'lang' | 't'>;

export interface LayoutInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tiles: number;
  readonly layers: number;
  readonly picture: string; // inline SVG from numbers only
}

/** Each built-in's catalog keys, as literals (docs/i18n.md, "Adding a key"). */
const BUILTIN_KEYS: Readonly<Record<string, readonly [name: string, description: string]>> = {
  turtle: ['builtin.turtle.name', 'builtin.turtle.description'],
  ring: ['builtin.ring.name', 'builtin.ring.description'],
  diamond: ['builtin.diamond.name', 'builtin.diamond.description'],
  pyramid: ['builtin.pyramid.name', 'builtin.pyramid.description'],
  lotus: ['builtin.lotus.name', 'builtin.lotus.description'],
  mountain: ['builtin.mountain.name', 'builtin.mountain.description'],
  imperial: ['builtin.imperial.name', 'builtin.imperial.description'],
  fish: ['builtin.fish.name', 'builtin.fish.description'],
  rabbit: ['builtin.rabbit.name', 'builtin.rabbit.description'],
  butterfly: ['builtin.butterfly.name', 'builtin.butterfly.description'],
  cat: ['builtin.cat.name', 'builtin.cat.description'],
  snail: ['builtin.snail.name', 'builtin.snail.description'],
  owl: ['builtin.owl.name', 'builtin.owl.description'],
  elephant: ['builtin.elephant.name', 'builtin.elephant.description'],
  anchor: ['builtin.anchor.name', 'builtin.anchor.description'],
  heart: ['builtin.heart.name', 'builtin.heart.description'],
  win: ['builtin.win.name', 'builtin.win.description'],
  zen: ['builtin.zen.name', 'builtin.zen.description'],
  infinity: ['builtin.infinity.name', 'builtin.infinity.description'],
  crescent: ['builtin.crescent.name', 'builtin.crescent.description'],
  cross: ['builtin.cross.name', 'builtin.cross.description'],
  compass: ['builtin.compass.name', 'builtin.compass.description'],
  spiral: ['builtin.spiral.name', 'builtin.spiral.description'],
  lighthouse: ['builtin.lighthouse.name', 'builtin.lighthouse.description'],
  towers: ['builtin.towers.name', 'builtin.towers.description'],
  bridge: ['builtin.bridge.name', 'builtin.bridge.description'],
  fortress: ['builtin.fortress.name', 'builtin.fortress.description'],
  stairs: ['builtin.stairs.name', 'builtin.stairs.description'],
  pagoda: ['builtin.pagoda.name', 'builtin.pagoda.description'],
  colonnade: ['builtin.colonnade.name', 'builtin.colonnade.description'],
  skyline: ['builtin.skyline.name', 'builtin.skyline.description'],
  honeycomb: ['builtin.honeycomb.name', 'builtin.honeycomb.description'],
  islands: ['builtin.islands.name', 'builtin.islands.description'],
  terraces: ['builtin.terraces.name', 'builtin.terraces.description'],
  river: ['builtin.river.name', 'builtin.river.description'],
  mosaic: ['builtin.mosaic.name', 'builtin.mosaic.description'],
  plains: ['builtin.plains.name', 'builtin.plains.description'],
  mushroom: ['builtin.mushroom.name', 'builtin.mushroom.description'],
  garden: ['builtin.garden.name', 'builtin.garden.description'],
  kite: ['builtin.kite.name', 'builtin.kite.description'],
  pinwheel: ['builtin.pinwheel.name', 'builtin.pinwheel.description'],
  teacup: ['builtin.teacup.name', 'builtin.teacup.description'],
  tulip: ['builtin.tulip.name', 'builtin.tulip.description'],
  lantern: ['builtin.lantern.name', 'builtin.lantern.description'],
  vase: ['builtin.vase.name', 'builtin.vase.description'],
  keyhole: ['builtin.keyhole.name', 'builtin.keyhole.description'],
  hourglass: ['builtin.hourglass.name', 'builtin.hourglass.description'],
  pine: ['builtin.pine.name', 'builtin.pine.description'],
  bottle: ['builtin.bottle.name', 'builtin.bottle.description'],
  fountain: ['builtin.fountain.name', 'builtin.fountain.description'],
  gate: ['builtin.gate.name', 'builtin.gate.description'],
  beehive: ['builtin.beehive.name', 'builtin.beehive.description'],
  keep: ['builtin.keep.name', 'builtin.keep.description'],
  spire: ['builtin.spire.name', 'builtin.spire.description'],
};

export const builtinKeysOf = (id: string): readonly [name: string, description: string] | undefined => BUILTIN_KEYS[id];

export const builtinName = (layout: Layout, i18n: Namer): string => {
  const keys = BUILTIN_KEYS[layout.id];
  return keys ? i18n.t(keys[0]) : layout.name;
};

/** The same in every language. */
interface Shape {
  readonly layers: number;
  readonly drawing: LayoutDrawing;
}
const SHAPES = new Map<string, Shape>();

function shapeOf(layout: Layout): Shape {
  let shape = SHAPES.get(layout.id);
  if (!shape) {
    const geom = geometryOf(layout);
    if (!geom.ok) throw new Error(`built-in layout ${layout.id} is invalid: ${geom.message}`);
    shape = { layers: geom.value.extent.depth, drawing: layoutDrawing(geom.value) };
    SHAPES.set(layout.id, shape);
  }
  return shape;
}

// Per language: 42 layouts' pictures (about 100 KB) each.
const INFO = new Map<Lang, Map<string, LayoutInfo>>();

function infoOf(layout: Layout, i18n: Namer): LayoutInfo {
  let kept = INFO.get(i18n.lang);
  if (!kept) INFO.set(i18n.lang, (kept = new Map()));
  let info = kept.get(layout.id);
  if (!info) {
    const { layers, drawing } = shapeOf(layout);
    const keys = BUILTIN_KEYS[layout.id];
    const name = keys ? i18n.t(keys[0]) : layout.name;
    const tiles = layout.slots.length;
    info = {
      id: layout.id,
      name,
      description: keys ? i18n.t(keys[1]) : layout.description,
      tiles,
      layers,
      picture: namedPicture(drawing, pictureLabel(i18n.t, name, tiles, layers)),
    };
    kept.set(layout.id, info);
  }
  return info;
}

/** In picker order. */
export const layoutInfos = (i18n: Namer): LayoutInfo[] => LAYOUTS.map((l) => infoOf(l, i18n));

export interface FamilyInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly layouts: readonly LayoutInfo[];
}

/** Each family's catalog keys; a family not listed keeps the engine's English. */
const FAMILY_KEYS: Readonly<Record<string, readonly [name: string, description: string]>> = {
  classic: ['family.classic.name', 'family.classic.description'],
  animals: ['family.animals.name', 'family.animals.description'],
  letters: ['family.letters.name', 'family.letters.description'],
  towers: ['family.towers.name', 'family.towers.description'],
  flat: ['family.flat.name', 'family.flat.description'],
  small: ['family.small.name', 'family.small.description'],
  portrait: ['family.portrait.name', 'family.portrait.description'],
};

export const familyInfos = (i18n: Namer): FamilyInfo[] =>
  FAMILIES.map((f) => {
    const keys = FAMILY_KEYS[f.id];
    return {
      id: f.id,
      name: keys ? i18n.t(keys[0]) : f.name,
      description: keys ? i18n.t(keys[1]) : f.description,
      layouts: f.layouts.map((l) => infoOf(l, i18n)),
    };
  });

export function layoutInfo(id: string, i18n: Namer): LayoutInfo | undefined {
  const layout = layoutById(id);
  return layout ? infoOf(layout, i18n) : undefined;
}

/** A built-in's name in the language of `i18n` (English without it); else the id itself. */
export const layoutName = (id: string, i18n?: Namer): string => {
  const layout = layoutById(id);
  return layout ? (i18n ? builtinName(layout, i18n) : layout.name) : id;
};

/** For pages whose scripts name layouts. */
export const layoutNames = (i18n: Namer): Record<string, string> =>
  Object.fromEntries(LAYOUTS.map((l) => [l.id, builtinName(l, i18n)]));

/**
 * The main play buttons (home's hero, the stats page of a player with no games): a portrait layout for a phone
 * held upright, the turtle elsewhere; the page shows one of the two by a CSS media query (`.play-phone`,
 * `.play-wide`), as the server cannot know the screen. A first game gets a shorter portrait layout, and both in the
 * easy band (docs/server.md, "Deals and links").
 */
export const PLAY_BUTTONS = { phone: '/play/spire', wide: '/play/turtle' } as const;
export const FIRST_PLAY_BUTTONS = {
  phone: '/play/vase?difficulty=easy',
  wide: '/play/turtle?difficulty=easy',
} as const;
