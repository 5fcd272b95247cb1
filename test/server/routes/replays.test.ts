/**
 * Shared replays (docs/server.md, "Replays"): the link (its player only, an unguessable token, the
 * same one asked twice), the page (the board after K moves, shuffles and undos as they happened, K clamped by
 * a redirect, games in progress up to the server's last move, nothing about the player), where the win was lost.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  applyMoves,
  availablePairs,
  deal,
  newGame,
  presenceOf,
  reviewLog,
  solve,
  type Deal,
  type Game,
  type Move,
} from '../../../src/engine/index.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import { GROWTH_PER_CLIENT, reviewGrowth, ROW_BYTES } from '../../../src/server/services/growth.ts';
import { build, createGame, newPlayer, postMoves, query, solutionMoves } from '../helper.ts';

const shareReplay = (app: FastifyInstance, cookie: string, id: string) =>
  app.inject({ method: 'POST', url: `/api/games/${id}/replay`, headers: { cookie } });

/** The board's tiles on a replay page: slot → face, for the tiles not hidden. */
function boardOf(html: string): Map<number, string> {
  const tiles = new Map<number, string>();
  for (const m of html.matchAll(/<button class="tile"[^>]*>/g)) {
    const tag = m[0];
    if (/\shidden[\s>]/.test(tag)) continue;
    tiles.set(Number(/data-slot="(\d+)"/.exec(tag)![1]), /data-face="([^"]+)"/.exec(tag)![1]!);
  }
  return tiles;
}

const dealt = (seed: string): Deal => {
  const made = deal(layoutById('turtle')!, seed);
  if (!made.ok) throw new Error(made.message);
  return made.value.deal;
};

const position = (deal: Deal, log: readonly Move[]): Game => {
  const start = newGame(deal);
  if (!start.ok) throw new Error(start.message);
  const game = applyMoves(start.value, log);
  if (!game.ok) throw new Error(game.message);
  return game.value;
};

describe('replay links', () => {
  test('the game’s own player gets a link with a random token, the same one when asked again', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const first = await shareReplay(app, cookie, game.id);
    expect(first.statusCode).toBe(200);
    const { url } = first.json() as { url: string };
    expect(url).toMatch(/^\/replay\/[A-Za-z0-9_-]{22}$/);
    expect(url).not.toContain(game.id);
    expect((await shareReplay(app, cookie, game.id)).json()).toEqual({ url });
    // Another game of the same deal and player: another token, not derived from the deal or the player.
    await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 1));
    const second = await createGame(app, cookie);
    const other = (await shareReplay(app, cookie, second.id)).json() as { url: string };
    expect(other.url).not.toBe(url);
  });

  test('another player’s game is 403, an unknown game 404, with the API’s error body', async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const stranger = await newPlayer(app);
    const game = await createGame(app, owner);
    const theirs = await shareReplay(app, stranger, game.id);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({ error: expect.any(String), code: 'ERR_NOT_YOUR_GAME' });
    const unknown = await shareReplay(app, owner, 'AAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ERR_GAME_NOT_FOUND' });
    const malformed = await shareReplay(app, owner, 'not-a-game');
    expect(malformed.statusCode).toBe(400);
    const noCookie = await app.inject({ method: 'POST', url: `/api/games/${game.id}/replay` });
    expect(noCookie.statusCode).toBe(403);
  });

  test('the stats page’s form: 303 to the replay, the same checks', async () => {
    const app = await build();
    const owner = await newPlayer(app);
    const stranger = await newPlayer(app);
    const game = await createGame(app, owner);
    const form = (cookie: string, id: string) =>
      app.inject({
        method: 'POST',
        url: '/replay',
        headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: `game=${id}`,
      });
    const ok = await form(owner, game.id);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toEqual((await shareReplay(app, owner, game.id)).json().url);
    const theirs = await form(stranger, game.id);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.headers['content-type']).toMatch(/text\/html/);
  });
});

