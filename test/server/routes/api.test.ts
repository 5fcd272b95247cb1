/** The read API, health, the player cookie, and the error and not-found handlers. */
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BANDS, GENERATOR_VERSION, SEED_PATTERN, deal as engineDeal } from '../../../src/engine/index.ts';
import { familyOf, LAYOUTS, layoutById } from '../../../src/engine/builtins.ts';
import { openDatabase } from '../../../src/server/plugins/database.ts';
import { DRAINING, WriteFailures } from '../../../src/server/routes/health.ts';
import { isUnavailable } from '../../../src/server/db/postgres.ts';
import { UNAVAILABLE_RETRY_S } from '../../../src/server/errors.ts';
import { BACKEND, build, closeDatabase, createGame, newPlayer, playerCookie, query } from '../helper.ts';

describe('GET /api/layouts', () => {
  test('as the CLI: [{"id","name","tiles","family"}], turtle first', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/layouts' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toEqual(
      LAYOUTS.map((l) => ({ id: l.id, name: l.name, tiles: l.slots.length, family: familyOf(l.id)!.id })),
    );
    expect(body[0]).toEqual({ id: 'turtle', name: 'Turtle', tiles: 144, family: 'classic' });
  });
});

describe('GET /api/deals/:layout/:seed', () => {
  test('the deal JSON of docs/contracts.md, the same on every request', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/deals/turtle/k3v9x2' });
    expect(res.statusCode).toBe(200);
    const deal = res.json();
    expect(Object.keys(deal)).toEqual(['layout', 'seed', 'mode', 'generator', 'difficulty', 'tiles', 'solution']);
    expect(deal).toMatchObject({ layout: 'turtle', seed: 'k3v9x2', mode: 'relaxed', generator: GENERATOR_VERSION });
    // The difficulty the engine measured when it made the deal (docs/study.md, "Measured difficulty").
    const made = engineDeal(layoutById('turtle')!, 'k3v9x2', 'relaxed');
    expect(made.ok && deal.difficulty).toEqual(made.ok && made.value.deal.difficulty);
    expect(Object.keys(deal.difficulty)).toEqual(['band', 'score']);
    expect(BANDS).toContain(deal.difficulty.band);
    expect(deal.tiles).toHaveLength(144);
    expect(Object.keys(deal.tiles[0])).toEqual(['x', 'y', 'z', 'face']);
    expect(deal.solution).toHaveLength(72);
    const again = await app.inject({ url: '/api/deals/turtle/k3v9x2' });
    expect(again.body).toBe(res.body);
  });

  test('every deal JSON carries its difficulty: the API in both modes, a new game, the CLI', async () => {
    const app = await build();
    for (const mode of ['relaxed', 'classic'] as const) {
      const made = engineDeal(layoutById('garden')!, 'banded', mode);
      if (!made.ok) throw new Error(made.message);
      const served = (await app.inject({ url: `/api/deals/garden/banded?mode=${mode}` })).json();
      expect(served.difficulty).toEqual(made.value.deal.difficulty);
      const cookie = await newPlayer(app);
      const game = await createGame(app, cookie, { layout: 'garden', seed: 'banded', mode });
      expect(game.difficulty).toEqual(made.value.deal.difficulty);
      expect(Object.keys(game).slice(0, 6)).toEqual(['id', 'layout', 'seed', 'mode', 'generator', 'difficulty']);
    }
  });

  test('?mode=classic gives the classic deal; ?mode=relaxed the relaxed one', async () => {
    const app = await build();
    const classic = (await app.inject({ url: '/api/deals/garden/abc?mode=classic' })).json();
    const relaxed = (await app.inject({ url: '/api/deals/garden/abc?mode=relaxed' })).json();
    expect(classic.mode).toBe('classic');
    expect(relaxed.mode).toBe('relaxed');
    expect(classic.tiles).not.toEqual(relaxed.tiles);
  });

  test.each([
    ['/api/deals/nosuch/abc', 404, /no layout called nosuch/],
    ['/api/deals/turtle/abc?mode=hard', 400, /^querystring\.mode/],
    ['/api/deals/turtle/' + 'a'.repeat(33), 400, /^params\.seed/],
    ['/api/deals/turtle/a.b', 400, /^params\.seed/],
    ['/api/deals/turtle/%00', 400, /^params\.seed/],
    ['/api/deals/turtle/%3Cscript%3E', 400, /^params\.seed/],
    ['/api/deals/..%2F..%2Fetc/abc', 400, /^params\.layout/],
    ['/api/deals/TURTLE/abc', 400, /^params\.layout/],
  ])('%s → %i', async (url, status, message) => {
    const app = await build();
    const res = await app.inject({ url });
    expect(res.statusCode).toBe(status);
    expect(res.json()).toEqual({
      error: expect.stringMatching(message),
      code: status === 404 ? 'ERR_UNKNOWN_LAYOUT' : 'ERR_VALIDATION',
    });
    expect(res.body).not.toContain('<script>');
  });

  test('a seed of 32 characters is fine, and every generated seed fits the pattern', async () => {
    const app = await build();
    const seed = 'A-_z'.repeat(8);
    expect(SEED_PATTERN.test(seed)).toBe(true);
    expect((await app.inject({ url: `/api/deals/garden/${seed}` })).statusCode).toBe(200);
  });
});

