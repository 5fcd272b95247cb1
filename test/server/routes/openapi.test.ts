/**
 * GET /api/openapi.json: an OpenAPI 3.1 document made from the routes' own zod schemas.
 * It must pass a real OpenAPI validator (@seriousme/openapi-schema-validator, the official JSON schemas of
 * the specification), hold every API route fastify has (those under /api/ and /healthz, whichever plugin adds
 * them: a new route without schemas fails here) with its parameters, body and answers, and nothing else; and
 * the real answers of the routes must match the schemas it gives for them (ajv, JSON Schema 2020-12).
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifyInstance, RouteOptions } from 'fastify';
import { z } from 'zod';
import { describe, expect, test } from 'vitest';
import { buildApp } from '../../../src/server/app.ts';
import { isApiRoute } from '../../../src/server/plugins/openapi.ts';
import { losingLine, toStuck } from '../../support/losing-lines.ts';
import { createGame, newPlayer, postMoves, solutionMoves, TEST_SECRET } from '../helper.ts';

interface Operation {
  parameters?: { in: string; name: string; required?: boolean; schema?: object }[];
  requestBody?: { content?: Record<string, { schema?: object }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: object }> }>;
  security?: object[];
}
type Paths = Record<string, Record<string, Operation>>;
interface Document {
  openapi: string;
  paths: Paths;
  components: { schemas: Record<string, object> };
}

/** An app whose routes are listed as fastify registers them; `extra` adds routes of a test's own. */
async function appWithRoutes(extra?: (app: FastifyInstance) => void) {
  const app = buildApp({ databasePath: ':memory:', cookieSecret: TEST_SECRET, dealer: { workers: 0 } });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (route: RouteOptions) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url });
  });
  extra?.(app);
  await app.ready();
  const res = await app.inject({ url: '/api/openapi.json' });
  expect(res.statusCode).toBe(200);
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  return { app, routes, document: res.json<Document>() };
}

/** The OpenAPI form of a fastify path: `/api/games/:id/moves` → `/api/games/{id}/moves`. */
const openapiPath = (url: string): string => url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');

/**
 * What is missing or wrong about each API route in the document (empty when all is well): the operation,
 * its path parameters, its body, a success answer with a schema, a schema for every answer, a description.
 */
function problems(document: Document, routes: readonly { method: string; url: string }[]): string[] {
  const found: string[] = [];
  for (const { method, url } of routes) {
    if (method === 'HEAD' || !isApiRoute(url)) continue;
    const where = `${method} ${url}`;
    const operation = document.paths[openapiPath(url)]?.[method.toLowerCase()];
    if (!operation) {
      found.push(`${where}: not in the document`);
      continue;
    }
    // Every string the server takes is bounded (schemas/common.ts): a parameter without its zod schema is
    // only `{"type":"string"}` here.
    for (const [, name] of url.matchAll(/:([A-Za-z0-9_]+)/g)) {
      const schema = operation.parameters?.find((p) => p.in === 'path' && p.name === name && p.required)?.schema;
      if (!schema || !['pattern', 'maxLength', 'enum'].some((k) => k in schema))
        found.push(`${where}: path parameter ${name} has no bounded schema`);
    }
    if (method === 'POST' && !operation.requestBody?.content?.['application/json']?.schema)
      found.push(`${where}: no body schema`);
    const responses = Object.entries(operation.responses ?? {});
    if (!responses.some(([status]) => /^2\d\d$/.test(status))) found.push(`${where}: no success answer`);
    for (const [status, response] of responses) {
      const schema = response.content?.['application/json']?.schema;
      if (!schema || Object.keys(schema).length === 0) found.push(`${where}: answer ${status} has no schema`);
      if (!response.description || response.description === 'Default Response')
        found.push(`${where}: answer ${status} is not described`);
    }
  }
  return found;
}

/**
 * A JSON schema whose objects with named properties take no others (`additionalProperties: false`, where the
 * API's own schemas let unnamed keys through), so an answer checked against it shows any field the document
 * does not describe. Maps (`z.record`: no `properties`) keep their value schema.
 */
function strictObjects<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map((s: unknown) => strictObjects(s)) as T;
  if (typeof schema !== 'object' || schema === null) return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([k, v]) => [k, strictObjects(v)])) as Record<
    string,
    unknown
  >;
  if ('properties' in copy) copy.additionalProperties = false;
  return copy as T;
}

