/**
 * The tile set of every page (docs/client.md, "Faces"; docs/server.md, "Tile sets"): classic, traditional or
 * large print, chosen by the `tiles` cookie (set by the picker on every page, views/partials/tiles.eta, and by
 * `?tiles=<id>` on any page's address: plugins/tiles.ts), rendered by the server as `<html data-tiles="…">`. A
 * value that names no set, in the cookie, the query or the form, is the default set: never an error. The
 * cookie is not signed: it only changes how tiles look.
 *
 * What a player reads about tile sets is in the catalogs (`tiles.*` in locales/*.json); the message keys a
 * set or a family is shown with are the literal maps below (docs/i18n.md, "Adding a key").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FACES, type Face } from '../../engine/types.ts';
import { faceMessage } from '../../shared/i18n.ts';
import { TILE_SETS, TILES_COOKIE, TILES_MAX_AGE, type TileSet } from '../../shared/tilesets.ts';
import type { Translator } from '../services/i18n.ts';

/** Each set's name. */
export const TILE_SET_NAME_KEYS = {
  classic: 'tiles.classic',
  traditional: 'tiles.traditional',
  large: 'tiles.large',
} as const satisfies Record<TileSet, string>;

/** Each set in a sentence, on its preview page. */
const TILE_SET_ABOUT_KEYS = {
  classic: 'tiles.aboutClassic',
  traditional: 'tiles.aboutTraditional',
  large: 'tiles.aboutLarge',
} as const satisfies Record<TileSet, string>;

export interface TileSetInfo {
  readonly id: TileSet;
  readonly name: string;
}

/** The sets as the API and the picker list them: id and name (in `i18n`'s language), in the order of TILE_SETS. */
export const tileSetList = (i18n: Translator): TileSetInfo[] =>
  TILE_SETS.map((id) => ({ id, name: i18n.t(TILE_SET_NAME_KEYS[id]) }));

/** A set's name and its sentence, for its preview page. */
export const tileSetText = (i18n: Translator, set: TileSet): { name: string; about: string } => ({
  name: i18n.t(TILE_SET_NAME_KEYS[set]),
  about: i18n.t(TILE_SET_ABOUT_KEYS[set]),
});

/** The families of the preview page: the message of each family's heading and the faces it holds. */
const FAMILIES: readonly (readonly [key: string, holds: (face: Face) => boolean])[] = [
  ['tiles.dots', (f) => /^d\d$/.test(f)],
  ['tiles.bamboo', (f) => f.startsWith('b')],
  ['tiles.characters', (f) => f.startsWith('c')],
  ['tiles.winds', (f) => f.startsWith('w')],
  ['tiles.dragons', (f) => /^d[rgw]$/.test(f)],
  ['tiles.flowers', (f) => f.startsWith('f')],
  ['tiles.seasons', (f) => f.startsWith('s')],
];

/** The faces of a set's preview page, by family, each with its accessible name ("Bamboo 3") in `i18n`'s language. */
export function previewFamilies(i18n: Translator): { name: string; faces: { face: Face; name: string }[] }[] {
  return FAMILIES.map(([key, holds]) => ({
    name: i18n.t(key),
    faces: FACES.filter(holds).map((face) => ({ face, name: i18n.t(...faceMessage(face)) })),
  }));
}

/** Keeps a player's choice of set (the picker, `?tiles=`); the default set is kept by no cookie at all. */
export function keepTileSet(request: FastifyRequest, reply: FastifyReply, set: TileSet | undefined): void {
  const options = { path: '/', sameSite: 'lax', secure: request.protocol === 'https' } as const;
  if (set === undefined) reply.clearCookie(TILES_COOKIE, options);
  else reply.setCookie(TILES_COOKIE, set, { ...options, maxAge: TILES_MAX_AGE });
}
