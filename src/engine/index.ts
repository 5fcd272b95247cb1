/**
 * The engine's public names, re-exported one by one. The engine has no I/O, no
 * DOM, no clock and no Math.random: the server and the browser run it alike.
 */
export { BANDS, FACES, MODES, SUITS, err, ok } from './types.ts';
export type { Band, Deal, DealTile, Difficulty, Face, Layout, Mode, Pair, Result, Slot, Suit } from './types.ts';
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
export { naiveFaces } from './naive.ts';
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
  dealBoard,
} from './deal.ts';
export type { DealBoard, DealStats } from './deal.ts';
export { shuffleFaces } from './shuffle.ts';
export type { ShuffleResult } from './shuffle.ts';
export { BAND_CUTS, DIFFICULTY_GAMES, bandOf, difficultyGames, isBand, measureDifficulty } from './difficulty.ts';
export { groupsOf, isClearedByRandomPlay, playRandom, randomClearRate } from './playout.ts';
export type { Groups } from './playout.ts';
export { BOT_SHUFFLES, SHUFFLE_CAP, botMove, playBot } from './bot.ts';
export type { BotResult } from './bot.ts';
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
export { LAYOUTS, layoutById, layoutSummaries } from './builtins.ts';
export {
  MAX_REASON_TILES,
  REASONS,
  explainLoss,
  explainPosition,
  isDeadlock,
  largestDeadlock,
  lostWinOf,
} from './explain.ts';
export type { Explanation, LostWin, Reason } from './explain.ts';
export { REVIEW_BUDGET, REVIEW_TOTAL_BUDGET, reviewLog } from './review.ts';
export type { LostSpan, Review, ReviewOptions } from './review.ts';
