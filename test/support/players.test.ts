/**
 * The check the fleet's restart tests and `npm run bench:fleet` rest on (test/support/players.ts): `lostMoves`
 * finds every acknowledged move the database does not have, every win answered and not stored, every game
 * acknowledged and missing; and nothing when all is there (hints and checks are counted, not logged).
 */
import { describe, expect, test } from 'vitest';
import type { Move } from '../../src/engine/index.ts';
import { lostMoves, percentile, type PlayedGame, type StoredGame } from './players.ts';

const m = (a: number, b: number): Move => ({ type: 'match', a, b });
const HINT: Move = { type: 'hint' };
const game = (over: Partial<PlayedGame>): PlayedGame => ({
  id: 'g1',
  seed: 's',
  log: [m(1, 2), HINT, m(3, 4), m(5, 6)],
  acked: 3,
  serverMoves: 3,
  won: false,
  conflicts: 0,
  ...over,
});
const stored = (rows: Record<string, StoredGame>) => new Map(Object.entries(rows));

describe('lostMoves', () => {
  test('nothing lost: the acknowledged board moves are the stored log (or its start), hints aside', () => {
    expect(lostMoves([game({})], stored({ g1: { moveCount: 3, log: [m(1, 2), m(3, 4)], result: null } }))).toEqual({
      moves: 0,
      wins: 0,
      games: 0,
      acknowledged: 2,
      details: [],
    });
    // The server has more than this player heard of (an answer lost): still nothing lost.
    const more = stored({ g1: { moveCount: 4, log: [m(1, 2), m(3, 4), m(5, 6)], result: null } });
    expect(lostMoves([game({})], more).moves).toBe(0);
    // Unacknowledged games and moves are not counted.
    expect(lostMoves([game({ id: null, acked: 0 }), game({ id: 'g2', acked: 0 })], stored({})).moves).toBe(0);
  });

  test('an acknowledged move missing, or another one stored in its place', () => {
    const short = lostMoves([game({})], stored({ g1: { moveCount: 2, log: [m(1, 2)], result: null } }));
    expect(short).toMatchObject({ moves: 1, acknowledged: 2 });
    expect(short.details[0]).toMatch(/1 of 2 acknowledged moves stored/);
    const other = lostMoves([game({})], stored({ g1: { moveCount: 3, log: [m(1, 2), m(7, 8)], result: null } }));
    expect(other.moves).toBe(1);
    // The count went back though the log looks the same: the server lost a hint it had answered for.
    expect(
      lostMoves([game({})], stored({ g1: { moveCount: 2, log: [m(1, 2), m(3, 4)], result: null } })).details,
    ).toHaveLength(1);
  });

  test('a game not stored, a win answered and not stored', () => {
    expect(lostMoves([game({})], stored({}))).toMatchObject({ moves: 2, games: 1 });
    const won = game({ log: [m(1, 2)], acked: 1, serverMoves: 1, won: true });
    expect(lostMoves([won], stored({ g1: { moveCount: 1, log: [m(1, 2)], result: null } }))).toMatchObject({
      moves: 0,
      wins: 1,
    });
    expect(lostMoves([won], stored({ g1: { moveCount: 1, log: [m(1, 2)], result: 'won' } })).wins).toBe(0);
  });

  test('percentile', () => {
    const sorted = Array.from({ length: 100 }, (_, i) => i + 1);
    expect([percentile(sorted, 50), percentile(sorted, 99), percentile(sorted, 100)]).toEqual([50, 99, 100]);
    expect(percentile([], 99)).toBeNaN();
  });
});