describe('the replay page', () => {
  /** A game of the default deal with `pick(deal)` played, and its replay link. */
  async function shared(pick: (deal: Deal) => Move[]) {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const moves = pick(game);
    if (moves.length > 0) expect((await postMoves(app, cookie, game.id, moves)).statusCode).toBe(200);
    const { url } = (await shareReplay(app, cookie, game.id)).json() as { url: string };
    return { app, cookie, game, url };
  }

  test('an unknown or malformed token is 404', async () => {
    const app = await build();
    for (const token of ['AAAAAAAAAAAAAAAAAAAAAA', 'short', 'x'.repeat(64)]) {
      const res = await app.inject({ method: 'GET', url: `/replay/${token}` });
      expect(res.statusCode, token).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
    }
  });

  test('the board after K moves, with #board as on a play page, its tiles not playable', async () => {
    const { app, game, url } = await shared((d) => solutionMoves(d).slice(0, 5));
    const res = await app.inject({ method: 'GET', url: `${url}?move=3` });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('id="board"');
    expect(html).toMatch(/data-status="playing"/);
    // Rendered once #replay-data, the markup's last element, is parsed (views/layout.eta).
    expect(html.slice(0, html.indexOf('</head>'))).toContain(
      '<link rel="expect" href="#replay-data" blocking="render">',
    );
    expect(html).toMatch(/id="replay-data">[^<]*<\/script>\s*<\/main>\s*<\/body>/);
    const expected = position(game, solutionMoves(game).slice(0, 3));
    const board = boardOf(html);
    expect(board.size).toBe(expected.left);
    for (const [slot, face] of board) expect(face).toBe(expected.faces[slot]);
    expect(html).not.toMatch(/<button class="tile"(?![^>]*disabled)[^>]*>/); // every tile disabled
    // The layout is named in the watcher's language, as on every page.
    const de = await app.inject({ method: 'GET', url: `${url}?move=3`, headers: { cookie: 'lang=de' } });
    expect(de.body).toMatch(/<title>[^<]*Schildkröte/);
    // The third move's pair is outlined, the fourth's ringed.
    const [a, b] = game.solution[3]!;
    expect(html).toMatch(new RegExp(`data-slot="${a}"[^>]*data-next`));
    expect(html).toMatch(new RegExp(`data-slot="${b}"[^>]*data-next`));
    expect(html.match(/class="tile-ghost"/g)).toHaveLength(2);
    expect(html).toMatch(/Move 3: .* matched\./);
    // Steps without script.
    expect(html).toContain(`href="${url}?move=2"`);
    expect(html).toContain(`href="${url}?move=4"`);
    expect(html).toContain(`href="${url}?move=0"`);
    expect(html).toContain(`href="${url}?move=5"`);
  });

  test('a move that is out of range or not a number goes to the nearest move', async () => {
    const { app, url } = await shared((d) => solutionMoves(d).slice(0, 4));
    const cases: [string, number][] = [
      ['99', 4],
      ['-2', 0],
      ['abc', 0],
      ['', 0],
      ['2.7', 2],
      ['1e9', 4],
      ['3&move=1', 3],
    ];
    for (const [asked, k] of cases) {
      const res = await app.inject({ method: 'GET', url: `${url}?move=${asked}` });
      expect(res.statusCode, asked).toBe(302);
      expect(res.headers.location, asked).toBe(`${url}?move=${k}`);
    }
    expect((await app.inject({ method: 'GET', url })).statusCode).toBe(200); // no move: the start
    expect((await app.inject({ method: 'GET', url: `${url}?move=4` })).statusCode).toBe(200);
  });

  test('shuffles and undos are replayed as they happened; a game in progress up to the server’s last move', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const [m1] = solutionMoves(game);
    const log: Move[] = [
      m1!,
      { type: 'shuffle' },
      { type: 'undo' },
      { type: 'undo' },
      { type: 'redo' },
      { type: 'shuffle' },
    ];
    expect((await postMoves(app, cookie, game.id, log)).statusCode).toBe(200);
    const { url } = (await shareReplay(app, cookie, game.id)).json() as { url: string };
    for (let k = 0; k <= log.length; k++) {
      const res = await app.inject({ method: 'GET', url: `${url}?move=${k}` });
      expect(res.statusCode).toBe(200);
      const expected = position(game, log.slice(0, k));
      const board = boardOf(res.body);
      expect(board.size, `move ${k}`).toBe(expected.left);
      for (const [slot, face] of board) expect(face, `move ${k}, slot ${slot}`).toBe(expected.faces[slot]);
    }
    // The server's faces after the last move are the replay's last board.
    const stored = await query<{ boards: string }>(app, 'SELECT boards FROM games WHERE id = ?', game.id);
    expect(stored[0]!.boards.length).toBe(2 * 2 * 144);
    // Still in progress: the page shows it, the end is the server's last move, and more moves show up.
    const last = await app.inject({ method: 'GET', url: `${url}?move=99` });
    expect(last.headers.location).toBe(`${url}?move=${log.length}`);
    const page = await app.inject({ method: 'GET', url: `${url}?move=${log.length}` });
    expect(page.body).toContain('In progress');
    const more = availablePairs(position(game, log))[0]!;
    expect((await postMoves(app, cookie, game.id, [{ type: 'match', a: more[0], b: more[1] }])).statusCode).toBe(200);
    const after = await app.inject({ method: 'GET', url: `${url}?move=${log.length + 1}` });
    expect(after.statusCode).toBe(200);
  });

  test('nothing about the player: no player id, game id, cookie or other game', async () => {
    const { app, cookie, game, url } = await shared((d) => solutionMoves(d).slice(0, 2));
    await query(app, "UPDATE players SET nickname = 'Secret Name'");
    const other = await createGame(app, cookie, { layout: 'turtle', seed: 'another-seed' });
    const playerId = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
    const res = await app.inject({ method: 'GET', url, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['set-cookie']).toBeUndefined();
    for (const secret of [playerId, game.id, other.id, 'another-seed', 'Secret Name'])
      expect(res.body).not.toContain(secret);
    const anonymous = await app.inject({ method: 'GET', url });
    expect(anonymous.statusCode).toBe(200);
    expect(anonymous.headers['set-cookie']).toBeUndefined();
  });

  test('where the win was lost: the first move after which the board could not be cleared', async () => {
    // A deal and a way to lose it: its solution's pairs until some free pair loses the win, then that pair.
    let seed = '';
    let log: Move[] = [];
    for (let n = 1; n < 40 && seed === ''; n++) {
      const d = dealt(`lose-${n}`);
      log = [];
      let state = position(d, log);
      for (const [a, b] of d.solution.slice(0, 40)) {
        const losing = availablePairs(state).find(([p, q]) => {
          const next = applyMoves(state, [{ type: 'match', a: p, b: q }]);
          return next.ok && solve(next.value.geom, presenceOf(next.value), next.value.faces).result === 'unsolvable';
        });
        if (losing) {
          log.push({ type: 'match', a: losing[0], b: losing[1] });
          seed = d.seed;
          break;
        }
        log.push({ type: 'match', a, b });
        state = position(d, log);
      }
    }
    expect(seed).not.toBe('');
    const app = await build();
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'turtle', seed });
    const state = position(game, log);
    const lostAt = log.length;
    for (const [a, b] of availablePairs(state).slice(0, 1)) log.push({ type: 'match', a, b });
    log.push({ type: 'undo' }, { type: 'undo' });
    expect((await postMoves(app, cookie, game.id, log)).statusCode).toBe(200);
    const { url } = (await shareReplay(app, cookie, game.id)).json() as { url: string };
    const page = await app.inject({ method: 'GET', url });
    expect(page.body).toMatch(new RegExp(`data-first-lost="${lostAt}"`));
    expect(page.body).toContain(`data-step="lost" href="${url}?move=${lostAt}"`);
    const there = await app.inject({ method: 'GET', url: `${url}?move=${lostAt}` });
    expect(there.body).toMatch(/data-replay="lost">/); // shown, not hidden, at a lost position
    const before = await app.inject({ method: 'GET', url: `${url}?move=${lostAt - 1}` });
    expect(before.body).toMatch(/data-replay="lost" hidden>/);
    const undone = await app.inject({ method: 'GET', url: `${url}?move=${log.length}` });
    expect(undone.body).toMatch(/data-replay="lost" hidden>/); // two undos: clearable again
  });
});

