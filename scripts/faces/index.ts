/**
 * The face sprites of the tile sets (src/shared/tilesets.ts): the classic set is the hand-written
 * public/faces.svg; the traditional and large-print sets are drawn in code (traditional.ts, large.ts).
 * Each is one SVG document of the same form, which scripts/face-sheets.ts draws into a sheet per theme.
 */
import { readFileSync } from 'node:fs';
import type { TileSet } from '../../src/shared/tilesets.ts';
import { largeSprite } from './large.ts';
import { traditionalSprite } from './traditional.ts';

export const CLASSIC_SPRITE = new URL('../../public/faces.svg', import.meta.url);

/** The sprite of a set. */
export function spriteOf(set: TileSet): string {
  switch (set) {
    case 'classic':
      return readFileSync(CLASSIC_SPRITE, 'utf8');
    case 'traditional':
      return traditionalSprite();
    case 'large':
      return largeSprite();
  }
}
