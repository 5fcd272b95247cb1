/**
 * The lower findings of a red-team pass (docs/operations.md, "Security"): links never built from the Host header,
 * misses (unknown layout ids, transfer tokens) rate limited like the 404 handler, and nicknames with no letter or
 * digit refused with a message of their own in every language.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { LIMITS } from '../../../src/server/plugins/security.ts';
import { dailyLayoutOf } from '../../../src/server/services/daily.ts';
import { build, createGame, newPlayer, playPaced, postMoves, solutionMoves, testClock } from '../helper.ts';

const SAME_ORIGIN = { 'sec-fetch-site': 'same-origin' };
const FORM = { 'content-type': 'application/x-www-form-urlencoded', ...SAME_ORIGIN };

/** A player with a game played (the transfer link needs one). */
async function playerWithGame(app: FastifyInstance): Promise<string> {
  const cookie = await newPlayer(app);
  const game = await createGame(app, cookie, { layout: 'turtle', seed: 'lower' });
  expect((await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 2))).statusCode).toBe(200);
  return cookie;
}

describe('links are never built from the Host header', () => {
  test('without PUBLIC_ORIGIN the transfer link and the export links are paths', async () => {
    const app = await build();
    const cookie = await playerWithGame(app);
    const host = { host: 'evil.example' };
    const made = await app.inject({
      method: 'POST',
      url: '/stats/transfer',
      headers: { cookie, ...SAME_ORIGIN, ...host },
    });
    expect(made.statusCode).toBe(200);
    expect(made.body).not.toContain('evil.example');
    expect(made.body).toMatch(/id="transfer-link" type="text" readonly value="\/transfer\/[A-Za-z0-9_-]{32}"/);
    for (const format of ['csv', 'json']) {
      const file = await app.inject({ url: `/stats/export.${format}`, headers: { cookie, ...host } });
      expect(file.statusCode, format).toBe(200);
      expect(file.body, format).not.toContain('evil.example');
      expect(file.body, format).toContain('/play/turtle/lower');
    }
  });

  test('with PUBLIC_ORIGIN they are absolute on it, whatever the Host', async () => {
    const app = await build({ publicOrigin: 'https://mahjong.example' });
    const first = await app.inject({ url: '/api/stats' });
    const cookie = `__Host-mj_player=${first.cookies.find((c) => c.name === '__Host-mj_player')!.value}`;
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'lower' });
    expect((await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 2))).statusCode).toBe(200);
    const host = { host: 'evil.example' };
    const made = await app.inject({
      method: 'POST',
      url: '/stats/transfer',
      headers: { cookie, ...SAME_ORIGIN, ...host },
    });
    expect(made.body).toMatch(/value="https:\/\/mahjong\.example\/transfer\/[A-Za-z0-9_-]{32}"/);
    const csv = await app.inject({ url: '/stats/export.csv', headers: { cookie, ...host } });
    expect(csv.body).toContain('https://mahjong.example/play/turtle/lower');
    expect(csv.body).not.toContain('evil.example');
  });
});

describe('misses are rate limited like the 404 handler', () => {
  const MAX = LIMITS.notFound.max;

  test.each([
    ['unknown custom layout pages', (i: number) => `/layouts/c-${i.toString(16).padStart(12, '0')}`],
    ['unknown layouts to play', (i: number) => `/play/nolayout${i}`],
    ['unknown layouts of a deal page', (i: number) => `/play/nolayout${i}/seed`],
    ['unknown layouts of the deal API', (i: number) => `/api/deals/nolayout${i}/seed`],
    ['unknown transfer tokens', (i: number) => `/transfer/${'A'.repeat(28)}${String(i).padStart(4, '0')}`],
  ])('%s: 404 up to the limit, then 429 with Retry-After; other addresses and real pages go on', async (_, url) => {
    const app = await build({ dealer: { newDeals: false } }); // only the misses' own limit
    const cookie = await newPlayer(app);
    const ask = (i: number, remoteAddress = '192.0.2.7') =>
      app.inject({ url: url(i), headers: { cookie }, remoteAddress });
    for (let i = 0; i < MAX; i++) {
      const res = await ask(i);
      expect(res.statusCode, `miss ${i}`).toBe(404);
    }
    const over = await ask(MAX);
    expect(over.statusCode).toBe(429);
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
    expect(over.body).toMatch(/too many addresses that lead nowhere/i);
    expect((await ask(MAX, '198.51.100.9')).statusCode).toBe(404); // another address has its own count
    const real = await app.inject({ url: '/play/turtle', headers: { cookie }, remoteAddress: '192.0.2.7' });
    expect(real.statusCode).toBe(302); // only misses are counted
  });
});

describe('a nickname needs a letter or a digit', () => {
  const clock = testClock(Date.UTC(2026, 11, 1, 10));

  test.each(['...', '_-_', '. . .', '-', '__', ' _ . - '])(
    '%j is refused with a 400 that says so',
    async (nickname) => {
      const app = await build({ now: clock.now });
      const cookie = await newPlayer(app);
      const day = new Date(clock.now()).toISOString().slice(0, 10);
      const daily = await createGame(app, cookie, { layout: dailyLayoutOf(day), seed: `daily-${day}` });
      await playPaced(app, cookie, daily.id, solutionMoves(daily), clock.advance);
      const send = (lang: string, value: string) =>
        app.inject({
          method: 'POST',
          url: '/daily/name',
          headers: { ...FORM, cookie: `${cookie}; lang=${lang}` },
          payload: `name=${encodeURIComponent(value)}`,
        });
      const en = await send('en', nickname);
      expect(en.statusCode).toBe(400);
      expect(en.body).toContain('A name needs at least one letter or digit.');
      const de = await send('de', nickname);
      expect(de.statusCode).toBe(400);
      expect(de.body).toContain('Ein Name braucht mindestens einen Buchstaben oder eine Ziffer.');
      expect((await send('en', `${nickname}7`)).statusCode).toBe(303); // a digit makes it a name
    },
  );
});
