/**
 * The play page's board as data for views/partials/board.eta
 * (docs/contract-board.md): one entry per tile still on the board, in slot
 * order, with its position relative to the layout's extent, whether it is free,
 * and its accessible name.
 */
import {
  availablePairs,
  isFree,
  presenceOf,
  statusOf,
  type Face,
  type Game,
  type Move,
  type Status,
} from '../../engine/index.ts';
import { boxOf, type Box } from '../../shared/box.ts';
import { tileLabel, type Format } from '../../shared/i18n.ts';

export interface BoardTile {
  readonly slot: number; // index into the deal's tiles
  readonly face: Face;
  readonly free: boolean;
  readonly x: number; // minus the extent's minX; in half tiles
  readonly y: number; // minus the extent's minY; in half tiles
  readonly z: number; // layer
  readonly label: string; // 'Bamboo 3, free'
}

export interface BoardView {
  readonly status: Status;
  readonly width: number; // extent, in half tiles
  readonly height: number;
  readonly depth: number; // layers
  readonly box: Box; // where the tiles go and the board's size, in tile widths (src/shared/box.ts)
  readonly left: number; // tiles on the board
  readonly pairs: number; // pairs that can be played now
  readonly tiles: readonly BoardTile[];
}

/** The board of a game's current position; `t` names the tiles in the page's language. */
export function boardView(game: Game, t: Format): BoardView {
  const { minX, minY, width, height, depth } = game.geom.extent;
  const present = presenceOf(game);
  const tiles: BoardTile[] = [];
  game.faces.forEach((face, slot) => {
    if (face === null) return;
    const s = game.geom.slots[slot]!;
    const free = isFree(game.geom, present, slot);
    tiles.push({
      slot,
      face,
      free,
      x: s.x - minX,
      y: s.y - minY,
      z: s.z,
      label: tileLabel(t, face, free),
    });
  });
  return {
    status: statusOf(game),
    width,
    height,
    depth,
    box: boxOf(game.geom.slots, minX, minY),
    left: game.left,
    pairs: availablePairs(game).length,
    tiles,
  };
}

export interface GameData {
  readonly id: string;
  readonly log: readonly Move[];
  readonly startedAt: number; // ms epoch, server clock
  readonly status: Status;
  readonly playMs: number | null; // the player's own time as their page last sent it (docs/fair-play.md)
}

/**
 * The text of `<script type="application/json" id="deal-data">`: the stored deal
 * JSON as it is, and this player's unfinished game. `<`, `>` and `&` are escaped
 * so nothing in it can close the script element; U+2028/9 for old parsers.
 */
export function dealData(dealJson: string, game: GameData | null): string {
  return `{"deal":${dealJson},"game":${JSON.stringify(game)}}`
    .replace(/</g, '\\u003c')
    .replace(/>/g, '\\u003e')
    .replace(/&/g, '\\u0026')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}
