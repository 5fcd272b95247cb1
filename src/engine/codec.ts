/**
 * Compact text forms for storage: a board as two characters per slot (`--` removed; 288 characters for the
 * turtle), a pair list as two base-36 characters per index (MAX_TILES < 36²). `parseX` checks everything;
 * `makeX`
 * trusts its input.
 */
import { MAX_TILES } from './layout.ts';
import { FACES, err, ok, type Face, type Pair, type Result } from './types.ts';

const REMOVED = '--';

/**
 * Two character codes → the FACES string itself (null: removed; undefined: invalid), so a parsed board shares
 * the constants instead of holding a copy per slot.
 */
const CODE_OF: readonly (Face | null | undefined)[] = (() => {
  const table = new Array<Face | null | undefined>(128 * 128).fill(undefined);
  for (const code of [...FACES, REMOVED])
    table[code.charCodeAt(0) * 128 + code.charCodeAt(1)] = code === REMOVED ? null : (code as Face);
  return table;
})();

export const makeBoard = (faces: readonly (Face | null)[]): string => faces.map((f) => f ?? REMOVED).join('');

export function parseBoard(text: string, size: number): Result<(Face | null)[], string> {
  if (text.length !== 2 * size)
    return err('ERR_BOARD', `a board of ${size} slots is ${2 * size} characters, not ${text.length}`);
  return parseBoardAt(text, 0, size);
}

/** The board of `size` slots from character `at` of `text`. */
function parseBoardAt(text: string, at: number, size: number): Result<(Face | null)[], string> {
  const faces: (Face | null)[] = new Array(size);
  for (let i = 0; i < size; i++) {
    const first = text.charCodeAt(at + 2 * i);
    const second = text.charCodeAt(at + 2 * i + 1);
    const face = first < 128 && second < 128 ? CODE_OF[first * 128 + second] : undefined;
    if (face === undefined)
      return err('ERR_BOARD', `${JSON.stringify(text.slice(at + 2 * i, at + 2 * i + 2))} at slot ${i} is not a face`);
    faces[i] = face;
  }
  return ok(faces);
}

/** Boards one after another (each 2 × size characters). */
export function parseBoards(text: string, size: number): Result<(Face | null)[][], string> {
  if (size <= 0 || text.length % (2 * size) !== 0)
    return err('ERR_BOARD', `boards of ${size} slots do not fit ${text.length} characters`);
  const boards: (Face | null)[][] = [];
  for (let at = 0; at < text.length; at += 2 * size) {
    const board = parseBoardAt(text, at, size);
    if (!board.ok) return board;
    boards.push(board.value);
  }
  return ok(boards);
}

const index36 = (i: number): string => i.toString(36).padStart(2, '0');

export const makePairs = (pairs: readonly Pair[]): string => pairs.map(([a, b]) => index36(a) + index36(b)).join('');

/** Pairs from makePairs' text; every index below `size`. */
export function parsePairs(text: string, size: number): Result<Pair[], string> {
  if (text.length % 4 !== 0 || !/^[0-9a-z]*$/.test(text))
    return err('ERR_PAIRS', 'a pair list is 4 base-36 characters a pair');
  const pairs: Pair[] = [];
  for (let at = 0; at < text.length; at += 4) {
    const a = parseInt(text.slice(at, at + 2), 36);
    const b = parseInt(text.slice(at + 2, at + 4), 36);
    if (a >= size || b >= size || a >= MAX_TILES || b >= MAX_TILES)
      return err('ERR_PAIRS', `pair ${at / 4} points past the layout`);
    pairs.push([a, b]);
  }
  return ok(pairs);
}
