/**
 * The play page's headless logic (src/client/state.ts) and the solver worker's
 * answers (worker.ts), in Node without a DOM.
 */
import { describe, expect, test } from 'vitest';
import {
  applyMove,
  availablePairs,
  canMatch,
  deal,
  faceName,
  hintFor,
  layoutById,
  makeLayout,
  makeRng,
  newGame,
  replay,
  winnability,
  explainLoss,
  lostWinOf,
  type Deal,
  type Game,
  type Move,
  type Slot,
} from '../../src/engine/index.ts';
import {
  canRestart,
  elapsedMs,
  firstFree,
  makeState,
  moveFocus,
  nearestFree,
  newGameUrl,
  pickTile,
  playMove,
  restart,
  shareUrl,
  showCheck,
  showHint,
  startClock,
  stopClock,
  tileLabel,
} from '../../src/client/state.ts';
import { formatTime, isCleanWin } from '../../src/shared/display.ts';
import { answer } from '../../src/client/worker.ts';
import { bestText } from '../../src/client/win-panel.ts';

/** A flat 4 × 3 block under a 2 × 1 second layer: 14 tiles. */
const SLOTS: Slot[] = [
  ...[0, 2, 4].flatMap((y) => [0, 2, 4, 6].map((x) => ({ x, y, z: 0 }))),
  { x: 2, y: 2, z: 1 },
  { x: 4, y: 2, z: 1 },
];
const LAYOUT = makeLayout('block', 'Block', 'test block', SLOTS);

function dealOf(seed = 'unit'): Deal {
  const r = deal(LAYOUT, seed);
  if (!r.ok) throw new Error(r.message);
  return r.value.deal;
}

const T0 = 1_700_000_000_000; // a fixed "now", ms epoch

describe('makeState', () => {
  test('a fresh deal: everything on the board, free tiles and pairs derived, clock stopped', () => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    expect(s.game.left).toBe(14);
    expect(s.status).toBe('playing');
    expect(s.free.filter(Boolean).length).toBeGreaterThan(0);
    expect(s.free[12]).toBe(true); // the upper layer is free
    expect(s.free[5]).toBe(false); // under the upper layer
    expect(s.clock.since).toBeNull();
    expect(s.gameId).toBeNull();
  });

  test('replays the embedded log; your clock goes on from the time the server last heard, not its start', () => {
    const d = dealOf();
    const [a, b] = d.solution[0]!;
    const log = [{ type: 'match' as const, a, b }];
    const s = makeState({ deal: d, game: { id: 'g1', log, startedAt: T0 - 600_000, playMs: 65_000 } }, T0);
    expect(s.gameId).toBe('g1');
    expect(s.game.left).toBe(12);
    expect(s.game.faces[a]).toBeNull();
    expect(formatTime(elapsedMs(s.clock, T0 + 5000))).toBe('1:10');
    // A game from before your time was sent: its clock starts at 0:00, never at the server's count.
    const old = makeState({ deal: d, game: { id: 'g2', log, startedAt: T0 - 600_000 } }, T0);
    expect(formatTime(elapsedMs(old.clock, T0 + 5000))).toBe('0:05');
  });

  test('opened paused (the prefs cookie): your clock stands until the game is resumed', () => {
    const d = dealOf();
    const [a, b] = d.solution[0]!;
    const game = { id: 'g1', log: [{ type: 'match' as const, a, b }], startedAt: T0, playMs: 30_000 };
    const s = makeState({ deal: d, game }, T0, { paused: true, timerOn: true, highlightOn: true, soundOn: false });
    expect(s.paused).toBe(true);
    expect(elapsedMs(s.clock, T0 + 60_000)).toBe(30_000);
    s.paused = false;
    startClock(s, T0 + 60_000);
    expect(elapsedMs(s.clock, T0 + 70_000)).toBe(40_000);
  });
});

