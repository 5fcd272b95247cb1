/**
 * Challenge links (docs/server.md, "Challenges"): the link (the won game's own player only, an unguessable id,
 * the same one asked twice), the page (the deal, the time to beat in #challenge[data-ms], the sender's name or
 * "A friend", the ghost, a preview with the time), the friends' games recorded as its answers, and the sender's
 * list of how their challenges went.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { leftAlong, ghostLeft } from '../../../src/shared/challenge.ts';
import { build, createGame, newPlayer, postMoves, query, solutionMoves, testClock } from '../helper.ts';

const T0 = Date.UTC(2026, 5, 1, 12);
const TIME_TO_BEAT = 221_000; // 3:41

const challenge = (app: FastifyInstance, cookie: string, id: string) =>
  app.inject({ method: 'POST', url: `/api/games/${id}/challenge`, headers: { cookie } });

/** An app on a hand-moved clock, and a player who won a turtle deal in TIME_TO_BEAT by the server's clock. */
async function wonGame(seed = 'challenge-seed', timeMs = TIME_TO_BEAT) {
  const clock = testClock(T0);
  const app = await build({ now: clock.now });
  const sender = await newPlayer(app);
  const game = await createGame(app, sender, { layout: 'turtle', seed });
  clock.advance(timeMs);
  const won = await postMoves(app, sender, game.id, solutionMoves(game), { at: 0 });
  expect(won.json()).toMatchObject({ status: 'won', timeMs });
  return { app, clock, sender, game };
}

/** The challenge section of a page: its attributes and text. */
function section(html: string) {
  const tag = /<section id="challenge"[^>]*>/.exec(html)?.[0];
  if (!tag) return undefined;
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];
  return {
    ms: Number(attr('data-ms')),
    id: attr('data-challenge'),
    name: attr('data-name'),
    left: attr('data-left')!.split(' ').map(Number),
    beat: /<p class="challenge-beat">([^<]*)<\/p>/.exec(html)?.[1],
    ghost: /<p id="challenge-ghost" class="challenge-ghost">([^<]*)<\/p>/.exec(html)?.[1],
  };
}

