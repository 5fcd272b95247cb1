/**
 * The play page's one state object and the logic that works on it, without the DOM (as chessground's
 * HeadlessState): selecting tiles, playing moves through the engine, the clock, keyboard focus by
 * geometry, and the texts the page shows. render.ts draws a state; events.ts turns input into calls here.
 *
 * Implementation notes: the engine's `Game` is the truth for the position; everything else here is
 * presentation (selection, hint, focus, the animations of the last move and pick) or bookkeeping (the
 * clock). `refresh` recomputes the derived fields after every change of `game`.
 */
import {
  applyMove,
  applyMoves,
  availablePairs,
  canMatch,
  newGame,
  presenceOf,
  isFree,
  statusOf,
  type Deal,
  type Game,
  type Heard,
  type Move,
  type Pair,
  type Status,
} from '../engine/index.ts';
import type { DealRecordAnswer, MovesAnswer } from '../shared/api.ts';
import { dealUrl, formatTime, newDealUrl } from '../shared/display.ts';
import { faceMessage, tileLabel as labelOf } from '../shared/i18n.ts';
import { flightsOf, type Flight } from './flip.ts';
import { t } from './i18n.ts';
import type { SyncStatus } from './sync.ts';
import type { LostAnswer } from './worker.ts';
import { reasonText as wordsOf } from '../shared/coach.ts';

/** The `#deal-data` JSON of the play page (docs/contract-board.md). */
export interface DealData {
  readonly deal: Deal;
  readonly game: {
    readonly id: string;
    readonly log: readonly Move[];
    readonly startedAt: number; // ms since the epoch, server clock
    readonly status?: string;
    readonly playMs?: number | null; // the player's own clock as the server last heard it
  } | null;
}

export const DIRS = ['left', 'right', 'up', 'down'] as const;
export type Dir = (typeof DIRS)[number];

/**
 * Your time (docs/fair-play.md, "Two clocks"): the clock the player sees, from their first move, stopped
 * while the game is paused or the page hidden, and stopped for good by the win. It is what the player's
 * own stats show, also for games played offline (it travels with the moves). The ranked time is the
 * server's own, from its first showing of the deal; the page only shows it once the server sends it.
 */
export interface Clock {
  base: number; // ms counted before `since`
  since: number | null; // ms epoch when the clock last started; null while stopped
}

/** The answer to "Can this still be won?". */
export type Check =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly at: number } // at: log length asked about
  | { readonly kind: 'yes' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'no'; readonly undoSteps: number | null; readonly lost: LostAnswer | null }; // lost: where and why

/** What the server said of a win it recorded (the moves API's win answer). */
export type Verified = Pick<
  MovesAnswer,
  'timeMs' | 'previousBestMs' | 'ranked' | 'unranked' | 'dailyRank' | 'next' | 'achievements'
>;

/** A free tile picked that does not match the selection: both tiles give a short cue (render.ts). */
export interface Mismatch {
  readonly slots: readonly [number, number]; // [the selection before, the tile picked]
  readonly n: number; // counts the cues, so that a repeated one starts again
}

export interface HeadlessState {
  readonly deal: Deal;
  game: Game;
  gameId: string | null; // server game id, once the server has one
  selected: number | null; // selected slot
  hint: Pair | null; // pair shown by the last hint, until the next move
  hintPending: boolean; // a hint is being computed
  focus: number | null; // slot that has (or will get) keyboard focus
  wobble: number | null; // blocked slot clicked last, wobbling
  leaving: number[]; // slots removed by the last move, animating out
  moving: Flight[]; // faces the last move (a shuffle, its undo or redo) moved, flying to their new slots
  mismatch: Mismatch | null; // the last pick did not match the selection
  message: string; // announced in the live region
  check: Check;
  confirmingNew: boolean; // "New game" was asked for during a game: the notice asks before leaving it
  confirmingRestart: boolean; // "Restart this deal" was asked for: the notice asks before undoing every move
  clock: Clock;
  saving: SyncStatus; // what the save indicator says (sync.ts)
  verified: Verified | null; // the server recorded the win: its time, the best before, its rank
  record: DealRecordAnswer | null; // the deal's record as the server last sent it (with a win); null: as rendered
  paused: boolean; // the board is hidden and your clock stopped (kept in the mj_prefs cookie)
  timerOn: boolean; // the clock is shown (mj_prefs)
  highlightOn: boolean; // free tiles are lifted and rimmed (mj_prefs); off, they look like the others
  soundOn: boolean; // soft sounds (localStorage)
  wentOffline: boolean; // the page lost the server while this game was played: its moves may arrive together
  replayUrl: string | null; // the game's replay link, once the player asked for it (the win panel's Share replay)
  challengeUrl: string | null; // the won game's challenge link, once the player asked for it (Challenge a friend)
  // derived by refresh():
  free: boolean[]; // per slot: on the board and free
  pairs: number; // matching free pairs now
  status: Status;
}

