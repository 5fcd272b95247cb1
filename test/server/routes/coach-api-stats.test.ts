/**
 * The coach in `GET /api/stats` (docs/coach.md, "Where it shows"): a lost game of the history (stuck, or left
 * unfinished after hearing "no") carries why it was lost, the same reason the stats page shows (its code, the
 * losing move, the reason's tiles); a won game and an unfinished one whose player heard nothing carry none.
 */
import { describe, expect, test } from 'vitest';
import type { Move } from '../../../src/engine/index.ts';
import { losingLine, toStuck } from '../../support/losing-lines.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves } from '../helper.ts';

interface Row {
  id: string;
  playedOnFrom: number | null;
  loss: { reason: string; move: number; tiles: number[] } | null;
}

describe('the stats API names why a lost game was lost', () => {
  test('stuck, given up after "no", unfinished and won games; the page says the same', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const stuck = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' }); // a named losing first pair
    const { losing, reason, tiles } = losingLine(stuck, 1);
    const moves: Move[] = toStuck(stuck, [losing]).map(([a, b]) => ({ type: 'match', a, b }));
    expect((await postMoves(app, cookie, stuck.id, moves)).json()).toMatchObject({ status: 'stuck' });
    const gaveUp = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' });
    await postMoves(app, cookie, gaveUp.id, [moves[0], { type: 'check', heard: 'no' }]);
    const unasked = await createGame(app, cookie, { layout: 'turtle', seed: 'test-seed-2' });
    await postMoves(app, cookie, unasked.id, solutionMoves(unasked).slice(0, 3));
    const won = await createGame(app, cookie, { layout: 'turtle', seed: 'test-seed-3' });
    await postMoves(app, cookie, won.id, solutionMoves(won));

    const res = await app.inject({ method: 'GET', url: '/api/stats', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const history = res.json<{ history: Row[] }>().history;
    const of = (id: string) => history.find((h) => h.id === id)!;
    for (const id of [stuck.id, gaveUp.id]) {
      expect(of(id).loss).toEqual({ reason, move: 1, tiles: [...tiles] }); // the engine's own explanation
      expect(tiles.length).toBeGreaterThan(0);
    }
    for (const id of [unasked.id, won.id]) expect(of(id).loss).toBeNull();

    // The page shows the same reason at the same move.
    const page = await app.inject({ method: 'GET', url: '/stats', headers: { cookie } });
    const at = page.body.indexOf(`id="started-${stuck.id}"`);
    const row = page.body.slice(at, page.body.indexOf('</tr>', at));
    expect(row).toContain(`class="lost-why" data-reason="${reason}"`);
    expect(row).toContain('Move 1 lost the win: ');

    // A new player has no history; a second ask answers the same from the kept reviews.
    const fresh = await app.inject({ method: 'GET', url: '/api/stats' });
    expect(fresh.json<{ history: Row[] }>().history).toEqual([]);
    const again = await app.inject({ method: 'GET', url: '/api/stats', headers: { cookie } });
    expect(again.json<{ history: Row[] }>().history).toEqual(history);
    await app.close();
  }, 60_000);

  test('a game played on says from which move, unranked for that reason', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'test-seed-3' });
    const moves = solutionMoves(game);
    await postMoves(app, cookie, game.id, moves.slice(0, 6));
    const res = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/play-on`,
      headers: { cookie },
      payload: { move: 5 },
    });
    expect(res.statusCode).toBe(201);
    const { id } = res.json<{ id: string }>();
    const won = await postMoves(app, cookie, id, moves.slice(5), { at: 5 });
    expect(won.json()).toMatchObject({ status: 'won', ranked: false, unranked: 'play-on' });
    const history = (await app.inject({ method: 'GET', url: '/api/stats', headers: { cookie } })).json<{
      history: (Row & { ranked: boolean })[];
    }>().history;
    expect(history.find((h) => h.id === id)).toMatchObject({ playedOnFrom: 5, ranked: false, loss: null });
    expect(history.find((h) => h.id === game.id)).toMatchObject({ playedOnFrom: null });

    const page = await app.inject({ method: 'GET', url: '/stats', headers: { cookie } });
    const row = (which: string) => {
      const at = page.body.indexOf(`id="started-${which}"`);
      return page.body.slice(at, page.body.indexOf('</tr>', at));
    };
    expect(row(id)).toContain('data-played-on="5"');
    expect(row(id)).toContain('played on from move 5');
    expect(row(id)).not.toContain('>unranked<'); // the reason is said instead of the pace rule's pill
    expect(row(game.id)).not.toContain('data-played-on');
    const french = await app.inject({
      method: 'GET',
      url: '/stats',
      headers: { cookie, 'accept-language': 'fr' },
    });
    expect(french.body).toContain('rejouée à partir du coup 5');
    await app.close();
  }, 60_000);
});