describe('GET /healthz', () => {
  test('200 {"ok":true} when the database answers', async () => {
    const app = await build();
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect(res.cookies).toHaveLength(0); // health checks get no player cookie
  });

  test('503 when it does not', async () => {
    const app = await build();
    await closeDatabase(app);
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().ok).toBe(false);
  });

  // SQLite only: a full or read-only disk is made with SQLite's pragmas; PostgreSQL's codes are in the next test.
  test.skipIf(BACKEND === 'postgres')('503 with the reason when writes fail: the probe write', async () => {
    const app = await build();
    app.db!.pragma('query_only = ON'); // every write fails, reads still answer (as with a full disk)
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toEqual({ ok: false, error: 'writes to the database are failing (SQLITE_READONLY)' });
  });

  test('storage failures are told from request errors: SQLite and PostgreSQL codes', () => {
    const failures = new WriteFailures(() => 0);
    for (const code of ['SQLITE_FULL', 'SQLITE_IOERR_WRITE', '53100', '25006', '08006', '57P01', 'ECONNREFUSED'])
      expect(failures.record(code), code).toBe(true);
    for (const code of [undefined, 'SQLITE_CONSTRAINT_UNIQUE', '23505', '40001', 'ERR_BAD_MOVE'])
      expect(failures.record(code), code).toBe(false);
    expect(failures.count).toBe(7);
  });

  test('a lost connection counts until the probe reaches the database again; a storage failure for its minute', () => {
    let clock = 1_000;
    const failures = new WriteFailures(() => clock);
    failures.reached();
    clock += 10;
    failures.record('57P01'); // PostgreSQL restarting
    expect([failures.recent(), failures.lostSinceReached()]).toEqual(['57P01', true]);
    clock += 10;
    failures.reached(); // back: the process is ready at once
    expect([failures.recent(), failures.lostSinceReached()]).toEqual([undefined, false]);
    failures.record('53100'); // a full disk: the probe's one row may fit where a game's log does not
    clock += 10;
    failures.reached();
    expect(failures.recent()).toBe('53100');
    clock += 60_000;
    expect(failures.recent()).toBeUndefined();
  });

  test('a database that cannot be reached just now is told from a bug (isUnavailable)', () => {
    const error = (message: string, code?: string) => Object.assign(new Error(message), code ? { code } : {});
    for (const e of [
      error('terminating connection due to administrator command', '57P01'),
      error('the database system is starting up', '57P03'),
      error('the database system is shutting down', '57P03'),
      error('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'),
      error('read ECONNRESET', 'ECONNRESET'),
      error('sorry, too many clients already', '53300'),
      error('Connection terminated unexpectedly'),
      error('Client has encountered a connection error and is not queryable'),
      error('timeout exceeded when trying to connect'),
      new Error('a store failed', { cause: error('x', '08006') }),
    ])
      expect(isUnavailable(e), e.message).toBe(true);
    for (const e of [
      error('duplicate key value violates unique constraint', '23505'),
      error('could not serialize access', '40001'),
      error('syntax error', '42601'),
      error('disk full', '53100'),
      new TypeError('x is undefined'),
      'a string',
      null,
    ])
      expect(isUnavailable(e), String(e)).toBe(false);
  });

  test.skipIf(BACKEND === 'sqlite')(
    'a database away for a moment: 503 ERR_UNAVAILABLE with Retry-After, the page too; /healthz 503 until it answers again',
    async () => {
      let clock = 1_750_000_000_000;
      const app = await build({ now: () => clock });
      const cookie = await newPlayer(app);
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
      const statsOf = app.gamesStore.statsOf;
      app.gamesStore.statsOf = async () => {
        throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
      };
      const api = await app.inject({ url: '/api/stats', headers: { cookie } });
      expect(api.statusCode).toBe(503);
      expect(api.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_S));
      expect(api.json()).toMatchObject({
        code: 'ERR_UNAVAILABLE',
        error: expect.stringMatching(/try again in a few seconds/),
      });
      const page = await app.inject({ url: '/stats', headers: { cookie } });
      expect(page.statusCode).toBe(503);
      expect(page.headers['retry-after']).toBe(String(UNAVAILABLE_RETRY_S));
      expect(page.headers['content-type']).toMatch(/^text\/html/);
      expect(page.body).toContain('cannot be reached just now; try again in a few seconds');
      // The loss counts (the database may still be away) until the probe, tried again within a second, reaches it.
      expect((await app.inject({ url: '/healthz' })).json()).toEqual({
        ok: false,
        error: 'writes to the database are failing (57P01)',
      });
      app.gamesStore.statsOf = statsOf;
      clock += 1_000;
      expect((await app.inject({ url: '/healthz' })).json()).toEqual({ ok: true });
      expect((await app.inject({ url: '/api/stats', headers: { cookie } })).statusCode).toBe(200);
    },
  );

  test('draining: /healthz 503 "draining", every other answer as usual but closing its connection', async () => {
    const app = await build();
    const before = await app.inject({ url: '/api/layouts' });
    expect(before.headers.connection).not.toBe('close');
    app.readiness.drain(Date.now());
    const health = await app.inject({ url: '/healthz?detail=1' });
    expect(health.statusCode).toBe(503);
    expect(health.json()).toMatchObject({ ok: false, error: DRAINING, draining: true });
    const layouts = await app.inject({ url: '/api/layouts' });
    expect(layouts.statusCode).toBe(200);
    expect(layouts.body).toBe(before.body);
    expect(layouts.headers.connection).toBe('close');
  });

  test.skipIf(BACKEND === 'postgres')('503 while a write error a request met is recent, 200 again after', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200); // probed: fine
    app.db!.pragma('max_page_count = ' + String(app.db!.pragma('page_count', { simple: true }))); // the disk is full
    let failed = 0;
    for (let i = 0; i < 200 && failed === 0; i++) {
      const res = await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie },
        payload: { layout: 'turtle', seed: `full${i}` },
      });
      if (res.statusCode === 503) failed++; // a full disk is not our bug: 503 with Retry-After (errors.ts)
    }
    expect(failed).toBe(1);
    const down = await app.inject({ url: '/healthz?detail=1' });
    expect(down.statusCode).toBe(503);
    expect(down.json()).toMatchObject({
      ok: false,
      error: 'writes to the database are failing (SQLITE_FULL)',
      writeFailures: { count: 1, last: { code: 'SQLITE_FULL' } },
    });
    app.db!.pragma('max_page_count = 1073741823');
    clock += 61_000;
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
  });

  test('?detail=1 shows the database size', async () => {
    const app = await build();
    const res = await app.inject({ url: '/healthz?detail=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      ok: true,
      backend: BACKEND,
      database:
        BACKEND === 'sqlite'
          ? { bytes: expect.any(Number), walBytes: 0, freeBytes: expect.any(Number) }
          : { bytes: expect.any(Number), pool: { total: expect.any(Number), idle: expect.any(Number), waiting: 0 } },
    });
    expect(res.json().database.bytes).toBeGreaterThan(0);
  });
});