describe('pickTile', () => {
  test('a blocked tile wobbles and is named as blocked', () => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    expect(pickTile(s, 5, T0)).toEqual({ kind: 'wobble' });
    expect(s.wobble).toBe(5);
    expect(s.selected).toBeNull();
    expect(tileLabel(s, 5)).toBe(`${faceName(s.game.faces[5]!)}, blocked`);
  });

  test('select, deselect, switch, then match the pair', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    const [a, b] = d.solution[0]!;
    expect(pickTile(s, a, T0).kind).toBe('select');
    expect(tileLabel(s, a)).toBe(`${faceName(s.game.faces[a]!)}, free, selected`);
    expect(pickTile(s, a, T0).kind).toBe('deselect');
    expect(s.selected).toBeNull();
    // a free tile that does not match the selection takes the selection over, with a cue on both
    const other = s.free.findIndex((f, i) => f && i !== a && !canMatch(s.game.faces[i]!, s.game.faces[a]!));
    expect(other).toBeGreaterThanOrEqual(0);
    pickTile(s, a, T0);
    expect(s.mismatch).toBeNull();
    expect(pickTile(s, other, T0).kind).toBe('select');
    expect(s.selected).toBe(other);
    expect(s.mismatch).toEqual({ slots: [a, other], n: 1 });
    const [now, was] = [faceName(s.game.faces[other]!), faceName(s.game.faces[a]!)];
    expect(s.message).toBe(`${now} does not match ${was}. ${now} selected.`);
    expect(pickTile(s, a, T0).kind).toBe('select'); // and back: the next cue
    expect(s.mismatch).toEqual({ slots: [other, a], n: 2 });
    expect(pickTile(s, a, T0).kind).toBe('deselect');
    expect(s.mismatch).toBeNull();
    pickTile(s, a, T0);
    const picked = pickTile(s, b, T0 + 1000);
    expect(picked).toEqual({ kind: 'move', move: { type: 'match', a, b } });
    expect(s.game.left).toBe(12);
    expect(s.leaving).toEqual([a, b]);
    expect(s.message).toMatch(/^Matched .*12 tiles left\.$/);
    expect(s.clock.since).toBe(T0 + 1000); // the first move starts the clock
  });

  test('clicking the solution clears the board, stops the clock and wins clean', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    d.solution.forEach(([a, b], k) => {
      pickTile(s, a, T0 + k * 1000);
      pickTile(s, b, T0 + k * 1000 + 500);
    });
    expect(s.status).toBe('won');
    expect(s.game.left).toBe(0);
    expect(s.clock.since).toBeNull();
    expect(elapsedMs(s.clock, T0 + 999_999)).toBe((d.solution.length - 1) * 1000); // from the first match to the last
    expect(isCleanWin(s.game)).toBe(true);
    expect(s.message).toMatch(/^Board cleared in 0:0\d\. Well played!$/);
    expect(pickTile(s, 0, T0).kind).toBe('ignore');
  });
});

describe('playMove', () => {
  test('undo and redo; an illegal move says why and changes nothing', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    expect(playMove(s, { type: 'undo' }, T0)).toMatch(/nothing to undo/);
    const [a, b] = d.solution[0]!;
    expect(playMove(s, { type: 'match', a, b }, T0)).toBeNull();
    expect(playMove(s, { type: 'undo' }, T0)).toBeNull();
    expect(s.game.left).toBe(14);
    expect(s.message).toBe('Undone. 14 tiles left.');
    expect(playMove(s, { type: 'redo' }, T0)).toBeNull();
    expect(s.game.left).toBe(12);
    expect(isCleanWin(s.game)).toBe(false);
    const before = s.game;
    expect(playMove(s, { type: 'match', a: 5, b: 6 }, T0)).not.toBeNull();
    expect(s.game).toBe(before);
  });

  test('shuffle keeps the tiles and says how many pairs there are', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    expect(playMove(s, { type: 'shuffle' }, T0)).toBeNull();
    expect(s.game.shuffles).toBe(1);
    expect(s.game.left).toBe(14);
    expect(s.message).toMatch(/^Shuffled\. \d+ pairs? to play\.$/);
  });
});

