/** `study --coach`: is the coach's guarantee perceptible? How it plays and measures: docs/cli.md, "The coach study". */
import {
  botMove,
  deal,
  explainLoss,
  explainPosition,
  geometryOfDeal,
  hintFor,
  makeRng,
  matchingPairs,
  MODES,
  newGame,
  presenceOfFaces,
  REASONS,
  solve,
  SOLVE_BUDGET,
  applyMoves,
  type Face,
  type Geometry,
  type Layout,
  type Mode,
  type Pair,
  type Reason,
  type Rng,
} from '../engine/index.ts';
import { mean, percentile, round } from './measure.ts';

export const COACH_DEALS = 200; // deals per mode, by default
export const PLAYERS = ['random', 'bot'] as const;
export type Player = (typeof PLAYERS)[number];

/** One mode and player over the layout's deals. Shares in [0, 1]. */
export interface CoachRow {
  layout: string;
  mode: Mode;
  player: Player;
  games: number;
  won: number;
  lost: number; // games lost and settled (the losing move known)
  unresolved: number; // with a position the solver could not settle
  named: number | null; // reason other than 'none'
  named_positions: number | null; // of every lost position along them
  reasons: Record<Reason, number>; // lost games per reason of the losing move
  back_median: number | null; // to the stuck end, the losing move counted
  back_p90: number | null;
  back_mean: number | null;
  bot_wins: number | null; // won again from before the losing move
  hint_bot_wins: number | null; // the same with the solver's hint played first
  ms: number; // time spent on this row
}

/** A game played out: its boards (i after i matches) and whether it cleared. */
interface Played {
  readonly boards: (Face | null)[][];
  readonly pairs: Pair[];
  readonly won: boolean;
}

/** Plays from `faces` to the end by `choose` (null: no pair). */
function playOut(
  faces: readonly (Face | null)[],
  choose: (present: Uint8Array, faces: readonly (Face | null)[]) => Pair | null,
): Played {
  const boards = [faces.slice()];
  const pairs: Pair[] = [];
  let board = faces.slice();
  for (;;) {
    const pair = choose(presenceOfFaces(board), board);
    if (!pair) break;
    board = board.slice();
    board[pair[0]] = null;
    board[pair[1]] = null;
    boards.push(board);
    pairs.push(pair);
  }
  return { boards, pairs, won: board.every((f) => f === null) };
}

const randomChooser =
  (geom: Geometry, rng: Rng) =>
  (present: Uint8Array, faces: readonly (Face | null)[]): Pair | null => {
    const pairs = matchingPairs(geom, present, faces);
    return pairs.length === 0 ? null : (pairs[rng.int(pairs.length)] as Pair);
  };

const botChooser =
  (geom: Geometry, rng: Rng) =>
  (present: Uint8Array, faces: readonly (Face | null)[]): Pair | null =>
    botMove(geom, present, faces, rng);

/** Is the board lost? null when unsettled within the budget. */
function isLost(geom: Geometry, faces: readonly (Face | null)[]): boolean | null {
  const r = solve(geom, presenceOfFaces(faces), faces, { budget: SOLVE_BUDGET }).result;
  return r === 'unresolved' ? null : r === 'unsolvable';
}

/** The first lost board of a lost game, by bisection; null if unsettled. */
function firstLost(geom: Geometry, boards: readonly (readonly (Face | null)[])[]): number | null {
  let lo = 0; // known clearable
  let hi = boards.length - 1; // known lost: the stuck end
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    const lost = isLost(geom, boards[mid]!);
    if (lost === null) return null;
    if (lost) hi = mid;
    else lo = mid;
  }
  return hi;
}

