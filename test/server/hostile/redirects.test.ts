/**
 * No redirect leaves our origin (docs/operations.md, "Security"): every redirect the site makes, asked with paths
 * a browser would read as another host (`//host`, `/\host`, their percent-encoded and doubled forms), answers a
 * `Location` on this site. The requests go over a real socket with the request line exactly as written: an
 * injected request would have its URL tidied first.
 */
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { sameOriginPath } from '../../../src/server/view-models/location.ts';
import { buildApp } from '../../../src/server/app.ts';
import { createGame, newPlayer, postMoves, solutionMoves, storage, TEST_SECRET } from '../helper.ts';

const HOSTILE = [
  '//evil.example/',
  '/\\evil.example/',
  '/%2F%2Fevil.example/',
  '/\\\\evil.example/',
  '/%5Cevil.example/',
];

let app: FastifyInstance;
let port: number;
let cookie: string;

beforeAll(async () => {
  // Many editor pages at once: more than the process's share of a quarter second (not what this file tests).
  app = buildApp({
    ...(await storage()),
    cookieSecret: TEST_SECRET,
    logger: false,
    dealer: { workers: 0 },
    cpu: { processPerWindowMs: 60_000 },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  port = (app.server.address() as net.AddressInfo).port;
  cookie = await newPlayer(app);
});

afterAll(async () => {
  await app.close();
});

interface Answer {
  status: number;
  location: string | undefined;
}

/** Sends one request exactly as written (target, method, body) and reads the status and Location. */
function send(target: string, method = 'GET', body = ''): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('end', () => {
      const head = Buffer.concat(chunks).toString('latin1').split('\r\n\r\n')[0]!;
      const [status, ...lines] = head.split('\r\n');
      const location = lines.find((l) => /^location:/i.test(l))?.replace(/^location:\s*/i, '');
      resolve({ status: Number(status!.split(' ')[1]), location });
    });
    const form = body ? `content-type: application/x-www-form-urlencoded\r\ncontent-length: ${body.length}\r\n` : '';
    socket.end(
      `${method} ${target} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncookie: ${cookie}\r\n` +
        `sec-fetch-site: same-origin\r\n${form}connection: close\r\n\r\n${body}`,
    );
  });
}

/** A Location a browser resolves on this origin: one leading slash, no backslash, no scheme. */
function expectOnSite(answer: Answer, what: string): void {
  if (answer.location === undefined) return;
  expect(answer.location, what).toMatch(/^\/(?![/\\])/);
  expect(answer.location, what).not.toMatch(/^\/(%2f|%5c)/i);
  expect(answer.location, what).not.toContain('\\');
  expect(new URL(answer.location, 'http://127.0.0.1/').origin, what).toBe('http://127.0.0.1');
}