describe('restart', () => {
  test('takes every step back as undos (a shuffle too): the deal’s own board, counted as undone, redo still there', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    expect(canRestart(s)).toBe(false); // nothing to take back
    expect(restart(s, T0)).toEqual([]);
    const [a, b] = d.solution[0]!;
    expect(playMove(s, { type: 'match', a, b }, T0 + 1000)).toBeNull();
    expect(playMove(s, { type: 'shuffle' }, T0 + 2000)).toBeNull();
    s.confirmingRestart = true;
    const faces = s.game.faces;
    expect(canRestart(s)).toBe(true);
    expect(restart(s, T0 + 3000)).toEqual([{ type: 'undo' }, { type: 'undo' }]);
    expect(s.game.faces).toEqual(d.tiles.map((t) => t.face));
    expect(s.game.faces).not.toEqual(faces);
    expect(s.game.left).toBe(14);
    expect(s.game.undos).toBe(2);
    expect(s.game.log.map((m) => m.type)).toEqual(['match', 'shuffle', 'undo', 'undo']);
    expect(s.game.future).toHaveLength(2); // redo plays them again
    expect(s.confirmingRestart).toBe(false);
    expect(s.message).toBe('Back to the start of the deal: 2 moves undone.');
    expect(isCleanWin(s.game)).toBe(false);
    expect(s.clock.since).toBe(T0 + 1000); // your clock runs on
    expect(canRestart(s)).toBe(false);
    // A won board is over: nothing restarts it.
    const w = makeState({ deal: d, game: null }, T0);
    for (const [x, y] of d.solution) playMove(w, { type: 'match', a: x, b: y }, T0);
    expect(w.status).toBe('won');
    expect(canRestart(w)).toBe(false);
    expect(restart(w, T0)).toEqual([]);
  });
});

describe('your clock', () => {
  test('starts at the first move, not at a selection; stops while hidden or paused; stops for good at the win', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    startClock(s, T0); // no move yet: it stands at 0:00
    expect(s.clock.since).toBeNull();
    const [a, b] = d.solution[0]!;
    pickTile(s, a, T0 + 2000);
    expect(s.clock.since).toBeNull(); // a selection is not a move
    pickTile(s, b, T0 + 5000);
    expect(s.clock.since).toBe(T0 + 5000);
    stopClock(s, T0 + 15_000); // the page hidden
    expect(elapsedMs(s.clock, T0 + 60_000)).toBe(10_000);
    startClock(s, T0 + 60_000); // visible again
    expect(elapsedMs(s.clock, T0 + 65_000)).toBe(15_000);
    s.paused = true;
    stopClock(s, T0 + 65_000);
    startClock(s, T0 + 90_000); // a resize, a visibility change… while paused: it stands
    expect(elapsedMs(s.clock, T0 + 99_000)).toBe(15_000);
  });

  test('a hint or a "can this still be won?" starts it too: asking is playing', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    expect(showHint(s, d.solution[0]!, 0, true, T0 + 3000)).toEqual({ type: 'hint' });
    expect(s.clock.since).toBe(T0 + 3000);
    const t = makeState({ deal: d, game: null }, T0);
    expect(showCheck(t, 'solvable', null, 0, T0 + 4000)).toEqual({ type: 'check', heard: 'yes' });
    expect(t.clock.since).toBe(T0 + 4000);
  });

  test.each([
    [0, '0:00'],
    [59_999, '0:59'],
    [61_000, '1:01'],
    [3_600_000 + 62_000, '1:01:02'],
  ])('formatTime(%i) is %s', (ms, text) => expect(formatTime(ms)).toBe(text));
});

