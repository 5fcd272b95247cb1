/**
 * Challenge links as the server's challenge page and the play page's script both read them (docs/server.md,
 * "Challenges"): the link's address, and the sender's "ghost", the tiles they had left at a moment of their
 * clock. The server keeps no time per move, so the ghost walks the sender's own log (undos and shuffles as they
 * happened) at the even pace of their time: it says nothing a replay and the time to beat do not say already.
 */
import type { Move } from '../engine/index.ts';

/** A challenge's id: 16 random bytes in base64url. Anything else is no challenge. */
export const CHALLENGE_ID = /^[A-Za-z0-9_-]{22}$/;

export const challengeUrl = (id: string): string => `/challenge/${id}`;

/**
 * How a challenge went for its sender: `beaten` (a friend won faster), `held` (a friend finished, won slower or
 * stuck, and none was faster) or `open` (no friend finished yet). Times compare in whole seconds.
 */
export const CHALLENGE_OUTCOMES = ['held', 'beaten', 'open'] as const;
export type ChallengeOutcome = (typeof CHALLENGE_OUTCOMES)[number];

/**
 * The tiles on the board after each step of a log (`tiles` at the start): index k is after the first k moves.
 * Only matches take tiles off; an undo of a match puts two back, a redo takes them again; shuffles, hints and
 * checks change no count.
 */
export function leftAlong(tiles: number, log: readonly Move[]): number[] {
  const left = [tiles];
  const past: boolean[] = []; // the undo stack: true for a match, false for a shuffle
  const future: boolean[] = [];
  let n = tiles;
  for (const move of log) {
    if (move.type === 'match' || move.type === 'shuffle') {
      past.push(move.type === 'match');
      future.length = 0;
      if (move.type === 'match') n -= 2;
    } else if (move.type === 'undo' && past.length > 0) {
      const match = past.pop()!;
      future.push(match);
      if (match) n += 2;
    } else if (move.type === 'redo' && future.length > 0) {
      const match = future.pop()!;
      past.push(match);
      if (match) n -= 2;
    }
    left.push(n);
  }
  return left;
}

/** The sender's tiles left at `atMs` of their clock, walking `left` (leftAlong) evenly over `timeMs`. */
export function ghostLeft(left: readonly number[], timeMs: number, atMs: number): number {
  if (left.length === 0) return 0;
  if (atMs >= timeMs || timeMs <= 0) return left[left.length - 1]!;
  const steps = left.length - 1;
  return left[Math.min(steps, Math.floor((Math.max(0, atMs) / timeMs) * steps))]!;
}
