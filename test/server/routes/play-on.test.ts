/**
 * Play on from the mistake (docs/coach.md): POST /api/games/:id/play-on {"move":K} makes a new unranked game of
 * the same deal from the position after the game's first K moves (replayed and checked by the server), for the
 * game's own player; the forms POST /play-on and POST /replay/:token/play-on do the same without script, the
 * latter for anyone with the replay's link.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { Deal, Move, Pair } from '../../../src/engine/index.ts';
import { losingLine } from '../../support/losing-lines.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves } from '../helper.ts';

/** The first free pair of a deal's start that loses the win for a named reason (the deal is chosen to have one). */
function losingPair(deal: Deal): { pair: Pair; reason: string; tiles: readonly number[] } {
  const { losing, reason, tiles } = losingLine(deal, 1);
  return { pair: losing, reason, tiles };
}

const playOn = (app: FastifyInstance, cookie: string, id: string, payload: unknown) =>
  app.inject({ method: 'POST', url: `/api/games/${id}/play-on`, headers: { cookie }, payload: payload as object });

const form = (app: FastifyInstance, cookie: string, url: string, payload: string) =>
  app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload,
  });

describe('play on from move K', () => {
  test('a new game of the same deal from the position after K moves, unranked, its own clock', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = solutionMoves(game);
    // Five pairs, a hint (counted, not logged), an undo: the stored log has six moves.
    await postMoves(app, cookie, game.id, [...moves.slice(0, 5), { type: 'hint' }, { type: 'undo' }], { playMs: 9000 });
    const res = await playOn(app, cookie, game.id, { move: 3 });
    expect(res.statusCode).toBe(201);
    const { id, url } = res.json() as { id: string; url: string };
    expect(id).not.toBe(game.id);
    expect(url).toBe('/play/turtle/test-seed');
    const row = (await app.gamesStore.findById(id))!;
    expect(row).toMatchObject({
      deal_id: (await app.gamesStore.findById(game.id))!.deal_id,
      unranked: 'play-on',
      play_on_from: 3,
    });
    expect(JSON.parse(row.moves_json)).toEqual(moves.slice(0, 3));
    expect(row).toMatchObject({ move_count: 3, tiles_left: 144 - 6, hints: 0, play_ms: 0, result: null });
    // The new game plays on from there, and wins unranked.
    const won = await postMoves(app, cookie, id, moves.slice(3), { at: 3 });
    expect(won.statusCode).toBe(200);
    expect(won.json()).toMatchObject({ status: 'won', ranked: false });
    // The old game is as it was.
    expect((await app.gamesStore.findById(game.id))!.move_count).toBe(7);
  });

  test('the deal page opens the new game', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 4));
    const { id, url } = (await playOn(app, cookie, game.id, { move: 2 })).json() as { id: string; url: string };
    const page = await app.inject({ method: 'GET', url, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(id);
  });

  test('bad input is a clear 4xx, and changes nothing', async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const stranger = await newPlayer(app);
    const game = await createGame(app, owner);
    await postMoves(app, owner, game.id, solutionMoves(game).slice(0, 2));
    const past = await playOn(app, owner, game.id, { move: 3 });
    expect(past.statusCode).toBe(409);
    expect(past.json()).toMatchObject({ code: 'ERR_MOVE_GAP' });
    for (const body of [{ move: -1 }, { move: 1.5 }, { move: 'x' }, {}, { move: 1, more: 1 }])
      expect((await playOn(app, owner, game.id, body)).statusCode).toBe(400);
    const theirs = await playOn(app, stranger, game.id, { move: 1 });
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toMatchObject({ code: 'ERR_NOT_YOUR_GAME' });
    expect((await playOn(app, owner, 'AAAAAAAAAAAAAAAA', { move: 0 })).json()).toMatchObject({
      code: 'ERR_GAME_NOT_FOUND',
    });
    const noCookie = await app.inject({ method: 'POST', url: `/api/games/${game.id}/play-on`, payload: { move: 0 } });
    expect(noCookie.statusCode).toBe(403);
    // A won game's last position is a clear board: nothing to play on.
    const won = await createGame(app, stranger, { layout: 'turtle', seed: 'won-seed' });
    await postMoves(app, stranger, won.id, solutionMoves(won));
    const clear = await playOn(app, stranger, won.id, { move: 72 });
    expect(clear.statusCode).toBe(409);
    expect(clear.json()).toMatchObject({ code: 'ERR_GAME_FINISHED' });
    expect((await playOn(app, stranger, won.id, { move: 71 })).statusCode).toBe(201);
  });

  test('the forms: one’s own game, and anyone from a public replay', async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const visitor = await newPlayer(app);
    const game = await createGame(app, owner);
    await postMoves(app, owner, game.id, solutionMoves(game).slice(0, 3));
    const own = await form(app, owner, '/play-on', `game=${game.id}&move=2`);
    expect(own.statusCode).toBe(303);
    expect(own.headers.location).toBe('/play/turtle/test-seed');
    expect((await form(app, visitor, '/play-on', `game=${game.id}&move=2`)).statusCode).toBe(403);
    const link = (
      await app.inject({ method: 'POST', url: `/api/games/${game.id}/replay`, headers: { cookie: owner } })
    ).json() as { url: string };
    const fromReplay = await form(app, visitor, `${link.url}/play-on`, 'move=1');
    expect(fromReplay.statusCode).toBe(303);
    expect(fromReplay.headers.location).toBe('/play/turtle/test-seed');
    const page = await app.inject({ method: 'GET', url: '/play/turtle/test-seed', headers: { cookie: visitor } });
    expect(page.body).toMatch(/"log":\[\{"type":"match"/); // the visitor's new game, after one move
    expect((await form(app, visitor, '/replay/AAAAAAAAAAAAAAAAAAAAAA/play-on', 'move=1')).statusCode).toBe(404);
    expect((await form(app, visitor, `${link.url}/play-on`, 'move=abc')).statusCode).toBe(400);
  });

  test('the replay says where and why the win was lost, outlines the tiles, and offers play on', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' });
    const { pair, reason, tiles } = losingPair(game);
    const log: Move[] = [{ type: 'match', a: pair[0], b: pair[1] }];
    expect((await postMoves(app, cookie, game.id, log)).statusCode).toBe(200);
    const { url } = (
      await app.inject({ method: 'POST', url: `/api/games/${game.id}/replay`, headers: { cookie } })
    ).json() as { url: string };
    const there = (await app.inject({ method: 'GET', url: `${url}?move=1` })).body;
    expect(there).toContain(`<p id="message" role="status" aria-live="polite" data-reason="${reason}">`);
    const outlined = [...there.matchAll(/<button class="tile"[^>]*data-reason-tile[^>]*>/g)].map((m) =>
      Number(/data-slot="(\d+)"/.exec(m[0])![1]),
    );
    expect(outlined).toEqual([...tiles]);
    expect(there).toMatch(/data-replay="reason">[^<]*\(move 1\) lost it/);
    expect(there).toContain(`action="${url}/play-on"><input type="hidden" name="move" value="0">`);
    expect(there).toContain('data-action="play-on" data-move="0"');
    const start = (await app.inject({ method: 'GET', url: `${url}?move=0` })).body;
    expect(start).not.toMatch(/id="message"[^>]*data-reason/);
    expect(start).not.toContain('data-reason-tile');
    expect(start).toMatch(/data-replay="reason" hidden>/);
  });
});
