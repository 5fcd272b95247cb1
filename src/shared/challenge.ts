/** Challenge links (docs/server.md, "Challenges") and the ghost (docs/client.md, "The challenge's ghost"). */
import type { Move } from '../engine/index.ts';

/** A challenge's id: 16 random bytes in base64url. */
export const CHALLENGE_ID = /^[A-Za-z0-9_-]{22}$/;

export const challengeUrl = (id: string): string => `/challenge/${id}`;

/** For its sender: `beaten` (a friend won faster), `held` (friends finished, none faster) or `open`. */
export const CHALLENGE_OUTCOMES = ['held', 'beaten', 'open'] as const;
export type ChallengeOutcome = (typeof CHALLENGE_OUTCOMES)[number];

/** The tiles on the board after each step of a log: index k is after the first k moves. */
export function leftAlong(tiles: number, log: readonly Move[]): number[] {
  const left = [tiles];
  const past: boolean[] = []; // undo stack: true for a match
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

/** The sender's tiles left at `atMs`, walking `left` evenly over `timeMs`. */
export function ghostLeft(left: readonly number[], timeMs: number, atMs: number): number {
  if (left.length === 0) return 0;
  if (atMs >= timeMs || timeMs <= 0) return left[left.length - 1]!;
  const steps = left.length - 1;
  return left[Math.min(steps, Math.floor((Math.max(0, atMs) / timeMs) * steps))]!;
}