describe('the player cookie', () => {
  test('made on the first visit: signed, HttpOnly, SameSite=Lax, Path=/, long-lived, not Secure over http', async () => {
    const app = await build();
    const res = await app.inject({ url: '/' });
    const cookie = res.cookies.find((c) => c.name === 'mj_player')!;
    expect(cookie).toBeDefined();
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9+/_-]+$/); // id.signature
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    expect(cookie.maxAge).toBeGreaterThan(300 * 24 * 3600);
    expect(cookie.secure).toBeUndefined();
  });

  test('Secure when the request came over https (behind a trusted proxy)', async () => {
    const app = await build({ trustProxy: true });
    const res = await app.inject({ url: '/', headers: { 'x-forwarded-proto': 'https' } });
    expect(res.cookies.find((c) => c.name === '__Host-mj_player')!.secure).toBe(true); // the __Host- prefix over https
  });

  test('only GET and HEAD make a player; our own pages may POST (same origin)', async () => {
    const app = await build();
    const none = await app.inject({ method: 'POST', url: '/api/games', payload: { layout: 'turtle', seed: 'abc' } });
    expect(none.statusCode).toBe(403);
    expect(none.headers['set-cookie']).toBeUndefined();
    const cookie = await newPlayer(app);
    const own = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, origin: 'http://localhost:80', 'sec-fetch-site': 'same-origin' },
      payload: { layout: 'turtle', seed: 'abc' },
    });
    expect(own.statusCode).toBe(201);
    const head = await app.inject({ method: 'HEAD', url: '/stats' });
    expect(head.cookies.find((c) => c.name === 'mj_player')).toBeDefined();
  });

  test('kept on later visits; a new one only when missing or forged', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const again = await app.inject({ url: '/stats', headers: { cookie } });
    expect(again.cookies).toHaveLength(0);
    const forged = await app.inject({ url: '/stats', headers: { cookie: 'mj_player=AAAAAAAAAAAAAAAAAAAAAA.bogus' } });
    expect(playerCookie(forged)).not.toBe(cookie);
  });

  test('public read-only API routes neither read nor make a player cookie', async () => {
    const app = await build();
    for (const url of ['/api/layouts', '/api/deals/turtle/abc', '/healthz', '/static/css/site.css'])
      expect((await app.inject({ url })).cookies, url).toHaveLength(0);
    expect((await app.inject({ url: '/api/stats' })).cookies).toHaveLength(1);
  });

  test('a visit alone stores no player', async () => {
    const app = await build();
    await app.inject({ url: '/' });
    await app.inject({ url: '/play/turtle/abc' });
    expect(((await query(app, 'SELECT COUNT(*) AS n FROM players'))[0] as { n: number }).n).toBe(0);
  });

  // SQLite only: the secret file beside the database file; PostgreSQL keeps it in the database (next test).
  test.skipIf(BACKEND === 'postgres')(
    'the cookie secret is generated once into <DATABASE_PATH>.secret (0600), not the database; the database file is 0600',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mj-secret-'));
      try {
        const path = join(dir, 'test.db');
        const app = await build({ cookieSecret: undefined, databasePath: path });
        const secret = readFileSync(`${path}.secret`, 'utf8').trim();
        expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(statSync(`${path}.secret`).mode & 0o777).toBe(0o600);
        expect(await app.settingsStore.get('cookie_secret')).toBeUndefined();
        const cookie = await newPlayer(app);
        await createGame(app, cookie); // a write: the WAL file exists now
        for (const file of [path, `${path}-wal`]) expect(statSync(file).mode & 0o777, file).toBe(0o600);
        await app.close();
        const again = await build({ cookieSecret: undefined, databasePath: path });
        const later = await again.inject({ url: '/stats', headers: { cookie } });
        expect(later.cookies).toHaveLength(0); // still valid: signed with the kept secret
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  test.skipIf(BACKEND === 'sqlite')(
    'PostgreSQL: the generated secret is kept in the database, so every process signs alike',
    async () => {
      const one = await build({ cookieSecret: undefined, databasePath: 'shared' });
      const two = await build({ cookieSecret: undefined, databasePath: 'shared' }); // another process on the same database
      const cookie = await newPlayer(one);
      const later = await two.inject({ url: '/stats', headers: { cookie } });
      expect(later.cookies).toHaveLength(0); // valid there too
      expect(await two.settingsStore.get('fleet_cookie_secret')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    },
  );

  test.skipIf(BACKEND === 'postgres')(
    'a secret an older version kept in the database moves to the file; a 0644 database is narrowed to 0600',
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'mj-secret-'));
      try {
        const path = join(dir, 'old.db');
        writeFileSync(path, '', { mode: 0o644 });
        chmodSync(path, 0o644);
        const { db } = openDatabase(path);
        db.prepare("INSERT INTO settings (key, value) VALUES ('cookie_secret', ?)").run(
          's'.repeat(10) + 'Ab3-_xYz9QwErTyUiOp',
        );
        db.close();
        chmodSync(path, 0o644);
        const app = await build({ cookieSecret: undefined, databasePath: path });
        expect(readFileSync(`${path}.secret`, 'utf8').trim()).toBe('s'.repeat(10) + 'Ab3-_xYz9QwErTyUiOp');
        expect(await app.settingsStore.get('cookie_secret')).toBeUndefined();
        expect(statSync(path).mode & 0o777).toBe(0o600);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});

describe('errors', () => {
  test('an unknown API route is a JSON 404', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'there is no GET /api/nothing', code: 'ERR_NOT_FOUND' });
  });

  test('a path parameter past the router limit is a 414 in the usual shapes', async () => {
    const app = await build();
    const api = await app.inject({ url: '/api/deals/turtle/' + 'a'.repeat(300) });
    expect(api.statusCode).toBe(414);
    expect(api.json()).toEqual({ error: 'a part of this address is too long', code: 'ERR_URI_TOO_LONG' });
    const page = await app.inject({ url: '/play/turtle/' + 'a'.repeat(300) });
    expect(page.statusCode).toBe(414);
    expect(page.body).toContain('class="error-page"');
  });

  test('a wrong method on an API route is a JSON 404', async () => {
    const app = await build();
    const res = await app.inject({ method: 'DELETE', url: '/api/layouts' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: 'there is no DELETE /api/layouts', code: 'ERR_NOT_FOUND' });
  });

  test('a 500 hides its message and stack, gives the request id, and is logged with it', async () => {
    const lines: string[] = [];
    const app = await build({ logger: { level: 'error', stream: { write: (line: string) => lines.push(line) } } });
    const cookie = await newPlayer(app);
    await closeDatabase(app); // every query now throws
    const api = await app.inject({ url: '/api/stats', headers: { cookie } });
    expect(api.statusCode).toBe(500);
    expect(Object.keys(api.json())).toEqual(['error', 'code']);
    expect(api.json().code).toBe('ERR_INTERNAL');
    const id = api.headers['x-request-id'] as string;
    expect(id).toMatch(/^[A-Za-z0-9_-]{9,64}$/);
    expect(api.json().error).toBe(`something went wrong on our side; it was logged as request ${id}`);
    expect(api.body).not.toMatch(/database|connection|pool|at .*\.ts/i);
    const page = await app.inject({ url: '/stats', headers: { cookie } });
    expect(page.statusCode).toBe(500);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Something went wrong');
    expect(page.body).not.toMatch(/database connection|at .*\.ts:\d+/i);
    const logged = lines.map((l) => JSON.parse(l)).filter((l) => l.msg === 'request failed');
    expect(logged).toHaveLength(2);
    expect(logged[0]).toMatchObject({ method: 'GET', url: '/api/stats', reqId: id });
    expect(logged[0].err.stack).toMatch(BACKEND === 'sqlite' ? /database/ : /pool/); // the cause, in the log only
  });
});

