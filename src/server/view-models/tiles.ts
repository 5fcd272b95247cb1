/** The tile set of every page (docs/server.md, "Tile sets"); key maps per docs/i18n.md, "Adding a key". */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FACES, type Face } from '../../engine/types.ts';
import { faceMessage } from '../../shared/i18n.ts';
import { TILE_SETS, TILES_COOKIE, TILES_MAX_AGE, type TileSet } from '../../shared/tilesets.ts';
import type { Translator } from '../services/i18n.ts';

export const TILE_SET_NAME_KEYS = {
  classic: 'tiles.classic',
  traditional: 'tiles.traditional',
  large: 'tiles.large',
} as const satisfies Record<TileSet, string>;

/** Each set in a sentence. */
const TILE_SET_ABOUT_KEYS = {
  classic: 'tiles.aboutClassic',
  traditional: 'tiles.aboutTraditional',
  large: 'tiles.aboutLarge',
} as const satisfies Record<TileSet, string>;

export interface TileSetInfo {
  readonly id: TileSet;
  readonly name: string;
}

/** The sets as the API and the picker list them. */
export const tileSetList = (i18n: Translator): TileSetInfo[] =>
  TILE_SETS.map((id) => ({ id, name: i18n.t(TILE_SET_NAME_KEYS[id]) }));

export const tileSetText = (i18n: Translator, set: TileSet): { name: string; about: string } => ({
  name: i18n.t(TILE_SET_NAME_KEYS[set]),
  about: i18n.t(TILE_SET_ABOUT_KEYS[set]),
});

/** The preview page's families. */
const FAMILIES: readonly (readonly [key: string, holds: (face: Face) => boolean])[] = [
  ['tiles.dots', (f) => /^d\d$/.test(f)],
  ['tiles.bamboo', (f) => f.startsWith('b')],
  ['tiles.characters', (f) => f.startsWith('c')],
  ['tiles.winds', (f) => f.startsWith('w')],
  ['tiles.dragons', (f) => /^d[rgw]$/.test(f)],
  ['tiles.flowers', (f) => f.startsWith('f')],
  ['tiles.seasons', (f) => f.startsWith('s')],
];

/** A set's preview faces by family, with their names. */
export function previewFamilies(i18n: Translator): { name: string; faces: { face: Face; name: string }[] }[] {
  return FAMILIES.map(([key, holds]) => ({
    name: i18n.t(key),
    faces: FACES.filter(holds).map((face) => ({ face, name: i18n.t(...faceMessage(face)) })),
  }));
}

/** Keeps a player's choice of set; the default set is kept by no cookie. */
export function keepTileSet(request: FastifyRequest, reply: FastifyReply, set: TileSet | undefined): void {
  const options = { path: '/', sameSite: 'lax', secure: request.protocol === 'https' } as const;
  if (set === undefined) reply.clearCookie(TILES_COOKIE, options);
  else reply.setCookie(TILES_COOKIE, set, { ...options, maxAge: TILES_MAX_AGE });
}