const empty = (): Pick<HeadlessState, 'free' | 'pairs' | 'status'> => ({ free: [], pairs: 0, status: 'playing' });

/** What the page opens with besides the deal: the player's switches, as the server rendered them. */
export interface Prefs {
  readonly paused: boolean;
  readonly timerOn: boolean;
  readonly highlightOn: boolean;
  readonly soundOn: boolean;
}

const DEFAULT_PREFS: Prefs = { paused: false, timerOn: true, highlightOn: true, soundOn: false };

/**
 * A state for the page data at time `now` (ms epoch). Replays the embedded move log; your clock goes on
 * from the time the server last heard for that game, running when the game is under way and not paused.
 */
export function makeState(data: DealData, now: number, prefs: Prefs = DEFAULT_PREFS): HeadlessState {
  const start = newGame(data.deal);
  if (!start.ok) throw new Error(`bad deal: ${start.message}`);
  let game = start.value;
  let gameId: string | null = null;
  let clock: Clock = { base: 0, since: null };
  if (data.game) {
    const replayed = applyMoves(game, data.game.log);
    if (replayed.ok) {
      game = replayed.value;
      gameId = data.game.id;
      clock = { base: Math.max(0, data.game.playMs ?? 0), since: null };
    }
  }
  const s: HeadlessState = {
    deal: data.deal,
    game,
    gameId,
    selected: null,
    hint: null,
    hintPending: false,
    focus: null,
    wobble: null,
    leaving: [],
    moving: [],
    mismatch: null,
    message: '',
    check: { kind: 'idle' },
    confirmingNew: false,
    confirmingRestart: false,
    clock,
    saving: gameId && game.log.length > 0 ? 'saved' : 'idle',
    verified: null,
    record: null,
    paused: prefs.paused,
    timerOn: prefs.timerOn,
    highlightOn: prefs.highlightOn,
    soundOn: prefs.soundOn,
    wentOffline: false,
    replayUrl: null,
    challengeUrl: null,
    ...empty(),
  };
  refresh(s);
  startClock(s, now);
  return s;
}

/** Recomputes free tiles, pairs and status from `s.game`. Mutates. */
export function refresh(s: HeadlessState): void {
  const present = presenceOf(s.game);
  s.free = s.game.faces.map((_, i) => isFree(s.game.geom, present, i));
  s.pairs = availablePairs(s.game).length;
  s.status = statusOf(s.game);
  if (s.selected !== null && !s.free[s.selected]) s.selected = null;
  // a removed tile keeps the focus slot: arrows go on from where it was, and render moves focus nearby
  if (s.focus !== null && s.game.faces[s.focus] === null) s.focus = closestFree(s, s.focus) ?? s.focus;
}

// ---- the clock ----

export const elapsedMs = (clock: Clock, now: number): number =>
  clock.base + (clock.since === null ? 0 : Math.max(0, now - clock.since));

/** Your clock runs while a game is under way (a move played, not won) and not paused. */
export const clockShouldRun = (s: HeadlessState): boolean => s.game.log.length > 0 && s.status !== 'won' && !s.paused;

/** Starts (or resumes) your clock, if it should run (clockShouldRun). Mutates. */
export function startClock(s: HeadlessState, now: number): void {
  if (s.clock.since === null && clockShouldRun(s)) s.clock.since = now;
}

/** Stops the clock, keeping the time counted. Mutates. */
export function stopClock(s: HeadlessState, now: number): void {
  if (s.clock.since !== null) s.clock = { base: elapsedMs(s.clock, now), since: null };
}

// ---- moves ----

/** A face's name in the page's language ('Bamboo 3'). */
const faceName = (face: string): string => t(...faceMessage(face));