describe('no redirect leaves our origin', () => {
  test.each(HOSTILE)('the lang and tiles pickers in the query of %s', async (path) => {
    for (const query of ['lang=en', 'tiles=large', 'lang=fr&tiles=classic', 'lang=xx', 'tiles=']) {
      const answer = await send(`${path}?${query}`);
      expect(answer.status, `${path}?${query}`).toBe(303);
      expect(answer.location, `${path}?${query}`).toBe('/');
    }
    // Deeper paths and a query kept after the picker's.
    for (const target of [`${path}play/turtle?lang=en&seed=1`, `${path}?tiles=large&x=%2F%2Fevil`]) {
      const answer = await send(target);
      expect(answer.status, target).toBe(303);
      expectOnSite(answer, target);
      expect(answer.location, target).toBe('/');
    }
  });

  test('the pickers keep a path of this site', async () => {
    expect(await send('/stats?lang=en&page=2')).toEqual({ status: 303, location: '/stats?page=2' });
    expect(await send('/daily?tiles=large')).toEqual({ status: 303, location: '/daily' });
  });

  test.each(HOSTILE)('the lang, theme and tiles forms sent back to %s', async (path) => {
    const back = encodeURIComponent(path);
    for (const [form, field] of [
      ['/lang', 'lang=de'],
      ['/theme', 'theme=dark'],
      ['/tiles', 'tiles=large'],
    ] as const) {
      for (const to of [back, `${back}stats`, encodeURIComponent(`${path}?lang=en`)]) {
        const answer = await send(form, 'POST', `${field}&back=${to}`);
        expect(answer.status, `${form} ${to}`).toBe(303);
        expect(answer.location, `${form} ${to}`).toBe('/');
      }
    }
  });

  test('the forms go back to a page of this site, never a scheme or a control character', async () => {
    for (const back of [
      'https://evil.example/',
      'javascript:alert(1)',
      '/stats\r\nset-cookie:x=1',
      ' //evil.example/',
    ]) {
      const answer = await send('/lang', 'POST', `lang=de&back=${encodeURIComponent(back)}`);
      expect(answer, back).toEqual({ status: 303, location: '/' });
    }
    expect(await send('/theme', 'POST', `theme=dark&back=${encodeURIComponent('/stats?page=2')}`)).toEqual({
      status: 303,
      location: '/stats?page=2',
    });
  });

  test.each(HOSTILE)('a new game, a layout, a replay and a trailing slash under %s', async (path) => {
    for (const target of [`${path}play/turtle`, `${path}layouts/turtle`, `${path}replay/x?move=1.5`, path]) {
      const answer = await send(target);
      expect(answer.status, target).toBeGreaterThanOrEqual(300);
      expect(answer.status, target).toBeLessThan(500);
      expectOnSite(answer, target);
    }
    // Their own redirects, asked with the hostile path as the layout or a trailing slash.
    for (const target of [
      `/play/${encodeURIComponent(path)}`,
      `/play${path}`,
      `/layouts/${encodeURIComponent(path)}`,
      `/layouts${path}`,
      `/tiles${path}`,
      `/play/turtle/${encodeURIComponent(path)}`,
    ]) {
      const answer = await send(target);
      expect(answer.status, target).toBeGreaterThanOrEqual(300);
      expect(answer.status, target).toBeLessThan(500);
      expectOnSite(answer, target);
    }
  });

  test.each(HOSTILE)('the editor, daily, transfer and upload redirects given %s in their fields', async (path) => {
    const value = encodeURIComponent(path);
    for (const [method, target, body] of [
      ['GET', `/layouts/editor?from=${value}`, ''],
      ['GET', `/layouts/editor?name=${value}`, ''],
      ['GET', `/layouts/editor?layout=${value}`, ''],
      ['GET', `/layouts/editor?layout=AgIAAgIB&name=${value}&z=1`, ''],
      ['POST', '/layouts/editor', `layout=AgIAAgIB&name=${value}&back=${value}`],
      ['POST', '/daily/name', `name=x&back=${value}`],
      ['POST', '/stats/transfer', `back=${value}`],
      ['GET', `/replay/x?move=${value}`, ''],
      ['GET', `/play/turtle?mode=${value}`, ''],
      ['GET', `/play/turtle?difficulty=${value}`, ''],
    ] as const) {
      const answer = await send(target, method, body);
      expect(answer.status, target).toBeLessThan(500);
      expectOnSite(answer, `${method} ${target}`);
    }
  });

  test('the redirects of this site still land where they should', async () => {
    const play = await send('/play/turtle');
    expect(play.status).toBe(302);
    expect(play.location).toMatch(/^\/play\/turtle\/[^/]+/);
    expect(await send('/layouts/turtle')).toMatchObject({
      status: 302,
      location: expect.stringMatching(/^\/play\/turtle/),
    });
    expect(await send('/tiles')).toMatchObject({ status: 302, location: '/tiles/classic' });
    // A replay's step asked off the moves goes to its nearest step on this site.
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'redirects' });
    expect((await postMoves(app, cookie, game.id, solutionMoves(game).slice(0, 2))).statusCode).toBe(200);
    const shared = await send('/replay', 'POST', `game=${game.id}`);
    expect(shared.status).toBe(303);
    expectOnSite(shared, 'POST /replay');
    const far = await send(`${shared.location!}?move=999`);
    expect(far.status).toBe(302);
    expectOnSite(far, 'a far step');
    expect(far.location).toMatch(/^\/replay\//);
  });
});

describe('sameOriginPath, the one check every Location goes through', () => {
  test.each([
    ['/', '/'],
    ['/stats?page=2', '/stats?page=2'],
    ['/play/turtle/1?mode=relaxed#top', '/play/turtle/1?mode=relaxed#top'],
    ['/search?q=a\\b', '/search?q=a\\b'], // a backslash in the query is only text
    ['//evil.example/', '/'],
    ['/\\evil.example/', '/'],
    ['/\\\\evil.example/', '/'],
    ['/%2F%2Fevil.example/', '/'],
    ['/%2f/evil.example/', '/'],
    ['/%5Cevil.example/', '/'],
    ['/a\\..\\..\\evil', '/'],
    ['https://evil.example/', '/'],
    ['javascript:alert(1)', '/'],
    ['evil.example', '/'],
    ['', '/'],
    ['/a\r\nset-cookie: x=1', '/'],
    ['/a\tb', '/'],
    ['/a b', '/'],
    ['/a\u007f', '/'],
    [undefined, '/'],
    [['/a'], '/'],
  ])('%j → %j', (raw, safe) => {
    expect(sameOriginPath(raw)).toBe(safe);
  });
});
