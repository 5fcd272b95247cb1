/**
 * Hostile input : a table of requests a public site gets from scanners and
 * attackers. Each must be a 4xx with an error in the shape of its route family (JSON
 * `{"error","code"}` under /api/, the HTML error page or the re-shown form elsewhere), never a 5xx,
 * never a reflected script, and must store nothing: the row counts, move logs and nicknames are
 * the same before and after.
 *
 * One app serves the whole table (a victim with a game in progress, an attacker who won today's
 * deal and so may send nicknames); each case comes from its own address, so the rate limits of
 * one case never answer for another (they have their own test in routes/api.test.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { buildApp } from '../../../src/server/app.ts';
import { ERROR_STATUS, type ErrorCode } from '../../../src/server/errors.ts';
import { dailyLayoutOf } from '../../../src/server/services/daily.ts';
import {
  createGame,
  newPlayer,
  postMoves,
  query,
  solutionMoves,
  storage,
  TEST_SECRET,
  type Created,
} from '../helper.ts';

let app: FastifyInstance;
let victim: string; // cookie
let attacker: string; // cookie; has won today's deal
let victimGame: Created;
let attackerGame: Created;
let victimId: string; // the raw player id inside the victim's cookie

beforeAll(async () => {
  app = buildApp({ ...(await storage()), cookieSecret: TEST_SECRET, logger: false, dealer: { workers: 0 } });
  await app.ready();
  victim = await newPlayer(app);
  victimId = victim.split('=')[1]!.split('.')[0]!;
  victimGame = await createGame(app, victim, { layout: 'turtle', seed: 'victim' });
  expect((await postMoves(app, victim, victimGame.id, solutionMoves(victimGame).slice(0, 3))).statusCode).toBe(200);
  attacker = await newPlayer(app);
  const day = new Date(app.now()).toISOString().slice(0, 10);
  const daily = await createGame(app, attacker, { layout: dailyLayoutOf(day), seed: `daily-${day}` });
  expect((await postMoves(app, attacker, daily.id, solutionMoves(daily))).json().status).toBe('won');
  attackerGame = await createGame(app, attacker, { layout: 'turtle', seed: 'victim' });
});

afterAll(async () => {
  await app.close();
});

/** Everything a hostile request could have changed. */
async function snapshot() {
  const one = async (sql: string) => (await query(app, sql))[0];
  const concat = (expr: string) =>
    app.backend === 'postgres' ? `string_agg(${expr}, ',' ORDER BY id)` : `GROUP_CONCAT(${expr})`;
  return {
    players: await one('SELECT COUNT(*) AS n FROM players'),
    deals: await one('SELECT COUNT(*) AS n FROM deals'),
    games: await one('SELECT COUNT(*) AS n FROM games'),
    moves: await one(`SELECT SUM(move_count) AS n, ${concat('moves_json')} AS logs FROM games`),
    names: await one(`SELECT ${concat("COALESCE(nickname, '-')")} AS n FROM players`),
    settings: await one('SELECT COUNT(*) AS n FROM settings'),
    layouts: await one('SELECT COUNT(*) AS n FROM custom_layouts'),
  };
}

const SCRIPT = '<script>alert(1)</script>';
const IMG = '<img src=x onerror=alert(1)>';
/** What must never come back unescaped: a tag of ours (escaped, `&lt;img …` is harmless text). */
const REFLECTED = /<script>alert|<img src=x|<svg onload/i;

type Who = 'victim' | 'attacker' | 'none';

interface Hostile {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  readonly url: string | (() => string);
  readonly who?: Who; // whose cookie goes with it; default the attacker's
  readonly headers?: Record<string, string>;
  readonly payload?: unknown; // an object is sent as JSON; a string as it is
  readonly status?: number; // the exact status, when one is right; else any 4xx
}