/** What the live region says about the position after a move. */
function positionMessage(s: HeadlessState, now: number): string {
  if (s.status === 'won') return t('client.won', { time: formatTime(elapsedMs(s.clock, now)) });
  if (s.status === 'stuck') return t('client.stuck');
  return '';
}

/**
 * Plays a move on the game at time `now`: the engine checks it. On success the selection and hint are
 * cleared, the clock starts (first action) or stops (win), and `message` says what happened. Returns
 * the engine's error message when the move is illegal (the state is then unchanged). Mutates.
 */
export function playMove(s: HeadlessState, move: Move, now: number): string | null {
  const next = applyMove(s.game, move);
  if (!next.ok) return next.message;
  const before = s.game;
  s.game = next.value;
  s.selected = null;
  s.hint = null;
  s.hintPending = false; // a hint still being computed is for the old position: it will be dropped
  s.wobble = null;
  s.check = { kind: 'idle' };
  s.confirmingNew = false;
  s.confirmingRestart = false;
  s.leaving = move.type === 'match' ? [move.a, move.b] : [];
  s.moving = move.type === 'match' ? [] : flightsOf(s.deal.tiles, before.faces, s.game.faces);
  s.mismatch = null;
  refresh(s);
  if (s.status === 'won') stopClock(s, now);
  else startClock(s, now); // the first move starts your clock
  let text = '';
  if (move.type === 'match') {
    const a = before.faces[move.a]!;
    const b = before.faces[move.b]!;
    const left = s.game.left;
    text =
      a === b
        ? t('client.matched', { face: faceName(a), left })
        : t('client.matchedWith', { a: faceName(a), b: faceName(b), left });
  } else if (move.type === 'shuffle') text = t('client.shuffled', { pairs: s.pairs });
  else if (move.type === 'undo') text = t('client.undone', { left: s.game.left });
  else if (move.type === 'redo') text = t('client.redone', { left: s.game.left });
  const after = positionMessage(s, now);
  s.message = after ? (move.type === 'match' || move.type === 'shuffle' ? after : `${text} ${after}`) : text;
  return null;
}

/** Whether "Restart this deal" can act: a move to take back, and the board not cleared. */
export const canRestart = (s: HeadlessState): boolean => s.game.past.length > 0 && s.status !== 'won';

/**
 * Takes the board back to the start of its deal at time `now`: every move undone, as that many `undo` moves
 * (the server replays and counts them as any undo: docs/fair-play.md), so Redo can play them again and your
 * clock runs on. Returns the moves played (none when there is nothing to take back). Mutates.
 */
export function restart(s: HeadlessState, now: number): Move[] {
  const moves: Move[] = [];
  if (!canRestart(s)) return moves;
  while (s.game.past.length > 0) {
    if (playMove(s, { type: 'undo' }, now) !== null) break; // the engine always takes back a step it holds
    moves.push({ type: 'undo' });
  }
  s.message = t('client.restarted', { n: moves.length });
  return moves;
}

/** The result of a tile click or Enter on a tile, for the controller to act on. */
export type Picked =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'wobble' }
  | { readonly kind: 'select' }
  | { readonly kind: 'deselect' }
  | { readonly kind: 'move'; readonly move: Move };

/**
 * A player picks slot `slot` (click, tap, Enter or Space). Selects a free tile, removes a matching
 * pair (the returned move has been played), or marks a blocked tile to wobble. A free tile that does
 * not match the selection takes the selection over, with a cue on both tiles (`mismatch`). Mutates.
 */
export function pickTile(s: HeadlessState, slot: number, now: number): Picked {
  const face = s.game.faces[slot];
  if (face == null || s.status === 'won') return { kind: 'ignore' };
  s.focus = slot;
  const cue = (s.mismatch?.n ?? 0) + 1;
  s.mismatch = null;
  if (!s.free[slot]) {
    s.wobble = slot;
    s.message = t('client.blocked', { face: faceName(face) });
    return { kind: 'wobble' };
  }
  s.wobble = null;
  if (s.selected === slot) {
    s.selected = null;
    s.message = '';
    return { kind: 'deselect' };
  }
  if (s.selected !== null && canMatch(s.game.faces[s.selected]!, face)) {
    const move: Move = { type: 'match', a: s.selected, b: slot };
    const error = playMove(s, move, now);
    if (error) throw new Error(error); // both tiles are free and match: the engine agrees
    return { kind: 'move', move };
  }
  const was = s.selected;
  s.selected = slot;
  if (was === null) s.message = t('client.selected', { face: faceName(face) });
  else {
    s.mismatch = { slots: [was, slot], n: cue };
    s.message = t('client.noMatch', { a: faceName(face), b: faceName(s.game.faces[was]!) });
  }
  return { kind: 'select' };
}

