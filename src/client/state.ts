/**
 * The play page's one state object and the DOM-free logic on it (as chessground's HeadlessState). The engine's
 * `Game` is the truth for the position; the rest is presentation or the clock, re-derived by `refresh`.
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
    readonly playMs?: number | null;
  } | null;
}

export const DIRS = ['left', 'right', 'up', 'down'] as const;
export type Dir = (typeof DIRS)[number];

/** Your time, stopped while paused, hidden or won (docs/fair-play.md, "Two clocks"). */
export interface Clock {
  base: number; // ms counted before `since`
  since: number | null; // ms epoch of the last start; null while stopped
}

/** The answer to "Can this still be won?". */
export type Check =
  | { readonly kind: 'idle' }
  | { readonly kind: 'running'; readonly at: number } // at: log length
  | { readonly kind: 'yes' }
  | { readonly kind: 'unknown' }
  | { readonly kind: 'no'; readonly undoSteps: number | null; readonly lost: LostAnswer | null };

/** The moves API's answer to a recorded win. */
export type Verified = Pick<
  MovesAnswer,
  'timeMs' | 'previousBestMs' | 'ranked' | 'unranked' | 'dailyRank' | 'next' | 'achievements'
>;

/** A free tile picked that does not match the selection: both tiles give a short cue. */
export interface Mismatch {
  readonly slots: readonly [number, number]; // [selection before, tile picked]
  readonly n: number; // counts the cues
}

export interface HeadlessState {
  readonly deal: Deal;
  game: Game;
  gameId: string | null;
  selected: number | null;
  hint: Pair | null; // until the next move
  hintPending: boolean;
  focus: number | null;
  wobble: number | null; // blocked slot clicked last
  leaving: number[]; // removed by the last move, animating out
  moving: Flight[]; // faces the last shuffle moved
  mismatch: Mismatch | null;
  message: string; // for the live region
  check: Check;
  confirmingNew: boolean; // the notice asks first
  confirmingRestart: boolean;
  clock: Clock;
  saving: SyncStatus;
  verified: Verified | null;
  record: DealRecordAnswer | null; // null: as rendered
  paused: boolean; // mj_prefs
  timerOn: boolean;
  highlightOn: boolean;
  soundOn: boolean; // localStorage
  wentOffline: boolean; // moves may arrive together
  replayUrl: string | null;
  challengeUrl: string | null;
  // derived by refresh():
  free: boolean[]; // per slot
  pairs: number;
  status: Status;
}

const empty = (): Pick<HeadlessState, 'free' | 'pairs' | 'status'> => ({ free: [], pairs: 0, status: 'playing' });

/** The player's switches, as the server rendered them. */
export interface Prefs {
  readonly paused: boolean;
  readonly timerOn: boolean;
  readonly highlightOn: boolean;
  readonly soundOn: boolean;
}

const DEFAULT_PREFS: Prefs = { paused: false, timerOn: true, highlightOn: true, soundOn: false };

/** A state for the page data at `now` (ms epoch): replays the log; your clock goes on from the server's. */
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
  // arrows go on from a removed tile's slot
  if (s.focus !== null && s.game.faces[s.focus] === null) s.focus = closestFree(s, s.focus) ?? s.focus;
}

// ---- the clock ----

export const elapsedMs = (clock: Clock, now: number): number =>
  clock.base + (clock.since === null ? 0 : Math.max(0, now - clock.since));

export const clockShouldRun = (s: HeadlessState): boolean => s.game.log.length > 0 && s.status !== 'won' && !s.paused;

/** Starts or resumes your clock if it should run. Mutates. */
export function startClock(s: HeadlessState, now: number): void {
  if (s.clock.since === null && clockShouldRun(s)) s.clock.since = now;
}

export function stopClock(s: HeadlessState, now: number): void {
  if (s.clock.since !== null) s.clock = { base: elapsedMs(s.clock, now), since: null };
}

// ---- moves ----

/** A face's name in the page's language ('Bamboo 3'). */
const faceName = (face: string): string => t(...faceMessage(face));

function positionMessage(s: HeadlessState, now: number): string {
  if (s.status === 'won') return t('client.won', { time: formatTime(elapsedMs(s.clock, now)) });
  if (s.status === 'stuck') return t('client.stuck');
  return '';
}

