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
  type Pair,
  type Status,
} from '../../engine/index.ts';
import { boxOf, type Box } from '../../shared/box.ts';
import { faceMessage, tileLabel, type Format } from '../../shared/i18n.ts';
import { scriptJson } from './script-json.ts';

export interface BoardTile {
  readonly slot: number; // index into the deal's tiles
  readonly face: Face;
  readonly free: boolean;
  readonly x: number; // minus the extent's minX; in half tiles
  readonly y: number; // minus the extent's minY; in half tiles
  readonly z: number; // layer
  readonly label: string; // 'Bamboo 3, free'
  readonly hidden?: boolean; // removed (a replay's board keeps every tile, removed ones hidden)
  readonly mark?: 'next' | 'restored'; // a replay's marks: the pair the next move takes, the pair an undo put back
  readonly reason?: true; // a tile of why the win was lost (data-reason-tile; docs/coach.md)
}

/** Where a tile was (a replay's outline of the pair its move just took off). */
export interface Ghost {
  readonly x: number;
  readonly y: number;
  readonly z: number;
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
  readonly ghosts: readonly Ghost[];
}

/** What a replay's board shows besides a play page's (views/replay.eta). */
export interface ReplayMarks {
  readonly next: Pair | null; // the pair the next move takes off
  readonly restored: Pair | null; // the pair this move put back
  readonly removed: Pair | null; // the pair this move took off: outlines where it was
  readonly reasonTiles?: readonly number[]; // the tiles of why the win was lost, at the first lost position
}

/**
 * The board of a game's current position (`t` names the tiles in the page's language): the tiles on it, or with `replay` every tile (removed ones hidden,
 * with their deal's face, so the replay script can show them again) and the replay's marks.
 */
export function boardView(game: Game, t: Format, replay?: ReplayMarks): BoardView {
  const { minX, minY, width, height, depth } = game.geom.extent;
  const present = presenceOf(game);
  const tiles: BoardTile[] = [];
  const marks = new Map<number, 'next' | 'restored'>();
  for (const slot of replay?.next ?? []) marks.set(slot, 'next');
  for (const slot of replay?.restored ?? []) marks.set(slot, 'restored');
  const at = (slot: number) => {
    const s = game.geom.slots[slot]!;
    return { x: s.x - minX, y: s.y - minY, z: s.z };
  };
  game.faces.forEach((face, slot) => {
    if (face === null) {
      if (replay) {
        const dealt = game.deal.tiles[slot]!.face;
        tiles.push({
          slot,
          face: dealt,
          free: false,
          ...at(slot),
          label: t('client.tile.removed', { face: t(...faceMessage(dealt)) }),
          hidden: true,
        });
      }
      return;
    }
    const free = isFree(game.geom, present, slot);
    const mark = marks.get(slot);
    tiles.push({
      slot,
      face,
      free,
      ...at(slot),
      label: tileLabel(t, face, free),
      ...(mark ? { mark } : {}),
      ...(replay?.reasonTiles?.includes(slot) ? { reason: true as const } : {}),
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
    ghosts: (replay?.removed ?? []).map(at),
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
 * The text of `<script type="application/json" id="deal-data">`: the stored deal JSON as it is, and this
 * player's unfinished game (scriptJson).
 */
export function dealData(dealJson: string, game: GameData | null): string {
  return scriptJson(`{"deal":${dealJson},"game":${JSON.stringify(game)}}`);
}