const nest = (depth: number): string => '['.repeat(depth) + ']'.repeat(depth);
const moves = (list: unknown) => ({ moves: list });
const gameUrl = (id: () => string) => () => `/api/games/${id()}/moves`;
const VICTIM_MOVES = gameUrl(() => victimGame.id);
const OWN_MOVES = gameUrl(() => attackerGame.id);
const form = { 'content-type': 'application/x-www-form-urlencoded' };
const name = (value: string) => `name=${encodeURIComponent(value)}`;
/** The layout editor's save, as its form sends it (routes/pages/editor.ts). */
const EDITOR = '/layouts/editor';
const TOWER = 'AgIAAgIB'; // a draft of two tiles on each other: the code of (2, 2, 0) and (2, 2, 1)

const CASES: Record<string, Hostile> = {
  // Path traversal, in parameters and in static paths
  'traversal in the layout parameter': { url: '/play/..%2F..%2Fetc%2Fpasswd/abc' },
  'traversal in the seed parameter': { url: '/play/turtle/..%2F..%2Fpackage.json', status: 400 },
  'traversal in the API seed': { url: '/api/deals/turtle/..%2f..%2fmigrations', status: 400 },
  'traversal in a game id': {
    method: 'POST',
    url: '/api/games/..%2F..%2F..%2Fetc%2Fpasswd/moves',
    payload: moves([{ type: 'hint' }]),
  },
  'static: dot-dot': { url: '/static/../package.json' },
  'static: encoded dot-dot': { url: '/static/%2e%2e/%2e%2e/package.json' },
  'static: double-encoded dot-dot': { url: '/static/%252e%252e/package.json' },
  'static: dotfile': { url: '/static/.env' },
  'static: backslashes': { url: '/static/..%5c..%5cpackage.json' },
  // NUL bytes
  'NUL in the seed': { url: '/api/deals/turtle/abc%00def', status: 400 },
  'NUL in the layout of a page': { url: '/play/turtle%00/abc', status: 400 },
  'NUL in a JSON seed': {
    method: 'POST',
    url: '/api/games',
    payload: { layout: 'turtle', seed: 'ab\u0000c' },
    status: 400,
  },
  'NUL in a static path': { url: '/static/css/site.css%00.txt' },
  // Huge numbers and wrong types
  'a tile index of 1e308': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves([{ type: 'match', a: 1e308, b: 0 }]),
    status: 400,
  },
  'a tile index past 2^53': {
    method: 'POST',
    url: OWN_MOVES,
    payload: '{"moves":[{"type":"match","a":9007199254740993,"b":1}]}',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  'a negative tile index': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves([{ type: 'match', a: -1, b: 3 }]),
    status: 400,
  },
  'a fractional tile index': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves([{ type: 'match', a: 0.5, b: 3 }]),
    status: 400,
  },
  'a tile index as a string': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves([{ type: 'match', a: '1', b: '2' }]),
    status: 400,
  },
  'moves as a string': { method: 'POST', url: OWN_MOVES, payload: moves('hint'), status: 400 },
  'moves as an object': { method: 'POST', url: OWN_MOVES, payload: moves({ 0: { type: 'hint' } }), status: 400 },
  'a body of null': {
    method: 'POST',
    url: OWN_MOVES,
    payload: 'null',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  'an unknown move type': { method: 'POST', url: OWN_MOVES, payload: moves([{ type: 'win' }]), status: 400 },
  'a claimed status in the body': {
    method: 'POST',
    url: OWN_MOVES,
    payload: { moves: [{ type: 'hint' }], status: 'won' },
    status: 400,
  },
  'a mode of 1e999': { url: '/play/turtle/abc?mode=1e999', status: 400 },
  'a seed as a number': { method: 'POST', url: '/api/games', payload: { layout: 'turtle', seed: 12345 }, status: 400 },
  // Prototype pollution and deep nesting
  '__proto__ in the body': {
    method: 'POST',
    url: OWN_MOVES,
    payload: '{"moves":[{"type":"hint"}],"__proto__":{"admin":true}}',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  'constructor.prototype in a move': {
    method: 'POST',
    url: OWN_MOVES,
    payload: '{"moves":[{"type":"hint","constructor":{"prototype":{"x":1}}}]}',
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  'JSON nested 20,000 deep': {
    method: 'POST',
    url: OWN_MOVES,
    payload: `{"moves":${nest(20_000)}}`,
    headers: { 'content-type': 'application/json' },
    status: 400,
  },
  'an oversized body (1 MB)': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves(Array(40_000).fill({ type: 'hint' })),
    status: 413,
  },
  'too many moves in one request': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves(Array(501).fill({ type: 'hint' })),
    status: 400,
  },
  'too many shuffles in one request': {
    method: 'POST',
    url: OWN_MOVES,
    payload: moves(Array(21).fill({ type: 'shuffle' })),
    status: 400,
  },
  'an oversized nickname form': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('x'.repeat(10_000)),
    status: 413,
  },
  // Unicode tricks
  'a homoglyph layout (Cyrillic е)': { url: '/play/turtl%D0%B5/abc', status: 400 },
  'an RTL override in a seed': { url: '/api/deals/turtle/%E2%80%AEabc', status: 400 },
  'a zero-width space in a seed': {
    method: 'POST',
    url: '/api/games',
    payload: { layout: 'turtle', seed: 'ab\u200bc' },
    status: 400,
  },
  'a fullwidth seed': { url: '/api/deals/turtle/%EF%BD%81%EF%BD%82', status: 400 },
  'an RTL override nickname': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\u202Egnp.exe'),
    status: 400,
  },
  'a nickname of punctuation only': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('...'),
    status: 400,
  },
  'a nickname of _ - . and spaces only': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('_ - . _'),
    status: 400,
  },
  'a zero-width nickname': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('ad\u200Bmin'),
    status: 400,
  },
  'a homoglyph nickname (Cyrillic А)': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\u0410dmin'),
    status: 400,
  },
  'a homoglyph nickname (Greek ο)': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('r\u03BFot'),
    status: 400,
  },
  'a nickname of combining marks': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('a\u0300\u0301\u0302\u0303'),
    status: 400,
  },
  'a nickname with a BOM and control characters': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\uFEFFbob\u0007'),
    status: 400,
  },
  'a lookalike nickname (Cherokee Ꭺ in Ꭺdmin)': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\u13AAdmin'),
    status: 400,
  },
  'a whole-script lookalike nickname (Cyrillic раураӏ)': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\u0440\u0430\u0443\u0440\u0430\u04CF'),
    status: 400,
  },
  'a blank nickname of Hangul fillers': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('\u3164\u3164'),
    status: 400,
  },
  'a reserved nickname (Anonymous player)': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name('Anonymous player'),
    status: 400,
  },
  // HTML and script in every text field
  'script as the seed of a page': { url: `/play/turtle/${encodeURIComponent(SCRIPT)}`, status: 400 },
  'an img tag as the layout of a page': { url: `/play/${encodeURIComponent(IMG)}/abc`, status: 400 },
  'script as a new-game layout': { url: `/play/${encodeURIComponent(SCRIPT)}`, status: 400 },
  'script as the mode': { url: `/play/turtle/abc?mode=${encodeURIComponent(SCRIPT)}`, status: 400 },
  'script as the API seed': { url: `/api/deals/turtle/${encodeURIComponent(SCRIPT)}`, status: 400 },
  'script in a JSON layout': {
    method: 'POST',
    url: '/api/games',
    payload: { layout: SCRIPT, seed: 'abc' },
    status: 400,
  },
  'script in a move type': { method: 'POST', url: OWN_MOVES, payload: moves([{ type: SCRIPT }]), status: 400 },
  'script as the nickname': { method: 'POST', url: '/daily/name', headers: form, payload: name(SCRIPT), status: 400 },
  'an img tag as the nickname': { method: 'POST', url: '/daily/name', headers: form, payload: name(IMG), status: 400 },
  'script in an unknown page path': { url: `/${encodeURIComponent(SCRIPT)}`, status: 404 },
  'script in an unknown API path': { url: `/api/${encodeURIComponent(SCRIPT)}`, status: 404 },
  'script in the Host header': { url: '/play/turtle/abc', headers: { host: '<svg onload=alert(1)>' }, status: 400 },
  'script as a game id': {
    method: 'POST',
    url: `/api/games/${encodeURIComponent(SCRIPT)}/moves`,
    payload: moves([{ type: 'hint' }]),
  },
  // SQL fragments
  'SQL in the layout': { url: `/api/deals/${encodeURIComponent("turtle' OR '1'='1")}/abc`, status: 400 },
  'SQL in the seed': {
    method: 'POST',
    url: '/api/games',
    payload: { layout: 'turtle', seed: "x'; DROP TABLE games;--" },
    status: 400,
  },
  'SQL in the nickname': {
    method: 'POST',
    url: '/daily/name',
    headers: form,
    payload: name("x'); DELETE FROM players;--"),
    status: 400,
  },
  'SQL in a game id': {
    method: 'POST',
    url: `/api/games/${encodeURIComponent("' OR 1=1 --")}/moves`,
    payload: moves([{ type: 'hint' }]),
    status: 400,
  },
  // Forged and foreign game ids
  'a forged game id': {
    method: 'POST',
    url: '/api/games/AAAAAAAAAAAAAAAA/moves',
    payload: moves([{ type: 'hint' }]),
    status: 404,
  },
  "another player's game": { method: 'POST', url: VICTIM_MOVES, payload: moves([{ type: 'hint' }]), status: 403 },
  "another player's game, with the winning moves": {
    method: 'POST',
    url: VICTIM_MOVES,
    payload: () => moves(solutionMoves(victimGame).slice(3)),
    status: 403,
  },
  "another player's game without a cookie": {
    method: 'POST',
    url: VICTIM_MOVES,
    who: 'none',
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  // Bad cookies
  'an unsigned copy of the victim id': {
    method: 'POST',
    url: VICTIM_MOVES,
    who: 'none',
    headers: { cookie: '' },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  'a cookie with script in it': {
    method: 'POST',
    url: VICTIM_MOVES,
    who: 'none',
    headers: { cookie: `mj_player=${encodeURIComponent(SCRIPT)}` },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  'a cookie signed with another secret': {
    method: 'POST',
    url: VICTIM_MOVES,
    who: 'none',
    headers: { cookie: '' },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  'a 4 KB garbage cookie': {
    method: 'POST',
    url: VICTIM_MOVES,
    who: 'none',
    headers: { cookie: `mj_player=${'%ff'.repeat(1300)}` },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  // Cross-site requests: refused, and never answered with a new player cookie
  'a new game with no cookie': {
    method: 'POST',
    url: '/api/games',
    who: 'none',
    payload: { layout: 'turtle', seed: 'abc' },
    status: 403,
  },
  'a nickname form with no cookie': {
    method: 'POST',
    url: '/daily/name',
    who: 'none',
    headers: form,
    payload: name('pwned'),
    status: 403,
  },
  'a POST from another origin': {
    method: 'POST',
    url: OWN_MOVES,
    headers: { origin: 'http://evil.example' },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  'a POST with Origin: null': {
    method: 'POST',
    url: OWN_MOVES,
    headers: { origin: 'null' },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  'a POST marked Sec-Fetch-Site: cross-site': {
    method: 'POST',
    url: '/daily/name',
    headers: { ...form, 'sec-fetch-site': 'cross-site' },
    payload: name('pwned'),
    status: 403,
  },
  'a POST marked Sec-Fetch-Site: same-site (a sibling subdomain)': {
    method: 'POST',
    url: OWN_MOVES,
    headers: { 'sec-fetch-site': 'same-site' },
    payload: moves([{ type: 'hint' }]),
    status: 403,
  },
  // Stats paging
  'a history page of 1e9': { url: '/api/stats?page=1e9', status: 400 },
  'a negative history page': { url: '/stats?page=-1', status: 400 },
  // Wrong methods and content types
  'XML to the API': {
    method: 'POST',
    url: '/api/games',
    headers: { 'content-type': 'application/xml' },
    payload: '<game/>',
    status: 415,
  },
  'malformed JSON': {
    method: 'POST',
    url: '/api/games',
    headers: { 'content-type': 'application/json' },
    payload: '{"layout":"turtle",',
    status: 400,
  },
  'PUT on a deal': { method: 'PUT', url: '/api/deals/turtle/abc', payload: { tiles: [] }, status: 404 },
  'DELETE on a game': { method: 'DELETE', url: () => `/api/games/${victimGame.id}`, status: 404 },
  'a URL of 8 KB': { url: `/play/turtle/${'a'.repeat(8000)}` },
  // A body type the JSON API does not take (docs/operations.md, "Security")
  'a form-encoded body to the JSON API': {
    method: 'POST',
    url: '/api/games',
    headers: form,
    payload: 'layout=turtle&seed=abc',
    status: 415,
  },
  'a multipart body to the JSON API': {
    method: 'POST',
    url: OWN_MOVES,
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x--',
    status: 415,
  },
  // The layout editor: drafts in addresses and forms, saved as uploads are
  'an editor draft that is not base64url': { url: `${EDITOR}?layout=AA%2BA`, status: 400 },
  'an editor draft cut short': { url: `${EDITOR}?layout=AAAAA`, status: 400 },
  'an editor draft with a tile off the grid': { url: `${EDITOR}?layout=_wAA`, status: 400 },
  'an editor draft of NUL bytes': { url: `${EDITOR}?layout=%00%00%00%00`, status: 400 },
  'an editor draft past 1,000 tiles': { url: `${EDITOR}?layout=${'AAAA'.repeat(1001)}`, status: 400 },
  'two editor drafts in one address': { url: `${EDITOR}?layout=AAAA&layout=AAAB`, status: 400 },
  'an editor layer of 1e9': { url: `${EDITOR}?layout=${TOWER}&z=1e9`, status: 400 },
  'an editor cell far off the grid': { url: `${EDITOR}?layout=${TOWER}&cell=999,999`, status: 409 },
  'an editor cell that is not one': { url: `${EDITOR}?layout=${TOWER}&cell=1;2`, status: 400 },
  'an editor draft opened from a traversal': { url: `${EDITOR}?from=..%2F..%2Fetc%2Fpasswd`, status: 400 },
  'a script for a draft name': {
    url: `${EDITOR}?layout=AA%2BA&name=${encodeURIComponent(SCRIPT)}`,
    status: 400,
  },
  'a download of tiles sharing room': { url: `${EDITOR}.layout?layout=AAAAAQAA`, status: 400 },
  'an editor save of a lone tower, named with a script': {
    method: 'POST',
    url: EDITOR,
    headers: form,
    payload: `layout=${TOWER}&${name(IMG)}`,
    status: 400,
  },
  'an editor save with a damaged draft': {
    method: 'POST',
    url: EDITOR,
    headers: form,
    payload: 'layout=%FF%FE%00%01',
    status: 400,
  },
  'an editor save of 20 KB': {
    method: 'POST',
    url: EDITOR,
    headers: form,
    payload: `layout=${'A'.repeat(20_000)}`,
    status: 413,
  },
  'an editor save with two drafts': {
    method: 'POST',
    url: EDITOR,
    headers: form,
    payload: `layout=${TOWER}&layout=${TOWER}`,
    status: 400,
  },
  'an editor save as JSON of the wrong shape': {
    method: 'POST',
    url: EDITOR,
    payload: { layout: [1, 2, 3], name: { toString: 1 } },
    status: 400,
  },
  'an editor save as multipart': {
    method: 'POST',
    url: EDITOR,
    headers: { 'content-type': 'multipart/form-data; boundary=x' },
    payload: '--x--',
    status: 415,
  },
  'an editor save with no cookie': {
    method: 'POST',
    url: EDITOR,
    who: 'none',
    headers: form,
    payload: 'layout=AAAAAgAA',
    status: 403,
  },
  'an editor save from another origin': {
    method: 'POST',
    url: EDITOR,
    headers: { ...form, origin: 'http://evil.example' },
    payload: 'layout=AAAAAgAA',
    status: 403,
  },
  'an editor save marked Sec-Fetch-Site: cross-site': {
    method: 'POST',
    url: EDITOR,
    headers: { ...form, 'sec-fetch-site': 'cross-site' },
    payload: 'layout=AAAAAgAA',
    status: 403,
  },
  'a malformed URL (%ff%fe): 400 with every security header': { url: '/%ff%fe', status: 400 },
  'a malformed API URL': { url: '/api/deals/%ff/%fe', status: 400 },
};

// Cookies that need the app: filled in per case.
const COOKIE_OF: Partial<Record<string, () => string>> = {
  'an unsigned copy of the victim id': () => `mj_player=${victimId}`,
  'a cookie signed with another secret': () => `mj_player=${victimId}.${'A'.repeat(43)}`,
};

describe('hostile input: 4xx with an error, never 5xx, nothing reflected, nothing stored', () => {
  test('the table is long enough', () => {
    expect(Object.keys(CASES).length).toBeGreaterThanOrEqual(30);
  });

  test.each(Object.entries(CASES).map(([label, c], i) => [label, c, i] as const))('%s', async (label, c, i) => {
    const before = await snapshot();
    const url = typeof c.url === 'function' ? c.url() : c.url;
    const payload = typeof c.payload === 'function' ? (c.payload as () => unknown)() : c.payload;
    const who: Who = c.who ?? 'attacker';
    const headers: Record<string, string> = { ...c.headers };
    if (who !== 'none') headers.cookie = who === 'victim' ? victim : attacker;
    const forced = COOKIE_OF[label];
    if (forced) headers.cookie = forced();
    if (headers.cookie === '') delete headers.cookie;
    const options: InjectOptions = {
      method: c.method ?? 'GET',
      url,
      headers,
      remoteAddress: `10.${(i >> 8) & 255}.${i & 255}.7`, // one address per case: rate limits stay per case
    };
    if (payload !== undefined) options.payload = payload as InjectOptions['payload'];
    const res = await app.inject(options);

    if (c.status !== undefined) expect(res.statusCode, res.body.slice(0, 300)).toBe(c.status);
    expect(res.statusCode, res.body.slice(0, 300)).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    const type = String(res.headers['content-type'] ?? '');
    if (url.startsWith('/api/')) {
      expect(type).toMatch(/^application\/json/);
      const body = res.json() as Record<string, unknown>;
      expect(body.error).toEqual(expect.any(String));
      expect(Object.keys(body)).toEqual(['error', 'code']); // nothing else, nothing echoed
      // A code of the one map, whose status is the answer's (errors.ts ERROR_STATUS).
      expect(Object.keys(ERROR_STATUS)).toContain(body.code);
      expect(ERROR_STATUS[body.code as ErrorCode]).toBe(res.statusCode);
    } else {
      expect(type).toMatch(/^text\/html/);
      expect(res.body).toMatch(/class="error-page"|class="field-error"/);
    }
    expect(res.body).not.toMatch(REFLECTED);
    // Every answer, also the ones fastify makes before routing, carries the CSP and the other headers.
    expect(res.headers['content-security-policy'], 'CSP').toMatch(/default-src 'self'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(JSON.stringify(res.headers)).not.toMatch(REFLECTED);
    expect(await snapshot()).toEqual(before);
    if (options.method !== 'GET') expect(res.headers['set-cookie']).toBeUndefined(); // never a new identity
  });

  test('after all of it, the victim plays on from where they were', async () => {
    const rest = solutionMoves(victimGame).slice(3);
    const res = await postMoves(app, victim, victimGame.id, rest);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'won', moves: 72 });
  });
});

// First-view stamps (docs/fair-play.md): the stamp (services/first-shown.ts) is the one new input: a signed cookie a first page view sets. Whatever a
// client puts there proves nothing but its own real first view, changes nothing for anyone else, and never fails.
describe('hostile stamps: a view is proved only by our own stamp, for its own player and deal', () => {
  const deal = 'turtle:stamp-target:relaxed';
  const sign = (value: string): string => `mj_seen=${encodeURIComponent(app.signCookie(value))}`;
  const STAMPS: Record<string, () => string> = {
    'an unsigned stamp': () => `mj_seen=v1:${victimId}:${deal}:1000000000000`,
    'a stamp signed with another secret': () => `mj_seen=v1:${victimId}:${deal}:1000000000000.${'A'.repeat(43)}`,
    'the victim’s own stamp, sent by the attacker': () => sign(`v1:${victimId}:${deal}:1000000000000`),
    'a stamp of another deal': () => sign(`v1:${victimId}:turtle:other:relaxed:1000000000000`),
    'a stamp from the future': () => sign(`v1:${victimId}:${deal}:9999999999999`),
    'a garbled stamp': () => sign(`v1:${victimId}:${deal}:${SCRIPT}`),
    'a stamp of 4 KB': () => `mj_seen=${'x'.repeat(4096)}`,
    'two stamps at once': () => `${sign(`v1:${victimId}:${deal}:1`)}; __Host-mj_seen=${SCRIPT}`,
  };

  test.each(Object.entries(STAMPS))(
    '%s: the page, the deal and a new game answer as without it',
    async (_label, stamp) => {
      const who = attacker; // a player whose first view of the deal is now
      const cookie = `${who}; ${stamp()}`;
      const page = await app.inject({ url: '/play/turtle/stamp-target', headers: { cookie } });
      expect(page.statusCode).toBe(200);
      expect(page.body).not.toMatch(REFLECTED);
      const api = await app.inject({ url: '/api/deals/turtle/stamp-target', headers: { cookie } });
      expect(api.statusCode).toBe(200);
      expect(api.headers['set-cookie']).toBeUndefined(); // a public answer never sets one
      const game = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie },
        payload: { layout: 'turtle', seed: 'stamp-target' },
      });
      expect(game.statusCode).toBe(201);
      expect(game.headers['set-cookie']).toBeUndefined();
      // The attacker's view of it was recorded at their first real view: no stamp moved it back to 1970.
      const [row] = await query<{ shown_at: number }>(
        app,
        'SELECT v.shown_at FROM first_shown v JOIN deals d ON d.id = v.deal_id WHERE d.seed = ? AND v.player_id = ?',
        'stamp-target',
        attacker.split('=')[1]!.split('.')[0]!,
      );
      expect(Number(row!.shown_at)).toBeGreaterThan(Date.now() - 3_600_000);
    },
  );

  test('a stamp without a player cookie: the page writes nothing, sets a fresh stamp of its own', async () => {
    const before = await snapshot();
    const page = await app.inject({
      url: '/play/turtle/stamp-anon',
      headers: { cookie: STAMPS['an unsigned stamp']!() },
    });
    expect(page.statusCode).toBe(200);
    expect(await snapshot()).toEqual(before);
    const set = page.cookies.find((c) => c.name === 'mj_seen')!;
    expect(app.unsignCookie(decodeURIComponent(set.value))).toMatchObject({ valid: true });
  });
});