describe('reviews, once per game state, on the client’s budgets', () => {
  /** Counts the reviews the app asks the deal workers for. */
  function countReviews(app: FastifyInstance): { readonly made: number } {
    const counter = { made: 0 };
    const review = app.dealer.review.bind(app.dealer);
    app.dealer.review = (task, client) => {
      counter.made++;
      return review(task, client);
    };
    return counter;
  }

  test('a game state is reviewed once: more views, other viewers and hints reuse it; a move makes a new one', async () => {
    const app = await build();
    const reviews = countReviews(app);
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie);
    const [m1, m2] = solutionMoves(game);
    expect((await postMoves(app, cookie, game.id, [m1!])).statusCode).toBe(200);
    const { url } = (await shareReplay(app, cookie, game.id)).json() as { url: string };
    expect(reviews.made).toBe(0); // unfinished: reviewed when viewed
    const views = ['198.51.100.1', '198.51.100.1', '203.0.113.4'].map((remoteAddress, i) =>
      app.inject({ url: `${url}?move=${i % 2}`, remoteAddress }),
    );
    for (const res of await Promise.all(views)) expect(res.statusCode).toBe(200);
    expect(reviews.made).toBe(1);
    expect((await postMoves(app, cookie, game.id, [{ type: 'hint' }])).statusCode).toBe(200); // counted, not logged
    expect((await app.inject({ url })).statusCode).toBe(200);
    expect(reviews.made).toBe(1);
    expect((await postMoves(app, cookie, game.id, [m2!])).statusCode).toBe(200);
    expect((await app.inject({ url: `${url}?move=2` })).statusCode).toBe(200);
    expect((await app.inject({ url })).statusCode).toBe(200);
    expect(reviews.made).toBe(2);
  });

  test('the page and a review it makes are charged to the viewer’s CPU budget first: past it, 429', async () => {
    // services/costs.ts on a turtle: the page at move 0 is 6 ms; a review of no moves 2 ms, of 30 moves 5 ms.
    const app = await build({ cpu: { clientBurstMs: 10, clientPerMinuteMs: 10 } });
    const reviews = countReviews(app);
    const cookie = await newPlayer(app);
    const long = await createGame(app, cookie);
    expect((await postMoves(app, cookie, long.id, solutionMoves(long).slice(0, 30))).statusCode).toBe(200);
    const short = await createGame(app, cookie, { layout: 'turtle', seed: 'short-one' });
    const longUrl = ((await shareReplay(app, cookie, long.id)).json() as { url: string }).url;
    const shortUrl = ((await shareReplay(app, cookie, short.id)).json() as { url: string }).url;
    // 6 + 5 > 10: the page is charged, the review is refused before it is made.
    const refused = await app.inject({ url: longUrl, remoteAddress: '198.51.100.1' });
    expect(refused.statusCode).toBe(429);
    expect(refused.body).toMatch(/more work than one network may \(review\)/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(reviews.made).toBe(0);
    // 6 + 2 fit; the same page again is 6 more, past 10; another network is charged only its page.
    expect((await app.inject({ url: shortUrl, remoteAddress: '203.0.113.1' })).statusCode).toBe(200);
    const again = await app.inject({ url: shortUrl, remoteAddress: '203.0.113.2' }); // the same /24
    expect(again.statusCode).toBe(429);
    expect(again.body).toMatch(/more work than one network may \(replay\)/);
    expect((await app.inject({ url: shortUrl, remoteAddress: '192.0.2.3' })).statusCode).toBe(200);
    expect(reviews.made).toBe(1);
  });

  test('a finished game’s review is paid from the sharer’s day of growth before it is stored', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const sizes: number[] = [];
    const games: string[] = [];
    for (const seed of ['grow-a', 'grow-b']) {
      const game = await createGame(app, cookie, { layout: 'turtle', seed });
      const moves = solutionMoves(game);
      expect((await postMoves(app, cookie, game.id, moves)).json().status).toBe('won');
      const review = reviewLog(game, moves);
      if (!review.ok) throw new Error(review.message);
      sizes.push(JSON.stringify(review.value).length);
      games.push(game.id);
    }
    const share = (id: string, remoteAddress: string) =>
      app.inject({ method: 'POST', url: `/api/games/${id}/replay`, headers: { cookie }, remoteAddress });
    // Two networks with all but a little of their day spent: one byte short of the link and its review, and just enough.
    await app.growth.take('198.51.100.1', GROWTH_PER_CLIENT - (ROW_BYTES.replay + reviewGrowth(sizes[0]!) - 1));
    await app.growth.take('203.0.113.1', GROWTH_PER_CLIENT - (ROW_BYTES.replay + reviewGrowth(sizes[1]!)));
    const short = await share(games[0]!, '198.51.100.1');
    expect(short.statusCode).toBe(200); // the link is made; its review is not stored
    const enough = await share(games[1]!, '203.0.113.1');
    expect(enough.statusCode).toBe(200);
    const kept = await query<{ game_id: string; review: string | null }>(app, 'SELECT game_id, review FROM replays');
    const reviewOf = (id: string) => kept.find((r) => r.game_id === id)?.review;
    expect(reviewOf(games[0]!)).toBeNull();
    expect(reviewOf(games[1]!)?.length).toBe(sizes[1]);
    expect(await app.growth.take('203.0.113.1', 1)).toMatchObject({ code: 'ERR_GROWTH' }); // all of it spent
    // The unstored review is still shown (made once, kept in memory).
    const page = await app.inject({ url: (short.json() as { url: string }).url });
    expect(page.body).toContain('the win was never lost');
  });
});