/** The coach study on `layout`; `tell` reports progress. */
export function coachStudy(
  layout: Layout,
  deals: number,
  seed: string,
  tell: (text: string) => void = () => {},
): CoachRow[] {
  const rows: CoachRow[] = [];
  for (const mode of MODES)
    for (const player of PLAYERS) {
      const started = performance.now();
      const reasons = Object.fromEntries(REASONS.map((r) => [r, 0])) as Record<Reason, number>;
      const back: number[] = [];
      let won = 0;
      let unresolved = 0;
      let positions = 0;
      let namedPositions = 0;
      let botWins = 0;
      let hintBotWins = 0;
      for (let k = 1; k <= deals; k++) {
        const made = deal(layout, `${seed}-${k}`, mode);
        if (!made.ok) throw new Error(`cannot deal ${layout.id} ${seed}-${k} (${mode}): ${made.message}`);
        const d = made.value.deal;
        const geom = geometryOfDeal(d);
        const start = d.tiles.map((t) => t.face);
        const choose = (player === 'random' ? randomChooser : botChooser)(
          geom,
          makeRng(`${seed}-${k}`, `coach-${player}`),
        );
        const game = playOut(start, choose);
        if (game.won) {
          won++;
          continue;
        }
        const lostAt = firstLost(geom, game.boards);
        if (lostAt === null) {
          unresolved++;
          continue;
        }
        const before = game.boards[lostAt - 1]!;
        const e = explainLoss(geom, before, game.pairs[lostAt - 1]!);
        reasons[e.reason]++;
        back.push(game.pairs.length - (lostAt - 1));
        for (let i = lostAt; i < game.boards.length; i++) {
          positions++;
          if (explainPosition(geom, game.boards[i]!).reason !== 'none') namedPositions++;
        }
        const onRng = makeRng(`${seed}-${k}`, 'coach-play-on');
        if (playOut(before, botChooser(geom, onRng)).won) botWins++;
        const replayed = newGame(d);
        if (!replayed.ok) throw new Error(replayed.message);
        const there = applyMoves(
          replayed.value,
          game.pairs.slice(0, lostAt - 1).map(([a, b]) => ({ type: 'match' as const, a, b })),
        );
        if (!there.ok) throw new Error(there.message);
        const hint = hintFor(there.value, SOLVE_BUDGET);
        if (hint.pair && hint.winning) {
          const next = before.slice();
          next[hint.pair[0]] = null;
          next[hint.pair[1]] = null;
          if (playOut(next, botChooser(geom, makeRng(`${seed}-${k}`, 'coach-play-on'))).won) hintBotWins++;
        }
        if (k % 20 === 0) tell(`${layout.id} ${mode} ${player} ${k}/${deals}`);
      }
      const lost = back.length;
      const share = (n: number, of: number): number | null => (of === 0 ? null : round(n / of));
      const sorted = back.slice().sort((a, b) => a - b);
      rows.push({
        layout: layout.id,
        mode,
        player,
        games: deals,
        won,
        lost,
        unresolved,
        named: share(lost - reasons.none, lost),
        named_positions: share(namedPositions, positions),
        reasons,
        back_median: lost === 0 ? null : percentile(sorted, 0.5),
        back_p90: lost === 0 ? null : percentile(sorted, 0.9),
        back_mean: round(mean(back), 1),
        bot_wins: share(botWins, lost),
        hint_bot_wins: share(hintBotWins, lost),
        ms: Math.round(performance.now() - started),
      });
    }
  return rows;
}

export function coachTable(rows: readonly CoachRow[]): string {
  const cols = [
    'layout',
    'mode',
    'player',
    'games',
    'won',
    'lost',
    'unresolved',
    'named',
    'named_positions',
    ...REASONS,
    'back_median',
    'back_p90',
    'back_mean',
    'bot_wins',
    'hint_bot_wins',
    'ms',
  ];
  const cell = (r: CoachRow, c: string): string => {
    const v = (REASONS as readonly string[]).includes(c)
      ? r.reasons[c as Reason]
      : (r as unknown as Record<string, unknown>)[c];
    return v === null || v === undefined ? '' : String(v);
  };
  return [cols.join(','), ...rows.map((r) => cols.map((c) => cell(r, c)).join(','))].join('\n');
}
