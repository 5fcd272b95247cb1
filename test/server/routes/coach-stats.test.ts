/**
 * The coach on the stats page (docs/coach.md, "Where it shows"): a lost game of the history (stuck, or left
 * unfinished after hearing "no") shows its losing move and reason in short, with its replay at that move and
 * play on from the move before; a won game, and an unfinished one whose player heard nothing, show none.
 */
import { describe, expect, test } from 'vitest';
import type { Deal, Move } from '../../../src/engine/index.ts';
import { losingLine, toStuck } from '../../support/losing-lines.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves } from '../helper.ts';

/** The deal's first free pair that loses the win for a named reason, then first pairs until none is left. */
function stuckLine(deal: Deal): { moves: Move[]; reason: string } {
  const { losing, reason } = losingLine(deal, 1);
  return { moves: toStuck(deal, [losing]).map(([a, b]) => ({ type: 'match', a, b })), reason };
}

/** The history row of game `id` on a stats page. */
const rowOf = (html: string, id: string): string => {
  const at = html.indexOf(`id="started-${id}"`);
  expect(at, `game ${id} in the history`).toBeGreaterThan(0);
  return html.slice(at, html.indexOf('</tr>', at));
};

describe('the stats history names why a lost game was lost', () => {
  test('stuck, given up after "no", unfinished and won games', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const stuck = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' }); // a named losing first pair
    const { moves, reason } = stuckLine(stuck);
    expect((await postMoves(app, cookie, stuck.id, moves)).json()).toMatchObject({ status: 'stuck' });
    // Lost after its first move, left after hearing "no" (a counted check).
    const gaveUp = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' });
    await postMoves(app, cookie, gaveUp.id, [moves[0], { type: 'check', heard: 'no' }]);
    // Unfinished, never asked: no reason shown (its review is not even made).
    const unasked = await createGame(app, cookie, { layout: 'turtle', seed: 'test-seed-2' });
    await postMoves(app, cookie, unasked.id, solutionMoves(unasked).slice(0, 3));
    const won = await createGame(app, cookie, { layout: 'turtle', seed: 'test-seed-3' });
    await postMoves(app, cookie, won.id, solutionMoves(won));

    const page = await app.inject({ method: 'GET', url: '/stats', headers: { cookie } });
    expect(page.statusCode).toBe(200);
    for (const id of [stuck.id, gaveUp.id]) {
      const row = rowOf(page.body, id);
      expect(row).toContain(`class="lost-why" data-reason="${reason}"`);
      expect(row).toContain('Move 1 lost the win: ');
      expect(row).toMatch(/<input type="hidden" name="move" value="1">/); // the replay at the losing move
      expect(row).toContain('data-action="play-on" data-move="0"'); // play on from the board before it
      expect(row).toContain('Play on from move 0');
    }
    for (const id of [unasked.id, won.id]) expect(rowOf(page.body, id)).not.toContain('lost-why');

    // The replay opens at the losing move; play on opens a new game of the deal from the board before it.
    const replay = await app.inject({
      method: 'POST',
      url: '/replay',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `game=${stuck.id}&move=1`,
    });
    expect(replay.statusCode).toBe(303);
    expect(replay.headers.location).toMatch(/^\/replay\/[A-Za-z0-9_-]{22}\?move=1$/);
    const shown = await app.inject({ method: 'GET', url: replay.headers.location as string });
    expect(shown.body).toContain(`data-reason="${reason}"`);
    const bad = await app.inject({
      method: 'POST',
      url: '/replay',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `game=${stuck.id}&move=-3`,
    });
    expect(bad.statusCode).toBe(400);
    const on = await app.inject({
      method: 'POST',
      url: '/play-on',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `game=${stuck.id}&move=0`,
    });
    expect(on.statusCode).toBe(303);

    // A second view finds the reasons kept: the same rows, no new review.
    const again = await app.inject({ method: 'GET', url: '/stats', headers: { cookie } });
    expect(rowOf(again.body, stuck.id)).toBe(rowOf(page.body, stuck.id));
    await app.close();
  }, 60_000);
});
