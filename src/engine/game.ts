/**
 * The game model: an immutable deal plus the moves played on it, every accepted move logged so `replay(deal,
 * log)`
 * rebuilds the same game (docs/engine.md, "Games and replay").
 */
import { shuffleFaces } from './shuffle.ts';
import { makeGeometry, parseGeometry, type Geometry } from './layout.ts';
import { canMatch, isFree, matchingPairs, presenceOfFaces, type Presence } from './rules.ts';
import { solve, type SolveOutcome } from './solver/index.ts';
import { err, FACES, ok, type Deal, type Face, type Pair, type Result } from './types.ts';

export const MOVE_TYPES = ['match', 'shuffle', 'undo', 'redo', 'hint', 'check'] as const;
export type MoveType = (typeof MOVE_TYPES)[number];

export const HEARD = ['yes', 'no', 'unknown'] as const;
export type Heard = (typeof HEARD)[number];

export type Move =
  | { readonly type: 'match'; readonly a: number; readonly b: number }
  | { readonly type: 'shuffle' | 'undo' | 'redo' | 'hint' }
  | { readonly type: 'check'; readonly heard: Heard };

export const isSameMove = (a: Move, b: Move): boolean =>
  a.type === b.type && (a.type !== 'match' || (b.type === 'match' && a.a === b.a && a.b === b.b));

/** True for every move but a hint or a check. */
export const isBoardMove = (m: Move): boolean => m.type !== 'hint' && m.type !== 'check';

export const STATUSES = ['playing', 'won', 'stuck'] as const;
export type Status = (typeof STATUSES)[number];

export const MoveError = {
  NoSuchTile: 'ERR_NO_SUCH_TILE',
  SameTile: 'ERR_SAME_TILE',
  Removed: 'ERR_REMOVED',
  NotFree: 'ERR_NOT_FREE',
  NoMatch: 'ERR_NO_MATCH',
  NothingToUndo: 'ERR_NOTHING_TO_UNDO',
  NothingToRedo: 'ERR_NOTHING_TO_REDO',
  CannotShuffle: 'ERR_CANNOT_SHUFFLE',
  GameOver: 'ERR_GAME_OVER',
} as const;
export type MoveError = (typeof MoveError)[keyof typeof MoveError];

type Step =
  | { readonly type: 'match'; readonly a: number; readonly b: number; readonly faceA: Face; readonly faceB: Face }
  | { readonly type: 'shuffle'; readonly before: readonly (Face | null)[]; readonly after: readonly (Face | null)[] };

export interface Game {
  readonly deal: Deal;
  readonly geom: Geometry;
  readonly faces: readonly (Face | null)[]; // null once removed
  readonly left: number;
  readonly past: readonly Step[]; // steps undo can take back, oldest first
  readonly future: readonly Step[]; // steps redo can play again, next last
  readonly log: readonly Move[];
  readonly matches: number; // undone ones included
  readonly hints: number;
  readonly shuffles: number; // undone ones included; numbers the next shuffle
  readonly undos: number;
  readonly redos: number;
  readonly boards: readonly (readonly (Face | null)[])[]; // boards[k]: the faces shuffle k + 1 gave
}

export type KnownBoards = readonly (readonly (Face | null)[])[];

const GEOMETRY = new WeakMap<Deal, Geometry>();

export function newGame(deal: Deal): Result<Game, string> {
  let geom = GEOMETRY.get(deal);
  if (!geom) {
    const parsed = parseGeometry(deal.tiles);
    if (!parsed.ok) return parsed;
    GEOMETRY.set(deal, (geom = parsed.value));
  }
  const faces = deal.tiles.map((t) => t.face);
  return ok({
    deal,
    geom,
    faces,
    left: faces.length,
    past: [],
    future: [],
    log: [],
    matches: 0,
    hints: 0,
    shuffles: 0,
    undos: 0,
    redos: 0,
    boards: [],
  });
}

export const presenceOf = (game: Game): Presence => presenceOfFaces(game.faces);

export const isTileFree = (game: Game, i: number): boolean => isFree(game.geom, presenceOf(game), i);

export const availablePairs = (game: Game): [number, number][] =>
  matchingPairs(game.geom, presenceOf(game), game.faces);

export function statusOf(game: Game): Status {
  if (game.left === 0) return 'won';
  return availablePairs(game).length > 0 ? 'playing' : 'stuck';
}

/** A game changed in place by `applyMoves`, faces copied on write (docs/engine.md, "Games and replay"). */
interface Draft {
  faces: (Face | null)[]; // while `shared`, never written before ownFaces
  shared: boolean;
  present: Uint8Array;
  left: number;
  past: Step[];
  future: Step[];
  log: Move[];
  matches: number;
  hints: number;
  shuffles: number;
  undos: number;
  redos: number;
  boards: (readonly (Face | null)[])[];
  known: KnownBoards;
}

