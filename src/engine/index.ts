/**
 * The engine's public names, re-exported one by one. The engine has no I/O, no
 * DOM, no clock and no Math.random: the server and the browser run it alike.
 */
export { FACES, MODES, SUITS, err, ok } from './types.ts';
export type { Deal, DealTile, Face, Layout, Mode, Pair, Result, Slot, Suit } from './types.ts';
export {
  LayoutError,
  MAX_COORD,
  MAX_LAYER,
  MAX_TILES,
  geometryOf,
  makeGeometry,
  makeLayout,
  parseGeometry,
  sortSlots,
  validateSlots,
} from './layout.ts';
export type { Extent, Geometry } from './layout.ts';
export { canMatch, freeSlots, fullPresence, isFree, matchGroup, matchingPairs, presenceOfFaces } from './rules.ts';
export type { Presence } from './rules.ts';
export { KIND_ORDER, faceName, facePairs } from './faces.ts';
export { makeRng, shuffleInPlace } from './rng.ts';
export type { Rng } from './rng.ts';
export { ORDER_BUDGET, findRemovalOrder, longestChain, quickUnclearable } from './order.ts';
export {
  CLASSIC_BUDGET,
  CLASSIC_PLAYOUTS,
  DealError,
  GENERATOR_VERSION,
  MAX_UNIFORM_ATTEMPTS,
  UNIFORM_NODES,
  SEED_PATTERN,
  deal,
  shuffleFaces,
} from './deal.ts';
export type { DealStats, ShuffleResult } from './deal.ts';
export { SOLVE_BUDGET, solve } from './solver/index.ts';
export type { SolveOptions, SolveOutcome, SolveResult } from './solver/index.ts';
export {
  HEARD,
  MOVE_TYPES,
  MoveError,
  STATUSES,
  applyMove,
  applyMoves,
  availablePairs,
  geometryOfDeal,
  hintFor,
  isBoardMove,
  isSameMove,
  isTileFree,
  newGame,
  presenceOf,
  replay,
  statusOf,
  winnability,
} from './game.ts';
export type { Game, Heard, Hint, KnownBoards, Move, MoveType, ReplayError, Status, Winnability } from './game.ts';
export { makeBoard, makePairs, parseBoard, parseBoards, parsePairs } from './codec.ts';
export { LAYOUTS, layoutById } from './builtins.ts';
export { REVIEW_BUDGET, REVIEW_TOTAL_BUDGET, reviewLog } from './review.ts';
export type { LostSpan, Review, ReviewOptions } from './review.ts';
