/**
 * The built-in layouts as the site shows them: id, name, description, tile
 * count, and a small picture drawn from the geometry.
 */
import type { Format } from '../../shared/i18n.ts';
import { FAMILIES, LAYOUTS, layoutById } from '../../engine/builtins.ts';
import { geometryOf, type Layout } from '../../engine/index.ts';
import { layoutPicture } from '../../shared/picture.ts';

export interface LayoutInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly tiles: number;
  readonly layers: number;
  readonly picture: string; // inline SVG markup, built from numbers only
}

const INFO = new Map<string, LayoutInfo>();

function infoOf(layout: Layout): LayoutInfo {
  let info = INFO.get(layout.id);
  if (!info) {
    const geom = geometryOf(layout);
    if (!geom.ok) throw new Error(`built-in layout ${layout.id} is invalid: ${geom.message}`);
    info = {
      id: layout.id,
      name: layout.name,
      description: layout.description,
      tiles: layout.slots.length,
      layers: geom.value.extent.depth,
      picture: layoutPicture(
        geom.value,
        `${layout.name}: ${layout.slots.length} tiles in ${geom.value.extent.depth} layers`,
      ),
    };
    INFO.set(layout.id, info);
  }
  return info;
}

/** Every built-in layout, in picker order. */
export const layoutInfos = (): LayoutInfo[] => LAYOUTS.map(infoOf);

/** A family of built-in layouts as the home page shows it. */
export interface FamilyInfo {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly layouts: readonly LayoutInfo[];
}

/** Each family's name and line in the catalogs (docs/i18n.md); a family not listed keeps the engine's English. */
const FAMILY_KEYS: Readonly<Record<string, readonly [name: string, description: string]>> = {
  classic: ['family.classic.name', 'family.classic.description'],
  animals: ['family.animals.name', 'family.animals.description'],
  letters: ['family.letters.name', 'family.letters.description'],
  towers: ['family.towers.name', 'family.towers.description'],
  flat: ['family.flat.name', 'family.flat.description'],
  small: ['family.small.name', 'family.small.description'],
};

/** The families of built-in layouts, in picker order, named in the language of `t` when one is given. */
export const familyInfos = (t?: Format): FamilyInfo[] =>
  FAMILIES.map((f) => {
    const keys = FAMILY_KEYS[f.id];
    return {
      id: f.id,
      name: t && keys ? t(keys[0]) : f.name,
      description: t && keys ? t(keys[1]) : f.description,
      layouts: f.layouts.map(infoOf),
    };
  });

/** One built-in layout, if there is one by that id. */
export function layoutInfo(id: string): LayoutInfo | undefined {
  const layout = layoutById(id);
  return layout ? infoOf(layout) : undefined;
}

/** The display name of a layout id; the id itself for a layout no longer built in. */
export const layoutName = (id: string): string => layoutById(id)?.name ?? id;

/** `GET /api/layouts`: as the CLI's `layouts` command (docs/contracts.md, "Command line"). */
export const layoutList = (): { id: string; name: string; tiles: number }[] =>
  LAYOUTS.map((l) => ({ id: l.id, name: l.name, tiles: l.slots.length }));
