/** The play page's board as data for views/partials/board.eta (docs/contract-board.md). */
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
  readonly slot: number;
  readonly face: Face;
  readonly free: boolean;
  readonly x: number; // from the extent's minX; in half tiles
  readonly y: number; // in half tiles
  readonly z: number;
  readonly label: string;
  readonly hidden?: boolean; // removed
  readonly mark?: 'next' | 'restored';
  readonly reason?: true; // data-reason-tile (docs/coach.md)
}

export interface Ghost {
  readonly x: number;
  readonly y: number;
  readonly z: number;
}

export interface BoardView {
  readonly status: Status;
  readonly width: number; // extent, in half tiles
  readonly height: number;
  readonly depth: number;
  readonly box: Box; // in tile widths
  readonly left: number;
  readonly pairs: number;
  readonly tiles: readonly BoardTile[];
  readonly ghosts: readonly Ghost[];
}

/** A replay board's extras. */
export interface ReplayMarks {
  readonly next: Pair | null;
  readonly restored: Pair | null;
  readonly removed: Pair | null;
  readonly reasonTiles?: readonly number[];
}

/** The board of a position; with `replay` every tile (removed ones hidden) and marks. */
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
  readonly startedAt: number; // ms epoch
  readonly status: Status;
  readonly playMs: number | null; // docs/fair-play.md
}

/** The text of `#deal-data`: the stored deal JSON and this player's unfinished game. */
export function dealData(dealJson: string, game: GameData | null): string {
  return scriptJson(`{"deal":${dealJson},"game":${JSON.stringify(game)}}`);
}
