/**
 * Replay cost of a stored game: `npm run bench:replay`.
 *
 * A turtle game with 100 shuffles (a shuffle and a match, over and over, undoing every third
 * shuffle), replayed as the server does after its cache let the game go: searching for every
 * shuffle again (before), and taking the stored boards (now); then a log at the per-game cap without
 * shuffles (4,998 moves of match and undo). Prints p50/max ms of RUNS replays each.
 */
import { layoutById } from '../src/engine/builtins.ts';
import {
  applyMoves,
  availablePairs,
  deal,
  makeBoard,
  newGame,
  parseBoards,
  replay,
  type Game,
  type Move,
} from '../src/engine/index.ts';

const RUNS = 30;
const made = deal(layoutById('turtle')!, 'bench-replay');
if (!made.ok) throw new Error(made.message);
const d = made.value.deal;
let game = (newGame(d) as { ok: true; value: Game }).value;
const log: Move[] = [];
for (let k = 0; k < 100; k++) {
  const moves: Move[] = k % 3 === 0 ? [{ type: 'shuffle' }, { type: 'undo' }] : [{ type: 'shuffle' }];
  const pairs = availablePairs((applyMoves(game, moves) as { ok: true; value: Game }).value);
  if (pairs.length > 0 && game.left > 4) moves.push({ type: 'match', a: pairs[0]![0], b: pairs[0]![1] });
  const next = applyMoves(game, moves);
  if (!next.ok) break;
  game = next.value;
  log.push(...moves);
}
const stored = game.boards.map(makeBoard).join('');

function time(label: string, run: () => void): void {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    run();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    JSON.stringify({
      replay: label,
      moves: log.length,
      shuffles: game.shuffles,
      p50_ms: +times[RUNS >> 1]!.toFixed(2),
      max_ms: +times[RUNS - 1]!.toFixed(2),
    }),
  );
}

time('searching every shuffle (before)', () => replay(d, log));
time('stored boards (now)', () => {
  const boards = parseBoards(stored, d.tiles.length);
  if (!boards.ok) throw new Error(boards.message);
  replay(d, log, boards.value);
});
console.log(JSON.stringify({ storedBoardsBytes: stored.length }));

// A long log without shuffles: what a cache miss costs at the per-game cap (5,000 logged moves).
let long = (newGame(d) as { ok: true; value: Game }).value;
const longLog: Move[] = [];
const [a0, b0] = availablePairs(long)[0]!;
while (longLog.length < 4998) longLog.push({ type: 'match', a: a0, b: b0 }, { type: 'undo' });
long = (replay(d, longLog) as { ok: true; value: Game }).value;
const longTimes: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const t0 = performance.now();
  replay(d, longLog);
  longTimes.push(performance.now() - t0);
}
longTimes.sort((x, y) => x - y);
console.log(
  JSON.stringify({
    replay: 'a 4,998-move log (match, undo, …)',
    moves: longLog.length,
    left: long.left,
    p50_ms: +longTimes[RUNS >> 1]!.toFixed(2),
    max_ms: +longTimes[RUNS - 1]!.toFixed(2),
  }),
);
