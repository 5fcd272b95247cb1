/**
 * Compact boards and pair lists (codec.ts), and replays that take stored shuffle boards instead of
 * searching again.
 */
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  applyMoves,
  availablePairs,
  deal,
  makeBoard,
  makePairs,
  newGame,
  parseBoard,
  parseBoards,
  parsePairs,
  replay,
  type Deal,
  type Game,
  type Move,
} from '../../src/engine/index.ts';

const turtle = (seed: string): Deal => {
  const made = deal(layoutById('turtle')!, seed);
  if (!made.ok) throw new Error(made.message);
  return made.value.deal;
};

describe('codec', () => {
  test('parse(make(x)) is x for boards and pair lists', () => {
    const d = turtle('codec');
    const faces = d.tiles.map((t) => t.face) as (string | null)[];
    faces[3] = null;
    const text = makeBoard(faces as never);
    expect(text).toHaveLength(288);
    expect(parseBoard(text, 144)).toEqual({ ok: true, value: faces });
    expect(parseBoards(text + text, 144)).toEqual({ ok: true, value: [faces, faces] });
    const pairs = makePairs(d.solution);
    expect(pairs).toHaveLength(288);
    expect(parsePairs(pairs, 144)).toEqual({ ok: true, value: d.solution });
  });

  test.each([
    ['a short board', () => parseBoard('d1', 2)],
    ['an unknown face', () => parseBoard('d1zz', 2)],
    ['boards that do not divide', () => parseBoards('d1d1d', 2)],
    ['a pair past the layout', () => parsePairs('0003', 2)],
    ['a pair list with other characters', () => parsePairs('00-1', 4)],
  ])('%s is an error', (_label, parse) => {
    expect(parse().ok).toBe(false);
  });
});

/** A log with `shuffles` shuffles between matches, from the game's own pairs. */
function shuffleLog(d: Deal, shuffles: number): { log: Move[]; game: Game } {
  let game = (newGame(d) as { ok: true; value: Game }).value;
  const log: Move[] = [];
  for (let k = 0; k < shuffles; k++) {
    const moves: Move[] = [{ type: 'shuffle' }];
    if (k % 3 === 0) moves.push({ type: 'undo' });
    const next = applyMoves(game, moves);
    if (!next.ok) throw new Error(next.message);
    game = next.value;
    const [a, b] = availablePairs(game)[0]!;
    const matched = applyMoves(game, [{ type: 'match', a, b }]);
    if (!matched.ok) throw new Error(matched.message);
    game = matched.value;
    log.push(...moves, { type: 'match', a, b });
  }
  return { log, game };
}

describe('replay with stored shuffle boards', () => {
  test('gives the same game as a replay that searches, undone shuffles included', () => {
    const d = turtle('boards');
    const { log, game } = shuffleLog(d, 12);
    expect(game.boards).toHaveLength(12);
    const searched = replay(d, log);
    const taken = replay(d, log, game.boards);
    expect(searched.ok && taken.ok).toBe(true);
    if (!searched.ok || !taken.ok) return;
    expect(taken.value.faces).toEqual(searched.value.faces);
    expect(taken.value.boards).toEqual(searched.value.boards);
    expect(taken.value.log).toEqual(log);
    // Text round trip, as the server stores them.
    const text = taken.value.boards.map(makeBoard).join('');
    const parsed = parseBoards(text, 144);
    expect(parsed.ok && replay(d, log, parsed.value).ok).toBe(true);
  });

  test('a stored board that does not fit the tiles on the board is ignored: the shuffle is searched again', () => {
    const d = turtle('boards2');
    const { log, game } = shuffleLog(d, 3);
    const wrong = game.boards.map((b) => b.map((f, i) => (i === 0 && f !== null ? (f === 'd1' ? 'd2' : 'd1') : f)));
    wrong[1] = wrong[1]!.slice(0, 10); // and one of the wrong size
    const taken = replay(d, log, wrong as never);
    const searched = replay(d, log);
    expect(taken.ok && searched.ok && taken.value.faces).toEqual(searched.ok && searched.value.faces);
  });
});