const draftOf = (game: Game, known: KnownBoards = []): Draft => ({
  ...game,
  faces: game.faces as (Face | null)[],
  shared: true,
  present: presenceOf(game),
  past: game.past.slice(),
  future: game.future.slice(),
  log: game.log.slice(),
  boards: game.boards.slice(),
  known,
});

const FACE_INDEX: ReadonlyMap<Face, number> = new Map(FACES.map((f, i) => [f, i]));

/** Same slots as the board, the same faces in another order? */
function fits(d: Draft, board: readonly (Face | null)[]): boolean {
  if (board.length !== d.faces.length) return false;
  const count = new Int32Array(FACES.length);
  for (let i = 0; i < board.length; i++) {
    const was = d.faces[i];
    const now = board[i];
    if ((was == null) !== (now == null)) return false;
    if (was != null) count[FACE_INDEX.get(was)!]!++;
    if (now == null) continue;
    const k = FACE_INDEX.get(now);
    if (k === undefined) return false;
    count[k]!--;
  }
  return count.every((n) => n === 0);
}

const freeze = (game: Game, d: Draft): Game => ({
  deal: game.deal,
  geom: game.geom,
  faces: d.faces,
  left: d.left,
  past: d.past,
  future: d.future,
  log: d.log,
  matches: d.matches,
  hints: d.hints,
  shuffles: d.shuffles,
  undos: d.undos,
  redos: d.redos,
  boards: d.boards,
});

function ownFaces(d: Draft): (Face | null)[] {
  if (d.shared) {
    d.faces = d.faces.slice();
    d.shared = false;
  }
  return d.faces;
}

function shareFaces(d: Draft, board: readonly (Face | null)[]): void {
  d.faces = board as (Face | null)[];
  d.shared = true;
}

function doStep(d: Draft, step: Step): void {
  if (step.type === 'shuffle') {
    shareFaces(d, step.after);
    return;
  }
  const faces = ownFaces(d);
  faces[step.a] = null;
  faces[step.b] = null;
  d.present[step.a] = 0;
  d.present[step.b] = 0;
  d.left -= 2;
}

function undoStep(d: Draft, step: Step): void {
  if (step.type === 'shuffle') {
    shareFaces(d, step.before);
    return;
  }
  const faces = ownFaces(d);
  faces[step.a] = step.faceA;
  faces[step.b] = step.faceB;
  d.present[step.a] = 1;
  d.present[step.b] = 1;
  d.left += 2;
}

function checkMatch(geom: Geometry, d: Draft, a: number, b: number): Result<Step, MoveError> {
  const n = d.faces.length;
  for (const i of [a, b])
    if (!Number.isInteger(i) || i < 0 || i >= n) return err(MoveError.NoSuchTile, `there is no tile ${i}`);
  if (a === b) return err(MoveError.SameTile, 'a tile cannot be matched with itself');
  const faceA = d.faces[a];
  const faceB = d.faces[b];
  if (faceA == null || faceB == null)
    return err(MoveError.Removed, `tile ${faceA == null ? a : b} was already removed`);
  for (const i of [a, b]) if (!isFree(geom, d.present, i)) return err(MoveError.NotFree, `tile ${i} is not free`);
  if (!canMatch(faceA, faceB)) return err(MoveError.NoMatch, `${faceA} does not match ${faceB}`);
  return ok({ type: 'match', a, b, faceA, faceB });
}

/** Plays one move on the draft; on an error it is unchanged. */
function play(game: Game, d: Draft, move: Move): Result<true, MoveError> {
  switch (move.type) {
    case 'match': {
      const step = checkMatch(game.geom, d, move.a, move.b);
      if (!step.ok) return step;
      doStep(d, step.value);
      d.past.push(step.value);
      d.future.length = 0;
      d.matches++;
      break;
    }
    case 'shuffle': {
      if (d.left === 0) return err(MoveError.GameOver, 'the board is already clear');
      let after = d.known[d.shuffles];
      if (!after || !fits(d, after)) {
        const shuffled = shuffleFaces(game.geom, d.present, d.faces, game.deal.seed, d.shuffles + 1);
        if (!shuffled.ok)
          return err(
            MoveError.CannotShuffle,
            'the tiles left cannot be cleared in any order, so shuffling cannot help: undo instead',
          );
        after = shuffled.value.faces;
      }
      d.boards.push(after);
      const step: Step = { type: 'shuffle', before: d.faces, after };
      doStep(d, step);
      d.past.push(step);
      d.future.length = 0;
      d.shuffles++;
      break;
    }
    case 'undo': {
      const step = d.past.pop();
      if (!step) return err(MoveError.NothingToUndo, 'there is nothing to undo');
      undoStep(d, step);
      d.future.push(step);
      d.undos++;
      break;
    }
    case 'redo': {
      const step = d.future.pop();
      if (!step) return err(MoveError.NothingToRedo, 'there is nothing to redo');
      doStep(d, step);
      d.past.push(step);
      d.redos++;
      break;
    }
    case 'hint':
      if (d.left === 0) return err(MoveError.GameOver, 'the board is already clear');
      d.hints++;
      break;
    case 'check': // the client's word: changes nothing here
      if (d.left === 0) return err(MoveError.GameOver, 'the board is already clear');
      break;
    default:
      return err(MoveError.NoSuchTile, 'unknown move');
  }
  d.log.push(move);
  return ok(true);
}

