/**
 * The tile set of every page (docs/client.md, "Faces"): classic, traditional or large print, chosen by the
 * `tiles` cookie (set by the picker on every page, views/partials/tiles.eta, and by `?tiles=<id>` on any
 * page), rendered by the server as `<html data-tiles="…">`. A value that names no set, in the cookie, the
 * query or the form, is the default set: never an error. The cookie is not signed: it only changes how
 * tiles look.
 *
 * TILES_TEXT holds every sentence a player reads about tile sets (the picker, the set names and the faces
 * preview page, views/tiles.eta), in one place.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { FACES, type Face } from '../../engine/types.ts';
import { faceName } from '../../engine/index.ts';
import {
  DEFAULT_TILE_SET,
  isTileSet,
  TILE_SETS,
  TILES_COOKIE,
  TILES_MAX_AGE,
  tileSetOf,
  type TileSet,
} from '../../shared/tilesets.ts';

export const TILES_TEXT = {
  names: { classic: 'Classic', traditional: 'Traditional', large: 'Large print' } satisfies Record<TileSet, string>,
  about: {
    classic: 'Our own set: numerals for the characters, compass letters for the winds, letters on the dragons.',
    traditional:
      'As a mahjong set is painted: the characters suit in Chinese numbers, the winds and dragons in their characters.',
    large:
      'Big numerals over a suit symbol for small screens and low vision; the suits differ by shape, not only colour.',
  } satisfies Record<TileSet, string>,
  picker: 'Tiles', // the picker's label
  pickerTitle: 'Tile set', // its tooltip
  set: 'Set', // the picker's button without script
  preview: 'See all faces', // the link from the picker's page area to the preview
  previewTitle: (name: string): string => `${name} tiles`,
  previewIntro:
    'All 42 faces of this set, as they appear on the board. Tiles of the same face match; so do any two flowers and any two seasons.',
  otherSets: 'Tile sets',
  use: 'Use this set',
  inUse: 'You play with this set.',
  small: 'At the smallest size the board draws (22 px wide, a phone in portrait):',
  families: {
    dots: 'Dots',
    bamboo: 'Bamboo',
    characters: 'Characters',
    winds: 'Winds',
    dragons: 'Dragons',
    flowers: 'Flowers',
    seasons: 'Seasons',
  },
  unknown: (id: string): string => `there is no tile set called ${id}`,
} as const;

export interface TileSetInfo {
  readonly id: TileSet;
  readonly name: string;
}

/** The sets as the API and the picker list them: id and name, in the order of TILE_SETS. */
export const tileSetList = (): TileSetInfo[] => TILE_SETS.map((id) => ({ id, name: TILES_TEXT.names[id] }));

/** The faces of a set's preview page, by family, each with its accessible name ("Bamboo 3"). */
export function previewFamilies(): { name: string; faces: { face: Face; name: string }[] }[] {
  const t = TILES_TEXT.families;
  const families: [string, (face: Face) => boolean][] = [
    [t.dots, (f) => /^d\d$/.test(f)],
    [t.bamboo, (f) => f.startsWith('b')],
    [t.characters, (f) => f.startsWith('c')],
    [t.winds, (f) => f.startsWith('w')],
    [t.dragons, (f) => /^d[rgw]$/.test(f)],
    [t.flowers, (f) => f.startsWith('f')],
    [t.seasons, (f) => f.startsWith('s')],
  ];
  return families.map(([name, holds]) => ({
    name,
    faces: FACES.filter(holds).map((face) => ({ face, name: faceName(face) })),
  }));
}

/** The cookie's options: readable by the theme script, which sets the same cookie when it switches. */
const cookieOptions = (request: FastifyRequest) =>
  ({ path: '/', sameSite: 'lax', secure: request.protocol === 'https', maxAge: TILES_MAX_AGE }) as const;

/** Keeps a player's choice of set (the picker, `?tiles=`); the default set is kept by no cookie at all. */
export function keepTileSet(request: FastifyRequest, reply: FastifyReply, set: TileSet | undefined): void {
  if (set === undefined)
    reply.clearCookie(TILES_COOKIE, { path: '/', sameSite: 'lax', secure: request.protocol === 'https' });
  else reply.setCookie(TILES_COOKIE, set, cookieOptions(request));
}

/**
 * The set a request's page is drawn with: `?tiles=<id>` when it names a set (and then kept in the cookie),
 * else the cookie's, else the default. Reads the query as sent (before a route's schema drops keys it does
 * not know), so it works on every page.
 */
export function tileSetOfRequest(request: FastifyRequest, reply: FastifyReply): TileSet {
  const asked = (request.query as Record<string, unknown> | undefined)?.tiles;
  const kept = request.cookies?.[TILES_COOKIE];
  if (isTileSet(asked)) {
    if (kept !== asked) keepTileSet(request, reply, asked);
    return asked;
  }
  return tileSetOf(kept);
}

export { DEFAULT_TILE_SET };
