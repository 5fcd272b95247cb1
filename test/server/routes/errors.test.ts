/**
 * The error contract (errors.ts): every refusal has a code from the one map ERROR_STATUS and answers
 * with that code's status; every API route declares its error answers (the shared ApiErrorSchema)
 * beside its success answer; hostile requests to each API route answer with a declared status and a
 * code of the map.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { z } from 'zod';
import { MoveError } from '../../../src/engine/index.ts';
import { buildApp } from '../../../src/server/app.ts';
import { ApiErrorSchema, CODE_OF_STATUS, ERROR_STATUS, type ErrorCode } from '../../../src/server/errors.ts';
import { createGame, newPlayer, TEST_SECRET } from '../helper.ts';
import { ROOT } from '../../support/root.ts';

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return path.endsWith('.ts') ? [path] : [];
  });
}

describe('the map covers every code', () => {
  test('every ERR_ code written in the server is in ERROR_STATUS', () => {
    const written = new Set<string>();
    for (const file of sourceFiles(join(ROOT, 'src', 'server')))
      for (const m of readFileSync(file, 'utf8').matchAll(/['"`](ERR_[A-Z_]+)['"`]/g)) written.add(m[1]!);
    expect(written.size).toBeGreaterThan(20);
    // Node's own codes (ERR_HTTP_…) are read, never answered: connections.ts maps them to ours.
    expect([...written].filter((code) => !(code in ERROR_STATUS) && !code.startsWith('ERR_HTTP_'))).toEqual([]);
  });

  test("every engine MoveError (an illegal move's code) is in ERROR_STATUS as a 409", () => {
    for (const code of Object.values(MoveError)) expect(ERROR_STATUS[code as ErrorCode]).toBe(409);
  });

  test('docs/server.md lists every code with its status', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'server.md'), 'utf8');
    for (const [code, status] of Object.entries(ERROR_STATUS)) expect(docs).toContain(`| \`${code}\` | ${status} |`);
  });

  test('every status without a code of its own has one, of that status', () => {
    for (const [status, code] of Object.entries(CODE_OF_STATUS)) expect(ERROR_STATUS[code]).toBe(Number(status));
  });
});

describe('API routes', () => {
  let app: FastifyInstance;
  const routes: RouteOptions[] = [];
  let cookie: string;
  let other: string;
  let gameId: string;

  beforeAll(async () => {
    app = buildApp({ databasePath: ':memory:', cookieSecret: TEST_SECRET, logger: false, dealer: { workers: 0 } });
    app.addHook('onRoute', (route) => void routes.push(route));
    await app.ready();
    cookie = await newPlayer(app);
    other = await newPlayer(app);
    gameId = (await createGame(app, cookie, { layout: 'garden', seed: 'errors' })).id;
  });
  afterAll(() => app.close());

  const apiRoutes = () => routes.filter((r) => r.url.startsWith('/api/') && r.method !== 'HEAD');
  const responsesOf = (route: RouteOptions) =>
    ((route.schema as { response?: Record<number, z.ZodType> } | undefined)?.response ?? {}) as Record<
      string,
      z.ZodType
    >;

  test('each declares a success answer and its error answers with the shared error schema', () => {
    expect(apiRoutes().map((r) => `${String(r.method)} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'GET /api/layouts',
        'GET /api/layouts/:id',
        'GET /api/deals/:layout/:seed',
        'POST /api/games',
        'POST /api/games/:id/moves',
        'GET /api/stats',
      ]),
    );
    for (const route of apiRoutes()) {
      const responses = responsesOf(route);
      const statuses = Object.keys(responses).map(Number);
      expect(
        statuses.some((s) => s >= 200 && s < 300),
        route.url,
      ).toBe(true);
      expect(statuses, route.url).toEqual(expect.arrayContaining([400, 404, 429, 500]));
      for (const status of statuses.filter((s) => s >= 400)) {
        // The shared schema, or one that extends it (a refused batch adds its log): same error and code.
        const schema = responses[status] as unknown as typeof ApiErrorSchema;
        expect(schema.shape.code, `${route.url} ${status}`).toBe(ApiErrorSchema.shape.code);
        expect(schema.shape.error, `${route.url} ${status}`).toBe(ApiErrorSchema.shape.error);
      }
    }
  });

  /** The route that answers a request, by its method and path pattern. */
  const routeOf = (method: string, url: string): RouteOptions | undefined => {
    const path = url.split('?')[0]!;
    return apiRoutes().find(
      (r) =>
        r.method === method &&
        new RegExp('^' + r.url.replace(/:[a-z]+/g, '[^/]+').replace(/\//g, '\\/') + '$').test(path),
    );
  };

  const json = (body: unknown) => ({ 'content-type': 'application/json', payload: JSON.stringify(body) });

  type Case = { method?: string; url: string; who?: 'player' | 'other' | 'none'; headers?: Record<string, string> };
  const CASES: Record<string, Case & { payload?: string; status: number; code: ErrorCode }> = {
    'a layout id with capitals': { url: '/api/layouts/TURTLE', status: 400, code: 'ERR_VALIDATION' },
    'an unknown custom layout': { url: '/api/layouts/c-000000000000', status: 404, code: 'ERR_UNKNOWN_LAYOUT' },
    'an unknown layout': { url: '/api/deals/nosuch/abc', status: 404, code: 'ERR_UNKNOWN_LAYOUT' },
    'a seed with a dot': { url: '/api/deals/turtle/a.b', status: 400, code: 'ERR_VALIDATION' },
    'a mode that is none': { url: '/api/deals/turtle/abc?mode=hard', status: 400, code: 'ERR_VALIDATION' },
    'a seed past the router limit': {
      url: '/api/deals/turtle/' + 'a'.repeat(300),
      status: 414,
      code: 'ERR_URI_TOO_LONG',
    },
    'an unknown API route': { url: '/api/nothing', status: 404, code: 'ERR_NOT_FOUND' },
    'a method the route does not take': { method: 'DELETE', url: '/api/layouts', status: 404, code: 'ERR_NOT_FOUND' },
    'a new game without a cookie': {
      method: 'POST',
      url: '/api/games',
      who: 'none',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ layout: 'garden', seed: 'x' }),
      status: 403,
      code: 'ERR_FORBIDDEN',
    },
    'a new game from another site': {
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'cross-site', origin: 'https://evil.test' },
      payload: JSON.stringify({ layout: 'garden', seed: 'x' }),
      status: 403,
      code: 'ERR_FORBIDDEN',
    },
    'a new game as a form': {
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'layout=garden&seed=x',
      status: 415,
      code: 'ERR_UNSUPPORTED_MEDIA_TYPE',
    },
    'a new game as XML': {
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/xml' },
      payload: '<game/>',
      status: 415,
      code: 'ERR_UNSUPPORTED_MEDIA_TYPE',
    },
    'malformed JSON': {
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/json' },
      payload: '{"layout":',
      status: 400,
      code: 'ERR_BAD_REQUEST',
    },
    'a body past the limit': {
      method: 'POST',
      url: '/api/games',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ layout: 'garden', seed: 'x', pad: 'x'.repeat(70_000) }),
      status: 413,
      code: 'ERR_PAYLOAD_TOO_LARGE',
    },
    'an unknown key': {
      method: 'POST',
      url: '/api/games',
      ...json({ layout: 'garden', seed: 'x', admin: true }),
      status: 400,
      code: 'ERR_VALIDATION',
    },
    'a game of an unknown layout': {
      method: 'POST',
      url: '/api/games',
      ...json({ layout: 'nosuch', seed: 'x' }),
      status: 404,
      code: 'ERR_UNKNOWN_LAYOUT',
    },
    'moves of a malformed game id': {
      method: 'POST',
      url: '/api/games/nope/moves',
      ...json({ moves: [{ type: 'hint' }] }),
      status: 400,
      code: 'ERR_VALIDATION',
    },
    'moves of an unknown game': {
      method: 'POST',
      url: '/api/games/AAAAAAAAAAAAAAAA/moves',
      ...json({ moves: [{ type: 'hint' }] }),
      status: 404,
      code: 'ERR_GAME_NOT_FOUND',
    },
    "moves of another player's game": {
      method: 'POST',
      url: '/api/games/:game/moves',
      who: 'other',
      ...json({ moves: [{ type: 'hint' }] }),
      status: 403,
      code: 'ERR_NOT_YOUR_GAME',
    },
    'an undo with nothing to undo': {
      method: 'POST',
      url: '/api/games/:game/moves',
      ...json({ moves: [{ type: 'undo' }] }),
      status: 409,
      code: 'ERR_NOTHING_TO_UNDO',
    },
    'a match of a tile that does not exist': {
      method: 'POST',
      url: '/api/games/:game/moves',
      ...json({ moves: [{ type: 'match', a: 0, b: 999 }] }),
      status: 409,
      code: 'ERR_NO_SUCH_TILE',
    },
    'a history page of zero': { url: '/api/stats?page=0', status: 400, code: 'ERR_VALIDATION' },
  };

  test.each(Object.entries(CASES))('%s', async (_label, c) => {
    const url = c.url.replace(':game', gameId);
    const headers: Record<string, string> = { ...c.headers };
    if ((c.who ?? 'player') !== 'none') headers.cookie = c.who === 'other' ? other : cookie;
    if ('content-type' in c) headers['content-type'] = (c as { 'content-type': string })['content-type'];
    const options: InjectOptions = { method: (c.method ?? 'GET') as InjectOptions['method'], url, headers };
    if (c.payload !== undefined) options.payload = c.payload;
    const res = await app.inject(options);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(c.status);
    const body = res.json() as { error: unknown; code: unknown };
    expect(body.error).toEqual(expect.any(String));
    expect(body.code).toBe(c.code);
    expect(ERROR_STATUS[c.code]).toBe(c.status);
    // A route that answered declares the status it answered with (a 414 is refused before routing).
    const route = c.status === 414 ? undefined : routeOf(options.method as string, url);
    if (route) expect(Object.keys(responsesOf(route)), route.url).toContain(String(c.status));
  });

  test('a rate limit (from @fastify/rate-limit) is a declared 429 with ERR_RATE_LIMITED', async () => {
    let res;
    for (let i = 0; i < 40; i++) {
      res = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie },
        payload: { layout: 'garden', seed: 'limit' },
        remoteAddress: '10.9.9.9',
      });
      if (res.statusCode === 429) break;
    }
    expect(res!.statusCode).toBe(429);
    expect(res!.json()).toEqual({ error: expect.stringMatching(/^too many requests/), code: 'ERR_RATE_LIMITED' });
    expect(Number(res!.headers['retry-after'])).toBeGreaterThan(0);
  });

  test('a failure on our side is a declared 500 with ERR_INTERNAL and no detail', async () => {
    const broken = buildApp({ databasePath: ':memory:', cookieSecret: TEST_SECRET, logger: false });
    await broken.ready();
    const player = await newPlayer(broken);
    broken.db!.close(); // every query now throws
    const res = await broken.inject({ url: '/api/stats', headers: { cookie: player } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      error: expect.stringMatching(/^something went wrong on our side/),
      code: 'ERR_INTERNAL',
    });
    await broken.close().catch(() => undefined);
  });
});