describe('challenge links', () => {
  test('the won game’s player gets an unguessable link, the same one asked again', async () => {
    const { app, sender, game } = await wonGame();
    const first = await challenge(app, sender, game.id);
    expect(first.statusCode).toBe(200);
    const { url } = first.json() as { url: string };
    expect(url).toMatch(/^\/challenge\/[A-Za-z0-9_-]{22}$/);
    expect(url).not.toContain(game.id);
    expect((await challenge(app, sender, game.id)).json()).toEqual({ url });
    const stored = await query<{ time_ms: number; game_id: string }>(app, 'SELECT time_ms, game_id FROM challenges');
    expect(stored).toEqual([{ time_ms: TIME_TO_BEAT, game_id: game.id }]);
  });

  test('another player’s game is 403, an unknown game 404, a game not won 409', async () => {
    const { app, sender, game } = await wonGame();
    const stranger = await newPlayer(app);
    const theirs = await challenge(app, stranger, game.id);
    expect(theirs.statusCode).toBe(403);
    expect(theirs.json()).toEqual({ error: expect.any(String), code: 'ERR_NOT_YOUR_GAME' });
    const unknown = await challenge(app, sender, 'AAAAAAAAAAAAAAAA');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ERR_GAME_NOT_FOUND' });
    const open = await createGame(app, sender, { layout: 'turtle', seed: 'not-won-yet' });
    await postMoves(app, sender, open.id, solutionMoves(open).slice(0, 3), { at: 0 });
    const unfinished = await challenge(app, sender, open.id);
    expect(unfinished.statusCode).toBe(409);
    expect(unfinished.json()).toMatchObject({ code: 'ERR_NOT_WON', error: expect.stringMatching(/won game/) });
    expect(await query(app, 'SELECT id FROM challenges')).toEqual([]);
  });

  test('the page deals the same deal with the time to beat, “A friend” or the nickname, and the ghost', async () => {
    const { app, sender, game } = await wonGame();
    const { url } = (await challenge(app, sender, game.id)).json() as { url: string };
    const friend = await newPlayer(app);
    const page = await app.inject({ url, headers: { cookie: friend } });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    const c = section(page.body)!;
    expect(c.ms).toBe(TIME_TO_BEAT);
    expect(c.id).toBe(url.split('/')[2]);
    expect(c.name).toBe('A friend');
    expect(c.beat).toBe('A friend cleared this in 3:41 — can you beat it?');
    expect(c.ghost).toBe('A friend at 0:00: 144 tiles left');
    // The ghost is the sender's log: 144 tiles down to 0, a pair a move.
    expect(c.left).toEqual(leftAlong(144, solutionMoves(game)));
    expect(c.left[0]).toBe(144);
    expect(c.left.at(-1)).toBe(0);
    // The same deal as its play page, an ordinary game of it (no game yet: the board as dealt).
    const deal = JSON.parse(/<script type="application\/json" id="deal-data">([^<]*)<\/script>/.exec(page.body)![1]!);
    expect(deal.deal.tiles).toEqual(game.tiles);
    expect(deal.game).toBeNull();
    // Nothing more about the sender than a replay: no game id, no player id.
    const senderId = (await query<{ player_id: string }>(app, 'SELECT player_id FROM games WHERE id = ?', game.id))[0]!
      .player_id;
    expect(page.body).not.toContain(game.id);
    expect(page.body).not.toContain(senderId);
    // The preview: the board with the time to beat (in seconds) drawn on it; the image answers.
    const image = /<meta property="og:image" content="([^"]+)"/.exec(page.body)![1]!.replaceAll('&amp;', '&');
    expect(image).toMatch(/^\/og\/[0-9a-f]{16}\.png\?layout=turtle&faces=[a-zA-P-]{144}&time=221$/);
    expect(page.body).toMatch(/<meta property="og:description" content="A friend cleared [^"]* in 3:41\./);
    const png = await app.inject({ url: image });
    expect(png.statusCode).toBe(200);
    expect(png.headers['content-type']).toBe('image/png');
    // Its time is part of the address: the deal's own page shows the same board under another one.
    const dealPage = (await app.inject({ url: '/play/turtle/challenge-seed', headers: { cookie: friend } })).body;
    const plain = /<meta property="og:image" content="([^"]+)"/.exec(dealPage)![1]!.replaceAll('&amp;', '&');
    expect(plain.split('?')[0]).not.toBe(image.split('?')[0]);
    expect(plain.split('?')[1]).toBe(image.split('?')[1]!.replace('&time=221', ''));
    // A nickname, once set, names the sender.
    await query(app, 'UPDATE players SET nickname = ? WHERE id = ?', 'Ruby', senderId);
    expect(section((await app.inject({ url, headers: { cookie: friend } })).body)!.beat).toBe(
      'Ruby cleared this in 3:41 — can you beat it?',
    );
    // The sender sees their own challenge as such.
    expect(section((await app.inject({ url, headers: { cookie: sender } })).body)!.beat).toMatch(/^Your challenge/);
  });

  test('a bad id is a 404 page, never a 500', async () => {
    const app = await build();
    for (const id of ['nope', 'A'.repeat(22), 'A'.repeat(21) + '!', '%00', 'x'.repeat(90)]) {
      const res = await app.inject({ url: `/challenge/${id}`, headers: { accept: 'text/html' } });
      expect(res.statusCode, id).toBe(404);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('There is no challenge at this link');
    }
  });

  test('friends’ games answer the challenge; the sender’s stats list how it went', async () => {
    const { app, clock, sender, game } = await wonGame();
    const { url } = (await challenge(app, sender, game.id)).json() as { url: string };
    const id = url.split('/')[2]!;
    const key = { layout: 'turtle', seed: 'challenge-seed' };
    const listed = async () => {
      const html = (await app.inject({ url: '/stats', headers: { cookie: sender } })).body;
      return /<tr data-challenge="([^"]+)" data-outcome="([^"]+)">.*?<\/tr>/s.exec(html);
    };
    expect((await listed())![2]).toBe('open');
    // GET /api/stats lists the same challenges, with the same facts.
    const sentAt = T0 + TIME_TO_BEAT;
    const apiListed = async () => {
      const res = await app.inject({ url: '/api/stats', headers: { cookie: sender } });
      expect(res.statusCode).toBe(200);
      return res.json().challenges as Record<string, unknown>[];
    };
    expect(await apiListed()).toEqual([
      {
        id,
        url,
        layout: 'turtle',
        name: 'Turtle',
        seed: 'challenge-seed',
        mode: 'relaxed',
        sentAt,
        timeMs: TIME_TO_BEAT,
        players: 0,
        games: 0,
        ended: 0,
        bestMs: null,
        outcome: 'open',
      },
    ]);

    // A game of another deal, or an unknown challenge, is refused before any game is made.
    const friend = await newPlayer(app);
    const other = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie: friend },
      payload: { layout: 'turtle', seed: 'another-seed', challenge: id },
    });
    expect(other.statusCode).toBe(409);
    expect(other.json()).toMatchObject({ code: 'ERR_CHALLENGE_DEAL' });
    const unknown = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie: friend },
      payload: { ...key, challenge: 'B'.repeat(22) },
    });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'ERR_NO_CHALLENGE' });
    expect(
      await query(app, 'SELECT id FROM games WHERE player_id <> (SELECT player_id FROM games WHERE id = ?)', game.id),
    ).toEqual([]);

    // The friend opens the link, plays slower than the time to beat: the sender held it.
    await app.inject({ url, headers: { cookie: friend } }); // the friend's time starts at this view
    const slow = await createGame(app, friend, { ...key, challenge: id });
    clock.advance(TIME_TO_BEAT + 30_000);
    const slowWin = await postMoves(app, friend, slow.id, solutionMoves(slow), { at: 0 });
    expect(slowWin.json()).toMatchObject({ status: 'won', timeMs: TIME_TO_BEAT + 30_000 });
    expect(await query(app, 'SELECT challenge_id FROM challenge_games WHERE game_id = ?', slow.id)).toEqual([
      { challenge_id: id },
    ]);
    let row = (await listed())!;
    expect(row[1]).toBe(id);
    expect(row[2]).toBe('held');
    expect(row[0]).toContain('4:11'); // the best friend time
    expect(await apiListed()).toMatchObject([
      { id, players: 1, games: 1, ended: 1, bestMs: TIME_TO_BEAT + 30_000, outcome: 'held' },
    ]);

    // A second friend halfway through, then a third who wins faster: the challenge is beaten.
    const second = await newPlayer(app);
    await app.inject({ url, headers: { cookie: second } });
    const halfway = await createGame(app, second, { ...key, challenge: id });
    await postMoves(app, second, halfway.id, solutionMoves(halfway).slice(0, 10), { at: 0 });
    // Reopening the link resumes their game of it.
    const resumed = await app.inject({ url, headers: { cookie: second } });
    const data = JSON.parse(/id="deal-data">([^<]*)<\/script>/.exec(resumed.body)![1]!);
    expect(data.game.id).toBe(halfway.id);
    const third = await newPlayer(app);
    await app.inject({ url, headers: { cookie: third } });
    const fast = await createGame(app, third, { ...key, challenge: id });
    clock.advance(200_000);
    expect((await postMoves(app, third, fast.id, solutionMoves(fast), { at: 0 })).json()).toMatchObject({
      timeMs: 200_000,
    });
    row = (await listed())!;
    expect(row[2]).toBe('beaten');
    expect(row[0]).toContain('3:20');
    expect(row[0]).toMatch(/data-label="Friends">3</);
    expect(await apiListed()).toMatchObject([
      { id, url, players: 3, games: 3, ended: 2, bestMs: 200_000, timeMs: TIME_TO_BEAT, outcome: 'beaten' },
    ]);

    // The sender playing their own link again is not a friend's answer.
    const own = await createGame(app, sender, { ...key, challenge: id });
    expect(await query(app, 'SELECT game_id FROM challenge_games WHERE game_id = ?', own.id)).toEqual([]);
  });

  test('a friend faster by less than a second ties, as their win panel says: held on the page and in the API', async () => {
    const { app, clock, sender, game } = await wonGame('challenge-second', TIME_TO_BEAT + 700); // 3:41.7
    const { url } = (await challenge(app, sender, game.id)).json() as { url: string };
    const friend = await newPlayer(app);
    await app.inject({ url, headers: { cookie: friend } });
    const key = { layout: 'turtle', seed: 'challenge-second', challenge: url.split('/')[2]! };
    const answer = await createGame(app, friend, key);
    clock.advance(TIME_TO_BEAT + 200); // 3:41.2: faster by half a second, the same 3:41 shown
    expect((await postMoves(app, friend, answer.id, solutionMoves(answer), { at: 0 })).json()).toMatchObject({
      timeMs: TIME_TO_BEAT + 200,
    });
    const outcomes = async () => ({
      page: /<tr data-challenge="[^"]+" data-outcome="([^"]+)">/.exec(
        (await app.inject({ url: '/stats', headers: { cookie: sender } })).body,
      )![1],
      api: (await app.inject({ url: '/api/stats', headers: { cookie: sender } })).json().challenges[0].outcome,
    });
    expect(await outcomes()).toEqual({ page: 'held', api: 'held' });
    // A second friend a whole second faster beats it.
    const second = await newPlayer(app);
    await app.inject({ url, headers: { cookie: second } });
    const faster = await createGame(app, second, key);
    clock.advance(TIME_TO_BEAT - 1000);
    await postMoves(app, second, faster.id, solutionMoves(faster), { at: 0 });
    expect(await outcomes()).toEqual({ page: 'beaten', api: 'beaten' });
    // A new player has no challenges.
    const stranger = await newPlayer(app);
    expect((await app.inject({ url: '/api/stats', headers: { cookie: stranger } })).json().challenges).toEqual([]);
  });

  test('the stats history offers a challenge for won games; without script its form goes to the page', async () => {
    const { app, sender, game } = await wonGame();
    const stats = (await app.inject({ url: '/stats', headers: { cookie: sender } })).body;
    expect(stats).toContain(
      `<form method="post" action="/challenge" class="challenge-form"><input type="hidden" name="game" value="${game.id}">`,
    );
    const res = await app.inject({
      method: 'POST',
      url: '/challenge',
      headers: { cookie: sender, 'content-type': 'application/x-www-form-urlencoded' },
      payload: `game=${game.id}`,
    });
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toMatch(/^\/challenge\/[A-Za-z0-9_-]{22}$/);
  });
});

describe('the ghost', () => {
  test('walks the log at an even pace: undos put tiles back, shuffles change no count', () => {
    const log = [
      { type: 'match', a: 0, b: 1 },
      { type: 'shuffle' },
      { type: 'undo' },
      { type: 'undo' },
      { type: 'redo' },
      { type: 'match', a: 2, b: 3 },
    ] as const;
    const left = leftAlong(8, log);
    expect(left).toEqual([8, 6, 6, 6, 8, 6, 4]);
    expect(ghostLeft(left, 60_000, 0)).toBe(8);
    expect(ghostLeft(left, 60_000, 10_000)).toBe(6);
    expect(ghostLeft(left, 60_000, 59_999)).toBe(6);
    expect(ghostLeft(left, 60_000, 60_000)).toBe(4);
    expect(ghostLeft(left, 60_000, 1e9)).toBe(4);
  });
});