describe('hints and checks', () => {
  test('a hint for the current position is shown and counted; a stale one is dropped', () => {
    const d = dealOf();
    const s = makeState({ deal: d, game: null }, T0);
    const pair = d.solution[0]!;
    expect(showHint(s, pair, 1, true, 0)).toBeNull(); // asked at another log length
    expect(s.hint).toBeNull();
    expect(showHint(s, pair, 0, true, 0)).toEqual({ type: 'hint' });
    expect(s.hint).toEqual(pair);
    expect(s.game.hints).toBe(1);
    expect(s.message).toMatch(/^Hint: /);
    s.hintPending = true; // another hint asked for, then a move before it came
    playMove(s, { type: 'match', a: pair[0], b: pair[1] }, T0);
    expect(s.hint).toBeNull();
    expect(s.hintPending).toBe(false);
  });

  test('no pair: a calm message, nothing counted', () => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    expect(showHint(s, null, 0, false, 0)).toBeNull();
    expect(s.message).toMatch(/No moves left/);
    expect(s.game.hints).toBe(0);
  });

  test.each([
    ['solvable', null, 'yes', /^Yes/],
    ['unsolvable', 3, 'no', /lost 3 moves ago/],
    ['unsolvable', null, 'no', /cannot be cleared/],
    ['unresolved', null, 'unknown', /could not tell/],
  ] as const)('check %s (undo %s) → %s', (result, steps, kind, text) => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    const move = showCheck(s, result, steps, 0, 0);
    expect(s.check.kind).toBe(kind);
    expect(s.message).toMatch(text);
    // What the player heard joins the log (sent to the server with the moves) and changes nothing on the board.
    expect(move).toEqual({ type: 'check', heard: kind });
    expect(s.game.log).toEqual([move]);
    expect(s.game.left).toBe(s.deal.tiles.length);
  });

  test('a check answer for a position left meanwhile is dropped: nothing joins the log', () => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    expect(showCheck(s, 'unsolvable', null, 3, 0)).toBeNull();
    expect(s.check.kind).toBe('idle');
    expect(s.game.log).toEqual([]);
  });
});

describe('focus by geometry', () => {
  test('arrows walk between free tiles; first focus is the top-left free tile', () => {
    const s = makeState({ deal: dealOf(), game: null }, T0);
    const first = firstFree(s)!;
    expect(moveFocus(s, 'right')).toBe(first);
    expect(first).toBe(0); // (0, 0) is free: its left side is open
    // from (0,0) the nearest free tile to the right on the top row is (6,0), slot 3
    expect(nearestFree(s, 0, 'right')).toBe(3);
    expect(nearestFree(s, 0, 'down')).toBe(4); // (0,2)
    expect(nearestFree(s, 0, 'left')).toBeNull();
    expect(nearestFree(s, 0, 'up')).toBeNull();
    s.focus = 0;
    expect(moveFocus(s, 'left')).toBe(0); // nothing there: focus stays
  });
});

describe('links', () => {
  test('share and new game keep the mode', () => {
    const s = makeState({ deal: { ...dealOf(), mode: 'classic' }, game: null }, T0);
    expect(shareUrl(s, 'https://x.test')).toBe(`https://x.test/play/block/unit?mode=classic`);
    expect(newGameUrl(s)).toBe('/play/block?mode=classic');
  });
});

describe("the win panel's best", () => {
  test.each([
    [60_000, null, 'relaxed', 'Your first win on this layout.'],
    [60_000, 90_000, 'relaxed', 'A new personal best on this layout: 0:30 faster than your 1:30.'],
    [95_000, 90_000, 'classic', 'Your best on this layout, classic stays 1:30.'],
    [90_200, 90_900, 'relaxed', 'A new personal best on this layout, just under your 1:30.'],
    // The gain is the difference of the times shown: 0:28 after 0:55 is 0:27, not the 0:26 of the milliseconds.
    [28_900, 55_000, 'relaxed', 'A new personal best on this layout: 0:27 faster than your 0:55.'],
    [89_500, 90_000, 'relaxed', 'A new personal best on this layout: 0:01 faster than your 1:30.'],
    [59_999, 61_000, 'relaxed', 'A new personal best on this layout: 0:02 faster than your 1:01.'],
    [null, 90_000, 'relaxed', ''],
  ] as const)('%s ms after a best of %s (%s)', (time, best, mode, text) => {
    expect(bestText(time, best, mode)).toBe(text);
  });
});

/** What a check's answer adds on a lost win: the losing match and its reason (engine explain.ts), as the worker does. */
function lostOf(game: Game, undoSteps: number | null) {
  const lostWin = undoSteps === null ? null : lostWinOf(game, undoSteps);
  if (!lostWin) return {};
  const e = explainLoss(game.geom, lostWin.before, lostWin.move);
  const [a, b] = lostWin.move;
  const faces = [lostWin.before[a], lostWin.before[b]];
  return { lost: { at: lostWin.at, move: lostWin.move, faces, reason: e.reason, tiles: e.tiles, named: e.named } };
}

