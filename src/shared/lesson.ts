/**
 * The first game's lesson's board: eight tiles on two layers (docs/client.md, "The first game's lesson"). The
 * server draws it on a first visit's play page, open from the first paint; src/client/lesson.ts plays it.
 */
import type { Deal, DealTile } from '../engine/index.ts';

/** Shows both ways of being blocked; each early step has one playable pair. */
const TILES: readonly DealTile[] = [
  { x: 0, y: 0, z: 0, face: 'b5' },
  { x: 2, y: 0, z: 0, face: 'c3' },
  { x: 4, y: 0, z: 0, face: 'f1' },
  { x: 0, y: 2, z: 0, face: 'c3' },
  { x: 2, y: 2, z: 0, face: 'b5' },
  { x: 4, y: 2, z: 0, face: 'f3' },
  { x: 6, y: 1, z: 0, face: 'dr' },
  { x: 2, y: 1, z: 1, face: 'dr' },
];

export const LESSON_DEAL: Deal = {
  layout: 'tutorial',
  seed: 'tutorial',
  mode: 'relaxed',
  generator: 'tutorial',
  difficulty: { band: 'easy', score: 0 },
  tiles: TILES,
  solution: [
    [6, 7],
    [2, 5],
    [0, 4],
    [1, 3],
  ],
};