describe('the API description', () => {
  test('is a valid OpenAPI 3.1 document', async () => {
    const { document } = await appWithRoutes();
    expect(document.openapi).toBe('3.1.0');
    const result = await new Validator().validate(document as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    // The validator does look: an answer without its (required) description is refused.
    const broken = structuredClone(document);
    delete broken.paths['/api/layouts']!.get!.responses!['200']!.description;
    const refused = await new Validator().validate(broken as unknown as Record<string, unknown>);
    expect(refused.valid).toBe(false);
  });

  test('holds every API route fastify has, with its parameters, body and answers, and nothing else', async () => {
    const { document, routes } = await appWithRoutes();
    const api = routes.filter((r) => r.method !== 'HEAD' && isApiRoute(r.url));
    // The README's JSON API table, and the description itself, at least; routes added later come on their own.
    for (const path of [
      'GET /api/layouts',
      'GET /api/layouts/:id',
      'GET /api/deals/:layout/:seed',
      'POST /api/games',
      'POST /api/games/:id/moves',
      'POST /api/games/:id/replay',
      'GET /api/stats',
      'GET /healthz',
      'GET /api/openapi.json',
    ])
      expect(api.map((r) => `${r.method} ${r.url}`)).toContain(path);
    expect(problems(document, routes)).toEqual([]);
    // Nothing but them: no page, no /metrics, no route that does not exist.
    const documented = Object.entries(document.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(documented.sort()).toEqual(api.map((r) => `${r.method} ${openapiPath(r.url)}`).sort());
    // Writes say they need the player cookie.
    expect(document.paths['/api/games']!.post!.security).toEqual([{ player: [] }]);
    // Refusals share the error schema, with its codes.
    expect(document.paths['/api/stats']!.get!.responses!['429']!.content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/ApiError',
    });
    expect(Object.keys(document.components.schemas).sort()).toEqual(['ApiError', 'Deal', 'Health', 'MovesRefusal']);
    // The replay link: its answer, and the refusals of another player's game and of an unknown one.
    const replay = document.paths['/api/games/{id}/replay']!.post!;
    expect(replay.security).toEqual([{ player: [] }]);
    expect(Object.keys(replay.responses!)).toEqual(expect.arrayContaining(['200', '403', '404', '429']));
    expect(JSON.stringify(replay.responses!['200']!.content!['application/json']!.schema)).toContain('"url"');
    // The stats answer lists the achievements, each with its progress.
    const stats = document.paths['/api/stats']!.get!.responses!['200']!.content!['application/json']!.schema as {
      properties: Record<string, { type?: string; items?: { properties?: Record<string, unknown> } }>;
    };
    expect(stats.properties.achievements?.type).toBe('array');
    expect(Object.keys(stats.properties.achievements?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['id', 'name', 'rule', 'earned', 'earnedAt', 'game', 'progress']),
    );
    // And the player's challenge links, each with how it went.
    expect(Object.keys(stats.properties.challenges?.items?.properties ?? {})).toEqual(
      expect.arrayContaining(['url', 'name', 'seed', 'mode', 'sentAt', 'timeMs', 'players', 'bestMs', 'outcome']),
    );
  });

  test('a new API route without schemas is caught', async () => {
    const { document, routes } = await appWithRoutes((app) => {
      void app.register(async (scope) => {
        scope.get('/api/naked/:thing', async () => ({ ok: true }));
        scope.post('/api/half', { schema: { response: { 200: z.object({ ok: z.boolean() }) } } }, async () => ({
          ok: true,
        }));
      });
    });
    // It is in the document (swagger sees every route), but without what a client needs to call it.
    expect(problems(document, routes)).toEqual([
      'GET /api/naked/:thing: path parameter thing has no bounded schema',
      'GET /api/naked/:thing: answer 200 has no schema',
      'POST /api/half: no body schema',
    ]);
  });

  test('the real answers match the schemas the document gives for them, and it names every field they send', async () => {
    const { app, document } = await appWithRoutes();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    // Strict objects: a field the handlers send that the document does not name fails here.
    ajv.addSchema({ $id: 'api', components: strictObjects(document.components) }); // the answers' $refs resolve here
    const check = (method: string, path: string, status: number, body: unknown, strict = true): void => {
      const response = document.paths[path]![method]!.responses![String(status)];
      expect(response, `${method} ${path} ${status} is documented`).toBeDefined();
      const schema = (strict ? strictObjects : <T>(x: T) => x)(
        JSON.parse(
          JSON.stringify(response!.content!['application/json']!.schema).replaceAll(
            '"#/components/',
            '"api#/components/',
          ),
        ) as object,
      );
      if (ajv.validate(schema, body)) return;
      for (const e of ajv.errors ?? [])
        wrong.add(`${method} ${path} ${status}: ${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`);
    };
    const wrong = new Set<string>(); // what the answers break, each once
    const get = async (url: string, path: string, headers: Record<string, string> = {}, strict = true) => {
      const res = await app.inject({ url, headers });
      check('get', path, res.statusCode, res.json(), strict);
      return res;
    };

    const cookie = await newPlayer(app);
    await get('/api/layouts', '/api/layouts');
    await get('/api/layouts/turtle', '/api/layouts/{id}');
    expect((await get('/api/layouts/nowhere', '/api/layouts/{id}')).statusCode).toBe(404);
    await get('/api/deals/turtle/openapi?mode=classic', '/api/deals/{layout}/{seed}');
    expect((await get('/api/deals/turtle/bad%20seed', '/api/deals/{layout}/{seed}')).statusCode).toBe(400);
    await get('/healthz?detail=1', '/healthz');
    await get('/api/tilesets', '/api/tilesets');
    await get('/api/openapi.json', '/api/openapi.json', {}, false); // OpenAPI's own format: its keys are its own

    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'openapi' });
    check('post', '/api/games', 201, game);
    const moves = solutionMoves(game);
    const illegal = await postMoves(app, cookie, game.id, [{ type: 'match', a: moves[0]!.a, b: moves[0]!.a }]);
    check('post', '/api/games/{id}/moves', illegal.statusCode, illegal.json());
    expect(illegal.statusCode).toBe(409);
    const first = await postMoves(app, cookie, game.id, moves.slice(0, 2), { at: 0, playMs: 1000 });
    expect(first.json().status).toBe('playing');
    check('post', '/api/games/{id}/moves', 200, first.json());
    const repeat = await postMoves(app, cookie, game.id, moves.slice(0, 1), { at: 0 }); // the server has more: its log
    expect(repeat.json().log).toBeDefined();
    check('post', '/api/games/{id}/moves', 200, repeat.json());
    const won = await postMoves(app, cookie, game.id, moves.slice(2), { at: 2, playMs: 60_000 });
    expect(won.json().status).toBe('won');
    check('post', '/api/games/{id}/moves', 200, won.json());
    // A stuck game too: its history entry says why it was lost (docs/coach.md).
    const lost = await createGame(app, cookie, { layout: 'turtle', seed: 'coach-1440' });
    const stuckLine = toStuck(lost, [losingLine(lost, 1).losing]).map(([a, b]) => ({ type: 'match', a, b }));
    expect((await postMoves(app, cookie, lost.id, stuckLine)).json().status).toBe('stuck');
    const stats = await get('/api/stats', '/api/stats', { cookie });
    expect(stats.json().achievements.filter((a: { earned: boolean }) => a.earned).length).toBeGreaterThan(0);
    expect(stats.json().history.filter((h: { loss: unknown }) => h.loss !== null)).toHaveLength(1);

    // The replay link: made for the game's player (again the same), refused to another, 404 for no game.
    const share = (id: string, who: string) =>
      app.inject({ method: 'POST', url: `/api/games/${id}/replay`, headers: { cookie: who } });
    const shared = await share(game.id, cookie);
    expect(shared.statusCode).toBe(200);
    check('post', '/api/games/{id}/replay', 200, shared.json());
    expect((await share(game.id, cookie)).json()).toEqual(shared.json());
    const stranger = await share(game.id, await newPlayer(app));
    expect(stranger.statusCode).toBe(403);
    check('post', '/api/games/{id}/replay', 403, stranger.json());
    const unknown = await share('A'.repeat(16), cookie);
    expect(unknown.statusCode).toBe(404);
    check('post', '/api/games/{id}/replay', 404, unknown.json());
    // The challenge link of the won game: its answer, the same again; another player's 403; a game not won 409.
    const challenge = (id: string, who: string) =>
      app.inject({ method: 'POST', url: `/api/games/${id}/challenge`, headers: { cookie: who } });
    const challenged = await challenge(game.id, cookie);
    expect(challenged.statusCode).toBe(200);
    check('post', '/api/games/{id}/challenge', 200, challenged.json());
    check('post', '/api/games/{id}/challenge', 403, (await challenge(game.id, await newPlayer(app))).json());
    const open = await createGame(app, cookie, { layout: 'turtle', seed: 'openapi-open' });
    const notWon = await challenge(open.id, cookie);
    expect(notWon.statusCode).toBe(409);
    check('post', '/api/games/{id}/challenge', 409, notWon.json());
    // The stats answer lists the challenge, every field named.
    const withChallenge = await get('/api/stats', '/api/stats', { cookie });
    expect(withChallenge.json().challenges).toMatchObject([{ url: challenged.json().url, outcome: 'open' }]);
    const playOn = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/play-on`,
      headers: { cookie },
      payload: { move: 2 },
    });
    expect(playOn.statusCode).toBe(201);
    check('post', '/api/games/{id}/play-on', 201, playOn.json());
    await app.close();
    expect([...wrong]).toEqual([]);
  });
});