describe('solver worker', () => {
  test('a hint is a free matching pair that keeps the game winnable', () => {
    const d = dealOf();
    const a = answer({ id: 1, kind: 'hint', deal: d, log: [] });
    expect(a.kind).toBe('hint');
    if (a.kind !== 'hint') return;
    expect(a.winning).toBe(true);
    const s = makeState({ deal: d, game: null }, T0);
    const [x, y] = a.pair!;
    expect(s.free[x] && s.free[y]).toBe(true);
    expect(canMatch(s.game.faces[x]!, s.game.faces[y]!)).toBe(true);
  });

  test('a fresh deal can be won; a bad log is an error', () => {
    const d = dealOf();
    expect(answer({ id: 2, kind: 'check', deal: d, log: [] })).toEqual({
      id: 2,
      kind: 'check',
      result: 'solvable',
      undoSteps: null,
    });
    expect(answer({ id: 3, kind: 'check', deal: d, log: [{ type: 'undo' }] }).kind).toBe('error');
  });

  test('after a lost position, the hints and checks of the positions played from it answer as a fresh solve would', () => {
    // Random play on a classic turtle deal until the game is lost, then on to the end.
    const dealt = deal(layoutById('turtle')!, 'lost-1', 'classic');
    if (!dealt.ok) throw new Error(dealt.message);
    const d = dealt.value.deal;
    const rng = makeRng('lost-1', 'test-play');
    const started = newGame(d);
    if (!started.ok) throw new Error(started.message);
    let game = started.value;
    const log: Move[] = [];
    const positions: { log: Move[]; game: typeof game }[] = [];
    for (;;) {
      positions.push({ log: log.slice(), game });
      const pairs = availablePairs(game);
      if (pairs.length === 0) break;
      const [a, b] = pairs[rng.int(pairs.length)]!;
      // Now and then the player asked for a hint or a check first: counted in the log, the board unchanged.
      const moves: Move[] = [
        ...(rng.int(4) === 0 ? [{ type: rng.int(2) === 0 ? 'hint' : 'check' } as Move] : []),
        { type: 'match', a, b },
      ];
      for (const move of moves) {
        const next = applyMove(game, move);
        if (!next.ok) throw new Error(next.message);
        game = next.value;
        log.push(move);
      }
    }
    const first = positions.findIndex((p) => winnability(p.game).result === 'unsolvable');
    expect(first).toBeGreaterThan(0);
    expect(log.slice(positions[first]!.log.length).some((m) => m.type !== 'match')).toBe(true); // hints or checks after
    expect(positions.length - first).toBeGreaterThanOrEqual(3); // positions played on after the game was lost
    let id = 10;
    for (const [i, p] of positions.entries()) {
      if (i < first - 2) continue;
      const hint = hintFor(p.game);
      expect(answer({ id: ++id, kind: 'hint', deal: d, log: p.log }), `hint at ${i}`).toEqual({
        id,
        kind: 'hint',
        pair: hint.pair,
        winning: hint.winning,
        result: hint.result,
      });
      const w = winnability(p.game);
      expect(answer({ id: ++id, kind: 'check', deal: d, log: p.log }), `check at ${i}`).toEqual({
        id,
        kind: 'check',
        result: w.result,
        undoSteps: w.undoSteps,
        ...lostOf(p.game, w.undoSteps),
      });
    }
    // A log that leaves the lost one (an undo) is solved afresh: the same answer as the engine's.
    const last = positions.at(-1)!;
    const undone = replay(d, [...last.log, { type: 'undo' }, { type: 'undo' }]);
    if (!undone.ok) throw new Error(undone.message);
    const w = winnability(undone.value);
    expect(
      answer({ id: ++id, kind: 'check', deal: d, log: [...last.log, { type: 'undo' }, { type: 'undo' }] }),
    ).toEqual({ id, kind: 'check', result: w.result, undoSteps: w.undoSteps, ...lostOf(undone.value, w.undoSteps) });
  });
});