/** Plays a move at `now`; returns the engine's error for an illegal move (state unchanged). Mutates. */
export function playMove(s: HeadlessState, move: Move, now: number): string | null {
  const next = applyMove(s.game, move);
  if (!next.ok) return next.message;
  const before = s.game;
  s.game = next.value;
  s.selected = null;
  s.hint = null;
  s.hintPending = false;
  s.wobble = null;
  s.check = { kind: 'idle' };
  s.confirmingNew = false;
  s.confirmingRestart = false;
  s.leaving = move.type === 'match' ? [move.a, move.b] : [];
  s.moving = move.type === 'match' ? [] : flightsOf(s.deal.tiles, before.faces, s.game.faces);
  s.mismatch = null;
  refresh(s);
  if (s.status === 'won') stopClock(s, now);
  else startClock(s, now);
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

export const canRestart = (s: HeadlessState): boolean => s.game.past.length > 0 && s.status !== 'won';

/** Back to the deal's start as `undo` moves (docs/fair-play.md), so Redo replays them. Mutates. */
export function restart(s: HeadlessState, now: number): Move[] {
  const moves: Move[] = [];
  if (!canRestart(s)) return moves;
  while (s.game.past.length > 0) {
    if (playMove(s, { type: 'undo' }, now) !== null) break;
    moves.push({ type: 'undo' });
  }
  s.message = t('client.restarted', { n: moves.length });
  return moves;
}

export type Picked =
  | { readonly kind: 'ignore' }
  | { readonly kind: 'wobble' }
  | { readonly kind: 'select' }
  | { readonly kind: 'deselect' }
  | { readonly kind: 'move'; readonly move: Move };

/** A player picks `slot`: select, match (the returned move was played), wobble or mismatch. Mutates. */
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
    if (error) throw new Error(error);
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

/** Shows a hint pair the solver found for log length `at`. Mutates. */
export function showHint(s: HeadlessState, pair: Pair | null, at: number, winning: boolean, now: number): Move | null {
  s.hintPending = false;
  if (at !== s.game.log.length) return null;
  if (!pair) {
    s.message = t('client.stuck');
    return null;
  }
  const next = applyMove(s.game, { type: 'hint' });
  if (!next.ok) return null;
  s.game = next.value;
  startClock(s, now);
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

/** The losing move and its reason in words (docs/coach.md). */
export function reasonText(s: HeadlessState, lost: LostAnswer): string {
  const named = lost.named[0];
  return wordsOf(t, { ...lost, named: named === undefined ? null : (s.game.faces[named] ?? null) });
}

/** Says the win is lost: `lead`, then the losing move and its reason. Mutates. */
function sayLost(s: HeadlessState, lead: string, undoSteps: number | null, lost: LostAnswer | null): void {
  s.check = { kind: 'no', undoSteps, lost };
  s.message = lost ? `${lead} ${reasonText(s, lost)}` : lead;
}

/** Shows the solver's answer for a stuck board at log length `at`, not counted as a check. Mutates. */
export function showStuck(
  s: HeadlessState,
  result: string,
  undoSteps: number | null,
  at: number,
  lost: LostAnswer | null,
): boolean {
  if (at !== s.game.log.length || s.status !== 'stuck' || s.check.kind !== 'idle') return false;
  if (result !== 'unsolvable' || undoSteps === null) return false;
  sayLost(s, t('client.reason.stuck', { n: undoSteps }), undoSteps, lost);
  return true;
}

/** Records a "Can this still be won?" answer as a `check` move; null when the position moved on. Mutates. */
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
  if (!next.ok) return null;
  s.game = next.value;
  startClock(s, now);
  return move;
}

// ---- names and focus ----

/** A tile's accessible name: 'Bamboo 3, free', '…, selected'. */
export function tileLabel(s: HeadlessState, slot: number): string {
  const face = s.game.faces[slot];
  if (face == null) return '';
  const free = s.free[slot] ?? false;
  const selected = s.selected === slot;
  // Cached: a board names the same few dozen again and again.
  const key = `${face}|${free ? 1 : 0}${selected ? 1 : 0}`;
  let label = labels.get(key);
  if (label === undefined) labels.set(key, (label = labelOf(t, face, free, selected)));
  return label;
}
const labels = new Map<string, string>();

/** A tile's name as the server wrote it, so the start needs no formatting. */
export function knowTileLabel(face: string, free: boolean, label: string): void {
  const key = `${face}|${free ? 1 : 0}0`;
  if (!labels.has(key)) labels.set(key, label);
}

/** Where a tile's face is drawn, in half tiles: its centre, shifted up-left by its layer. */
export function tileCentre(s: HeadlessState, slot: number): [number, number] {
  const t = s.deal.tiles[slot]!;
  const lift = 0.25; // per layer, in half tiles
  return [t.x + 1 - t.z * lift, t.y + 1 - t.z * lift];
}

/** The free tile nearest to `from` in `dir` (docs/client.md, "Keyboard"), or null. */
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

/** The first free tile in reading order, or null. */
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

/** The free tile closest to slot `from` in any direction, or null. */
export function closestFree(s: HeadlessState, from: number): number | null {
  const [fx, fy] = tileCentre(s, from);
  let best: number | null = null;
  let bestDistance = Infinity;
  for (let i = 0; i < s.free.length; i++) {
    if (!s.free[i] || i === from) continue;
    const [x, y] = tileCentre(s, i);
    const distance = Math.hypot(x - fx, (y - fy) * 1.33); // rows are taller
    if (distance < bestDistance) [best, bestDistance] = [i, distance];
  }
  return best;
}

/** Moves keyboard focus one step in `dir` (to the first free tile when none has it). Mutates. */
export function moveFocus(s: HeadlessState, dir: Dir): number | null {
  const from = s.focus;
  let next: number | null;
  if (from === null) next = firstFree(s);
  else if (s.free[from]) next = nearestFree(s, from, dir) ?? from;
  else next = nearestFree(s, from, dir) ?? closestFree(s, from) ?? firstFree(s);
  s.focus = next;
  return next;
}

/** This deal's link: /play/<layout>/<seed>[?mode=classic]. */
export const shareUrl = (s: HeadlessState, origin: string): string =>
  origin + dealUrl(s.deal.layout, s.deal.seed, s.deal.mode);

/** True while a game is under way (leaving it asks first). */
export const isInProgress = (s: HeadlessState): boolean => s.game.log.length > 0 && s.status !== 'won';

/** Where "New game" goes: a fresh seed, same layout and mode. */
export const newGameUrl = (s: HeadlessState): string => newDealUrl(s.deal.layout, s.deal.mode);
