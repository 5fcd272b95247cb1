/**
 * The first game's lesson's board as data for views/partials/tutorial.eta: on a first visit the server draws
 * the lesson open, so the page's first paint has it (its style, layout and face art are then part of that
 * paint, not of a later task; docs/client.md, "The first game's lesson"). The same tiles, positions and labels
 * as the lesson's script draws (src/client/tutorial.ts), which takes them over as they are.
 */
import { isTileFree, newGame } from '../../engine/index.ts';
import { tileLabel } from '../../shared/i18n.ts';
import { LESSON_DEAL } from '../../shared/lesson.ts';
import { perLang } from '../plugins/i18n.ts';

export interface LessonTile {
  readonly slot: number;
  readonly face: string;
  readonly free: boolean;
  readonly x: number;
  readonly y: number;
  readonly z: number;
  readonly label: string;
}

const START = (() => {
  const game = newGame(LESSON_DEAL);
  if (!game.ok) throw new Error(`the lesson's board: ${game.message}`); // a programmer's error
  return game.value;
})();

/** The lesson's tiles at its first step, labelled in the page's language (made once per language). */
export const lessonTiles = perLang((i18n): readonly LessonTile[] =>
  LESSON_DEAL.tiles.map(({ x, y, z, face }, slot) => {
    const free = isTileFree(START, slot);
    return { slot, face, free, x, y, z, label: tileLabel(i18n.t, face, free) };
  }),
);