export function applyMove(game: Game, move: Move): Result<Game, MoveError> {
  const d = draftOf(game);
  const result = play(game, d, move);
  return result.ok ? ok(freeze(game, d)) : result;
}

export interface ReplayError {
  readonly index: number;
  readonly code: MoveError | string;
  readonly message: string;
}

/** Replays a move log on a deal; `known`: boards of an earlier replay. */
export function replay(deal: Deal, log: readonly Move[], known?: KnownBoards): Result<Game, ReplayError> {
  const start = newGame(deal);
  if (!start.ok) return err({ index: -1, code: start.error, message: start.message }, start.message);
  return applyMoves(start.value, log, known);
}

export function applyMoves(game: Game, moves: readonly Move[], known?: KnownBoards): Result<Game, ReplayError> {
  const d = draftOf(game, known);
  for (let index = 0; index < moves.length; index++) {
    const result = play(game, d, moves[index]!);
    if (!result.ok)
      return err({ index, code: result.error, message: result.message }, `move ${index + 1}: ${result.message}`);
  }
  return ok(freeze(game, d));
}

export interface Hint {
  readonly pair: Pair | null; // null: no moves at all
  readonly winning: boolean; // proved winnable after this pair
  readonly result: SolveOutcome;
}

/** A pair that keeps the game winnable when the solver finds one, else any pair, else none. */
export function hintFor(game: Game, budget?: number): Hint {
  if (game.left === 0) return { pair: null, winning: false, result: 'solvable' };
  const answer = solve(game.geom, presenceOf(game), game.faces, {
    budget,
    seed: game.deal.seed,
    pairing: game.deal.solution,
  });
  if (answer.result === 'solvable' && answer.solution.length > 0)
    return { pair: answer.solution[0]!, winning: true, result: answer.result };
  const pairs = availablePairs(game);
  return { pair: pairs[0] ?? null, winning: false, result: answer.result };
}

export interface Winnability {
  readonly result: SolveOutcome;
  /** When unsolvable: undo steps back to the last winnable position. */
  readonly undoSteps: number | null;
}

/**
 * Can the position still be cleared? If not, bisects the undo stack since the last shuffle (winnability only
 * goes
 * from yes to no). `proven`: that many positions are known lost.
 */
export function winnability(game: Game, budget?: number, proven = 0): Winnability {
  let known: readonly Pair[] = game.deal.solution;
  const check = (faces: readonly (Face | null)[]): SolveOutcome => {
    const answer = solve(game.geom, presenceOfFaces(faces), faces, { budget, seed: game.deal.seed, pairing: known });
    if (answer.result === 'solvable') known = answer.solution;
    return answer.result;
  };
  const now = proven > 0 ? 'unsolvable' : check(game.faces);
  if (now !== 'unsolvable') return { result: now, undoSteps: null };
  const boards: (readonly (Face | null)[])[] = [game.faces];
  for (let k = game.past.length - 1; k >= 0; k--) {
    const step = game.past[k]!;
    if (step.type === 'shuffle') break;
    const before = boards[boards.length - 1]!.slice();
    before[step.a] = step.faceA;
    before[step.b] = step.faceB;
    boards.push(before);
  }
  // boards[0] is lost; the last (a start or a shuffle's) is winnable.
  let hi = boards.length - 1;
  if (hi < 1) return { result: now, undoSteps: null };
  let lo = Math.min(Math.max(1, proven), hi);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (check(boards[mid]!) === 'solvable') hi = mid;
    else lo = mid + 1;
  }
  return { result: now, undoSteps: lo };
}

export const geometryOfDeal = (deal: Deal): Geometry => GEOMETRY.get(deal) ?? makeGeometry(deal.tiles);