// ---- hints and checks ----

/** Shows a hint pair found by the solver for the position at log length `at`. Mutates. */
export function showHint(s: HeadlessState, pair: Pair | null, at: number, winning: boolean, now: number): Move | null {
  s.hintPending = false;
  if (at !== s.game.log.length) return null; // the position changed while the solver thought
  if (!pair) {
    s.message = t('client.stuck');
    return null;
  }
  const next = applyMove(s.game, { type: 'hint' });
  if (!next.ok) return null;
  s.game = next.value;
  startClock(s, now); // asking counts as playing: your clock runs from here if it did not yet
  s.hint = pair;
  s.selected = null;
  const [a, b] = pair;
  s.focus = a;
  s.message = t(winning ? 'client.hintPair' : 'client.hintLosing', {
    a: faceName(s.game.faces[a]!),
    b: faceName(s.game.faces[b]!),
  });
  return { type: 'hint' };
}

/** The losing move and its reason, in words (docs/coach.md): "Matching Red and Red (move 12) lost it: …". */
export function reasonText(s: HeadlessState, lost: LostAnswer): string {
  const named = lost.named[0];
  return wordsOf(t, { ...lost, named: named === undefined ? null : (s.game.faces[named] ?? null) });
}

/**
 * Says that the win is lost (the check's "no", or the stuck message): `lead`, then the losing move and its reason;
 * the notice offers the undo back to it and play on from it (render.ts). Mutates.
 */
function sayLost(s: HeadlessState, lead: string, undoSteps: number | null, lost: LostAnswer | null): void {
  s.check = { kind: 'no', undoSteps, lost };
  s.message = lost ? `${lead} ${reasonText(s, lost)}` : lead;
}

/**
 * The solver's answer for a stuck board (no moves left), asked by the page itself at log length `at`: the stuck
 * message then names the losing move and its reason as the check's answer does, without counting a check (the
 * player asked nothing). Returns whether it was shown. Mutates.
 */
export function showStuck(
  s: HeadlessState,
  result: string,
  undoSteps: number | null,
  at: number,
  lost: LostAnswer | null,
): boolean {
  if (at !== s.game.log.length || s.status !== 'stuck' || s.check.kind !== 'idle') return false;
  if (result !== 'unsolvable' || undoSteps === null) return false; // a shuffle lies between: the plain stuck message
  sayLost(s, t('client.reason.stuck', { n: undoSteps }), undoSteps, lost);
  return true;
}

/**
 * Records the answer to "Can this still be won?" for the position at log length `at`, and plays it as a
 * `check` move (it changes nothing on the board; the server counts what the player heard).
 * Returns that move, or null when the position changed while the solver thought. Mutates.
 */
export function showCheck(
  s: HeadlessState,
  result: string,
  undoSteps: number | null,
  at: number,
  now: number,
  lost: LostAnswer | null = null,
): Move | null {
  if (at !== s.game.log.length) {
    s.check = { kind: 'idle' };
    return null;
  }
  let heard: Heard;
  if (result === 'solvable') {
    heard = 'yes';
    s.check = { kind: 'yes' };
    s.message = t('client.check.yes');
  } else if (result === 'unsolvable') {
    heard = 'no';
    sayLost(
      s,
      undoSteps === null ? t('client.check.noShuffle') : t('client.check.noUndo', { n: undoSteps }),
      undoSteps,
      lost,
    );
  } else {
    heard = 'unknown';
    s.check = { kind: 'unknown' };
    s.message = t('client.check.unknown');
  }
  const move: Move = { type: 'check', heard };
  const next = applyMove(s.game, move);
  if (!next.ok) return null; // the board is clear: nothing to count
  s.game = next.value;
  startClock(s, now);
  return move;
}

// ---- names and focus ----