describe('rate limits', () => {
  test('writes are limited with a clear 429: JSON with a code for the API, the error page for forms', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++)
      statuses.push(
        (await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie }, payload: { name: 'x' } }))
          .statusCode,
      );
    expect(statuses.slice(0, 10).every((s) => s === 403)).toBe(true);
    const limited = await app.inject({
      method: 'POST',
      url: '/daily/name',
      headers: { cookie },
      payload: { name: 'x' },
    });
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['content-type']).toMatch(/^text\/html/);
    expect(limited.body).toMatch(/too many requests: at most 10 per minute; try again in/i);
    expect(limited.headers['retry-after']).toBeDefined();
    for (let i = 0; i < 30; i++)
      await app.inject({
        method: 'POST',
        url: '/api/games',
        headers: { cookie },
        payload: { layout: 'garden', seed: 'rl' },
      });
    const api = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: 'garden', seed: 'rl' },
    });
    expect(api.statusCode).toBe(429);
    expect(api.json()).toEqual({
      error: expect.stringMatching(/^too many requests: at most 30 per minute/),
      code: 'ERR_RATE_LIMITED',
    });
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    // Reads are not limited.
    expect((await app.inject({ url: '/api/deals/garden/rl' })).statusCode).toBe(200);
  });

  test('rateLimit: false turns the limits off', async () => {
    const app = await build({ rateLimit: false });
    const cookie = await newPlayer(app);
    for (let i = 0; i < 12; i++)
      expect(
        (await app.inject({ method: 'POST', url: '/daily/name', headers: { cookie }, payload: { name: 'x' } }))
          .statusCode,
      ).toBe(403);
  });
});

describe('static assets', () => {
  test('hashed build files are immutable for a year; others cached briefly; no directory listing', async () => {
    const app = await build();
    const css = await app.inject({ url: '/static/css/site.css' });
    expect(css.statusCode).toBe(200);
    expect(css.headers['cache-control']).toBe('public, max-age=300');
    const built = app.assets.url('board.css');
    if (app.assets.built) {
      const res = await app.inject({ url: built! });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      const br = await app.inject({ url: built!, headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.rawPayload.length).toBeLessThan(res.rawPayload.length);
    }
    for (const url of [
      '/static/',
      '/static/build/',
      '/static/../package.json',
      '/static/%2e%2e/package.json',
      '/static/.env',
    ]) {
      const res = await app.inject({ url });
      expect([403, 404], url).toContain(res.statusCode);
      expect(res.body).not.toContain('"dependencies"');
    }
  });
});