/** The accessible name of a tile: 'Bamboo 3, free', 'Flower (plum), blocked', '…, selected'. */
export function tileLabel(s: HeadlessState, slot: number): string {
  const face = s.game.faces[slot];
  if (face == null) return '';
  const free = s.free[slot] ?? false;
  const selected = s.selected === slot;
  // A board names 144 tiles at start and again as they change: a few dozen names, each formatted once.
  const key = `${face}|${free ? 1 : 0}${selected ? 1 : 0}`;
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = labelOf(t, face, free, selected)));
  return label;
}
const labels = new Map<string, string>(); // tile names by face and state (the page's language never changes)

/** A tile's name as the server wrote it (the same words, from the same catalog): not formatted again at start. */
export function knowTileLabel(face: string, free: boolean, label: string): void {
  const key = `${face}|${free ? 1 : 0}0`;
  if (!labels.has(key)) labels.set(key, label);
}

/** Where a tile's face is drawn, in half tiles: its centre, shifted up-left by its layer. */
export function tileCentre(s: HeadlessState, slot: number): [number, number] {
  const t = s.deal.tiles[slot]!;
  const lift = 0.25; // up-left shift per layer; in half tiles (matches the look, not the CSS exactly)
  return [t.x + 1 - t.z * lift, t.y + 1 - t.z * lift];
}

/**
 * The free tile nearest to `from` in direction `dir`, by the screen geometry: candidates must lie in
 * that direction's cone (±56°); distance along the direction counts once, sideways distance three times,
 * so the next tile on the same row wins over a nearer one on the diagonal.
 * Returns null when there is none.
 */
export function nearestFree(s: HeadlessState, from: number, dir: Dir): number | null {
  const [fx, fy] = tileCentre(s, from);
  const [ux, uy] = dir === 'left' ? [-1, 0] : dir === 'right' ? [1, 0] : dir === 'up' ? [0, -1] : [0, 1];
  let best: number | null = null;
  let bestScore = Infinity;
  for (let i = 0; i < s.free.length; i++) {
    if (!s.free[i] || i === from) continue;
    const [x, y] = tileCentre(s, i);
    const along = (x - fx) * ux + (y - fy) * uy;
    const side = Math.abs((x - fx) * uy - (y - fy) * ux);
    if (along <= 0.01 || side > along * 1.5) continue;
    const score = along + 3 * side;
    if (score < bestScore) [best, bestScore] = [i, score];
  }
  return best;
}

/** The first free tile in reading order (top row first, then left to right), or null. */
export function firstFree(s: HeadlessState): number | null {
  let best: number | null = null;
  for (let i = 0; i < s.free.length; i++) {
    if (!s.free[i]) continue;
    if (best === null) best = i;
    else {
      const [x, y] = tileCentre(s, i);
      const [bx, by] = tileCentre(s, best);
      if (y < by || (y === by && x < bx)) best = i;
    }
  }
  return best;
}

/** The free tile closest to slot `from` (on the board or not) in any direction, or null. */
export function closestFree(s: HeadlessState, from: number): number | null {
  const [fx, fy] = tileCentre(s, from);
  let best: number | null = null;
  let bestDistance = Infinity;
  for (let i = 0; i < s.free.length; i++) {
    if (!s.free[i] || i === from) continue;
    const [x, y] = tileCentre(s, i);
    const distance = Math.hypot(x - fx, (y - fy) * 1.33); // rows are taller than columns are wide
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  }
  return best;
}

/** Moves keyboard focus one step in `dir` (to the first free tile when nothing has focus). Mutates. */
export function moveFocus(s: HeadlessState, dir: Dir): number | null {
  const from = s.focus;
  let next: number | null;
  if (from === null) next = firstFree(s);
  else if (s.free[from]) next = nearestFree(s, from, dir) ?? from;
  else next = nearestFree(s, from, dir) ?? closestFree(s, from) ?? firstFree(s); // from a tile gone or blocked
  s.focus = next;
  return next;
}

/** The link to this deal: /play/<layout>/<seed>, with ?mode=classic for classic deals. */
export const shareUrl = (s: HeadlessState, origin: string): string =>
  origin + dealUrl(s.deal.layout, s.deal.seed, s.deal.mode);

/** True while a game is under way: moves played and the board not cleared (leaving it asks first). */
export const isInProgress = (s: HeadlessState): boolean => s.game.log.length > 0 && s.status !== 'won';

/** Where "New game" goes: a fresh seed of the same layout and mode. */
export const newGameUrl = (s: HeadlessState): string => newDealUrl(s.deal.layout, s.deal.mode);
