/**
 * Security settings: the Content-Security-Policy, the environment's TRUST_PROXY,
 * request ids, the Host header, rate-limit keys and the budget of new deals.
 */
import { describe, expect, test } from 'vitest';
import { parseEnv } from '../../../src/server/config.ts';
import { clientKey } from '../../../src/server/services/limits.ts';
import { build, newPlayer } from '../helper.ts';

const deals = (app: Awaited<ReturnType<typeof build>>): number =>
  (app.db!.prepare('SELECT COUNT(*) AS n FROM deals').get() as { n: number }).n;

describe('absolute links and PUBLIC_ORIGIN', () => {
  test('Host: evil.example never reaches the page; PUBLIC_ORIGIN makes the share link', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/share', headers: { host: 'evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.body).not.toContain('evil.example');
    const pub = await build({ publicOrigin: 'https://mahjong.example' });
    const page = await pub.inject({ url: '/play/turtle/share', headers: { host: 'evil.example' } });
    expect(page.body).toContain('https://mahjong.example/play/turtle/share');
    expect(page.body).not.toContain('evil.example');
    expect(page.cookies.find((c) => c.name === '__Host-mj_player')?.secure).toBe(true); // https origin: the __Host- cookie
  });

  test('PUBLIC_ORIGIN is parsed to its origin; a good COOKIE_SECRET is accepted', () => {
    const env = parseEnv({
      PUBLIC_ORIGIN: 'https://Mahjong.Example:8443/',
      COOKIE_SECRET: 'Kq8vZ2mX0pL4wN7rT1yB5cH9jD3fG6sA',
    });
    expect(env.ok && env.value).toMatchObject({
      PUBLIC_ORIGIN: 'https://mahjong.example:8443',
      COOKIE_SECRET: 'Kq8vZ2mX0pL4wN7rT1yB5cH9jD3fG6sA',
    });
  });

  test('a POST whose Origin is not PUBLIC_ORIGIN is refused, even when it matches the Host', async () => {
    const app = await build({ publicOrigin: 'https://mahjong.example' });
    const first = await app.inject({ url: '/api/stats' });
    const cookie = `__Host-mj_player=${first.cookies.find((c) => c.name === '__Host-mj_player')!.value}`;
    const payload = { layout: 'turtle', seed: 'abc' };
    const spoofed = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, host: 'evil.example', origin: 'http://evil.example' },
      payload,
    });
    expect(spoofed.statusCode).toBe(403);
    const own = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, origin: 'https://mahjong.example' },
      payload,
    });
    expect(own.statusCode).toBe(201);
  });
});

describe('Content-Security-Policy', () => {
  test('strict: our origin only, no inline script, no framing; inline style attributes only', async () => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/csp' });
    const csp = String(res.headers['content-security-policy']);
    const directives = new Map(
      csp.split(';').map((d) => {
        const [name, ...sources] = d.trim().split(/\s+/);
        return [name!, sources] as const;
      }),
    );
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('style-src-attr')).toEqual(["'unsafe-inline'"]);
    expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'self'"]);
    // No third-party origin anywhere, and nothing inline but style attributes.
    for (const [name, sources] of directives) {
      for (const source of sources)
        expect(["'self'", "'none'", 'data:', "'unsafe-inline'"], `${name} ${source}`).toContain(source);
      if (name !== 'style-src-attr') expect(sources, name).not.toContain("'unsafe-inline'");
    }
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    // The page keeps to it: no inline script, no <style> element, no event handler attributes.
    expect(res.body).not.toMatch(/<script(?![^>]*(?:type="module" src=|type="application\/json"))/);
    expect(res.body).not.toMatch(/<style[\s>]/);
    expect(res.body).not.toMatch(/\son[a-z]+="/);
  });
});

describe('TRUST_PROXY and the rest of the environment', () => {
  test.each([
    [undefined, false],
    ['', false],
    ['false', false],
    ['true', true],
    ['1', 1],
    ['10', 10],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.7', ['10.0.0.0/8', '192.168.1.7']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
    ['::1,fd00::/8', ['::1', 'fd00::/8']],
  ])('TRUST_PROXY=%j → %j', (raw, expected) => {
    const env = parseEnv({ TRUST_PROXY: raw });
    expect(env.ok && env.value.TRUST_PROXY).toEqual(expected);
  });

  test.each([
    ['TRUST_PROXY', 'yes', /TRUST_PROXY: "yes" is not/],
    ['TRUST_PROXY', '0', /hop count is 1 to 10/],
    ['TRUST_PROXY', '11', /hop count is 1 to 10/],
    ['TRUST_PROXY', '10.0.0.0/33', /"10.0.0.0\/33" is not/],
    ['TRUST_PROXY', '127.0.0.1,proxy.example', /"proxy.example" is not/],
    ['TRUST_PROXY', '1.2.3.4/8/9', /is not/],
    ['PORT', '70000', /PORT/],
    ['PORT', 'http', /PORT/],
    ['LOG_LEVEL', 'verbose', /LOG_LEVEL is one of fatal, error/],
    ['COOKIE_SECRET', 'short', /at least 32/],
    ['COOKIE_SECRET', ' '.repeat(32), /looks weak/],
    ['COOKIE_SECRET', 'ab'.repeat(20), /looks weak/],
    ['COOKIE_SECRET', ` ${'Kq8vZ2mX0pL4wN7rT1yB5cH9jD3fG6sA'} `, /looks weak/],
    ['PUBLIC_ORIGIN', 'mahjong.example', /PUBLIC_ORIGIN is a URL/],
    ['PUBLIC_ORIGIN', 'https://mahjong.example/play', /scheme, host and port only/],
    ['PUBLIC_ORIGIN', 'ftp://mahjong.example', /scheme, host and port only/],
    ['PUBLIC_ORIGIN', 'https://user:pw@mahjong.example', /scheme, host and port only/],
    ['DEAL_WORKERS', '-1', /DEAL_WORKERS/],
    ['GROWTH_PER_CLIENT_MB', '0', /GROWTH_PER_CLIENT_MB is a whole number of MB from 1 to 65536/],
    ['GROWTH_PER_CLIENT_MB', '1.5', /GROWTH_PER_CLIENT_MB is a whole number/],
    ['GROWTH_PER_CLIENT_MB', 'lots', /GROWTH_PER_CLIENT_MB is a whole number/],
    ['DRAIN_MS', '-1', /DRAIN_MS is a whole number of ms from 0 to 60000/],
    ['DRAIN_MS', '60001', /DRAIN_MS is a whole number of ms from 0 to 60000/],
    ['DRAIN_MS', '5s', /DRAIN_MS is a whole number of ms/],
    ['DATABASE_URL', 'mysql://db/mahjong', /DATABASE_URL is a PostgreSQL URL/],
    ['DATABASE_URL', 'postgres://db', /DATABASE_URL is a PostgreSQL URL/],
    ['DATABASE_URL', 'data/mahjong.db', /DATABASE_URL is a PostgreSQL URL/],
    ['DATABASE_POOL_MAX', '0', /DATABASE_POOL_MAX is a whole number from 1 to 100/],
    ['DATABASE_POOL_MAX', '101', /DATABASE_POOL_MAX is a whole number from 1 to 100/],
    ['DATABASE_POOL_MAX', 'ten', /DATABASE_POOL_MAX is a whole number from 1 to 100/],
    ['REDIS_URL', 'localhost:6379', /REDIS_URL is a URL such as redis:\/\/redis:6379/],
    ['REDIS_URL', 'http://redis:6379', /REDIS_URL is a URL/],
    ['REDIS_URL', 'redis://', /REDIS_URL is a URL/],
  ])('%s=%j is refused', (name, value, message) => {
    const env = parseEnv({ [name]: value });
    expect(env.ok).toBe(false);
    if (!env.ok) expect(env.errors.join('\n')).toMatch(message);
  });

  test('DATABASE_URL selects PostgreSQL with its pool size', () => {
    const env = parseEnv({ DATABASE_URL: 'postgresql://app:pw@db.internal:5432/mahjong', DATABASE_POOL_MAX: '25' });
    expect(env.ok && [env.value.DATABASE_URL, env.value.DATABASE_POOL_MAX]).toEqual([
      'postgresql://app:pw@db.internal:5432/mahjong',
      25,
    ]);
  });

  test('defaults; an empty variable counts as unset', () => {
    const env = parseEnv({ PORT: '', LOG_LEVEL: '' });
    expect(env).toEqual({
      ok: true,
      value: {
        PORT: 3000,
        HOST: '0.0.0.0',
        DATABASE_PATH: 'data/mahjong.db',
        DATABASE_POOL_MAX: 10,
        LOG_LEVEL: 'info',
        TRUST_PROXY: false,
        DEAL_WORKERS: 2,
        GROWTH_PER_CLIENT_MB: 64,
        DRAIN_MS: 5000,
      },
    });
  });

  test('a hop count trusts that many proxies: the last X-Forwarded-For address is the client, its proto the scheme', async () => {
    const app = await build({
      trustProxy: 1,
      dealer: { newDeals: { perMinute: 1, perHour: 10, globalPerMinute: 100 } },
    });
    const via = (forwarded: string, seed: string) =>
      app.inject({
        url: `/play/garden/${seed}`,
        remoteAddress: '10.0.0.1', // the proxy
        headers: { 'x-forwarded-for': forwarded, 'x-forwarded-proto': 'https' },
      });
    const first = await via('198.51.100.1, 203.0.113.9', 'p1');
    expect(first.statusCode).toBe(200);
    expect(first.cookies.find((c) => c.name === '__Host-mj_player')!.secure).toBe(true);
    expect(first.body).not.toContain('localhost'); // absolute links never come from the Host header
    expect((await via('198.51.100.2, 203.0.113.9', 'p2')).statusCode).toBe(429); // same client, spoofed first hop
    expect((await via('198.51.100.1, 192.0.2.10', 'p2')).statusCode).toBe(200); // another client (another /24)
  });

  test('without TRUST_PROXY a client cannot pick its address: rotating X-Forwarded-For does not dodge a limit', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await app.inject({
        method: 'POST', url: '/daily/name', headers: { cookie, 'x-forwarded-for': `198.51.100.${i}` }, payload: { name: 'x' },
      }); // prettier-ignore
      statuses.push(res.statusCode);
    }
    expect(statuses.at(-1)).toBe(429);
  });
});

describe('request ids', () => {
  test('every answer carries X-Request-Id: pages, API, errors, static files', async () => {
    const app = await build();
    const ids = new Set<string>();
    const long = `/play/turtle/${'a'.repeat(300)}`; // a framework error (414), answered before any route
    for (const url of [
      '/',
      '/api/layouts',
      '/api/nothing',
      '/nothing',
      '/static/css/site.css',
      '/healthz',
      '/play/turtle/a%20b',
      long,
    ]) {
      const id = (await app.inject({ url })).headers['x-request-id'];
      expect(id, url).toMatch(/^[A-Za-z0-9_-]{9,64}$/);
      ids.add(id as string);
    }
    expect(ids.size).toBe(8);
  });

  test("a client's X-Request-Id is ignored unless it comes through a trusted proxy, and then only a plain one", async () => {
    const direct = await build();
    expect(
      (await direct.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } })).headers['x-request-id'],
    ).not.toBe('abc-123');
    const proxied = await build({ trustProxy: true });
    expect(
      (await proxied.inject({ url: '/healthz', headers: { 'x-request-id': 'abc-123' } })).headers['x-request-id'],
    ).toBe('abc-123');
    for (const hostile of ['<script>', 'a b', 'x'.repeat(65), 'id"quote'])
      expect(
        (await proxied.inject({ url: '/healthz', headers: { 'x-request-id': hostile } })).headers['x-request-id'],
      ).not.toBe(hostile);
  });

  test('logs are JSON lines with the request id, and never the player cookie', async () => {
    const lines: string[] = [];
    const app = await build({
      logger: { level: 'info', redact: ['req.headers.cookie'], stream: { write: (line: string) => lines.push(line) } },
    });
    const res = await app.inject({ url: '/stats', headers: { cookie: 'mj_player=secret-value' } });
    const logged = lines.map((l) => JSON.parse(l) as { reqId?: string; msg: string });
    const mine = logged.filter((l) => l.reqId === res.headers['x-request-id']);
    expect(mine.map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
    expect(lines.join('\n')).not.toContain('secret-value');
  });
});

describe('the Host header', () => {
  test.each([
    'localhost',
    'localhost:3000',
    'mahjong.example.org',
    'xn--mjong-4qa.example',
    '127.0.0.1:80',
    '[::1]:3000',
  ])('%s is fine', async (host) => {
    const app = await build();
    const res = await app.inject({ url: '/play/turtle/host', headers: { host } });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<a class="share-link" dir="ltr" href="/play/turtle/host">/play/turtle/host</a>'); // never from Host
  });

  test.each(['exa mple.org', 'example.org/evil', 'a"b', 'user@example.org', 'example.org:port', '-x.org'])(
    '%j is a 400',
    async (host) => {
      const app = await build();
      const res = await app.inject({ url: '/play/turtle/host', headers: { host } });
      expect(res.statusCode).toBe(400);
      expect(res.body).toContain('the Host header is not a host name'.replace(/^t/, 'T'));
    },
  );
});

describe('rate-limit keys', () => {
  test.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::99', '2001:db8:1:2::/64'],
    ['2001:0db8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['fe80::1%eth0', 'fe80:0:0:0::/64'],
  ])('%s counts as %s', (ip, key) => {
    expect(clientKey(ip)).toBe(key);
  });
});

describe('the budget of new deals (a GET of a new seed stores a row)', () => {
  const newDeals = { perMinute: 3, perHour: 5, globalPerMinute: 100 };

  test('per client: past the limit a new seed is 429 with Retry-After, stored deals still open, others unaffected', async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock, dealer: { newDeals } });
    const cookie = await newPlayer(app); // a player: their new deals are stored (a visit without a cookie stores none)
    const from = (remoteAddress: string, url: string) => app.inject({ url, remoteAddress, headers: { cookie } });
    for (const seed of ['s1', 's2', 's3'])
      expect((await from('203.0.113.1', `/api/deals/garden/${seed}`)).statusCode).toBe(200);
    const api = await from('203.0.113.1', '/api/deals/garden/s4');
    expect(api.statusCode).toBe(429);
    expect(api.json().error).toMatch(
      /^too many new deals from your address \(at most 3 new deals a minute\); try again in \d+ s/,
    );
    expect(Number(api.headers['retry-after'])).toBeGreaterThan(0);
    const page = await from('203.0.113.1', '/play/garden/s5');
    expect(page.statusCode).toBe(429);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('Too many new deals');
    const create = await app.inject({
      method: 'POST',
      url: '/api/games',
      remoteAddress: '203.0.113.1',
      headers: { cookie },
      payload: { layout: 'garden', seed: 's6' },
    });
    expect(create.statusCode).toBe(429);
    expect(deals(app)).toBe(3);
    // A stored deal costs nothing; another address has its own budget; today's deal is everyone's.
    expect((await from('203.0.113.1', '/play/garden/s1')).statusCode).toBe(200);
    expect((await from('203.0.113.1', '/daily')).statusCode).toBe(200);
    expect((await from('192.0.2.2', '/api/deals/garden/s4')).statusCode).toBe(200);
    // A minute later the minute's budget is back, until the hour's runs out.
    clock += 60_000;
    expect((await from('203.0.113.1', '/api/deals/garden/s7')).statusCode).toBe(200);
    expect((await from('203.0.113.1', '/api/deals/garden/s8')).statusCode).toBe(200);
    const hour = await from('203.0.113.1', '/api/deals/garden/s9');
    expect(hour.statusCode).toBe(429);
    expect(hour.json().error).toMatch(/at most 5 new deals an hour/);
  });

  test('an IPv6 client pays for its whole /64', async () => {
    const app = await build({ dealer: { newDeals } });
    for (let i = 1; i <= 3; i++)
      expect(
        (await app.inject({ url: `/api/deals/garden/v${i}`, remoteAddress: `2001:db8:7:7::${i}` })).statusCode,
      ).toBe(200);
    expect((await app.inject({ url: '/api/deals/garden/v4', remoteAddress: '2001:db8:7:7:ffff::1' })).statusCode).toBe(
      429,
    );
    expect((await app.inject({ url: '/api/deals/garden/v4', remoteAddress: '2001:db8:7:8::1' })).statusCode).toBe(200);
  });

  test('for everyone: many addresses together are held at the global limit with a 503', async () => {
    const app = await build({ dealer: { newDeals: { perMinute: 100, perHour: 100, globalPerMinute: 4 } } });
    const cookie = await newPlayer(app);
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push(
        (await app.inject({ url: `/api/deals/garden/g${i}`, remoteAddress: `198.51.100.${i}`, headers: { cookie } }))
          .statusCode,
      );
    expect(statuses).toEqual([200, 200, 200, 200, 503, 503]);
    expect(deals(app)).toBe(4);
  });

  test('IPv4 counts by /24: 21 neighbouring addresses are one client', async () => {
    const app = await build({ dealer: { newDeals: { perMinute: 3, perHour: 100, globalPerMinute: 100 } } });
    const statuses: number[] = [];
    for (let i = 1; i <= 6; i++)
      statuses.push((await app.inject({ url: `/api/deals/garden/n${i}`, remoteAddress: `203.0.113.${i}` })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429]);
    expect((await app.inject({ url: '/api/deals/garden/n7', remoteAddress: '203.0.114.1' })).statusCode).toBe(200);
  });

  test('seeds the server chose ("New game") have a pool of their own: a crawl of made-up seeds cannot switch them off', async () => {
    const app = await build({
      dealer: { newDeals: { perMinute: 100, perHour: 100, globalPerMinute: 2, chosenPerMinute: 2 } },
    });
    for (let i = 0; i < 3; i++)
      await app.inject({ url: `/api/deals/garden/crawl${i}`, remoteAddress: `198.51.${i}.1` });
    expect((await app.inject({ url: '/api/deals/garden/crawl9', remoteAddress: '198.51.9.1' })).statusCode).toBe(503); // spent
    const newGame = await app.inject({ url: '/play/garden', remoteAddress: '192.0.2.1' });
    expect(newGame.statusCode).toBe(302);
    const board = await app.inject({ url: newGame.headers.location!, remoteAddress: '192.0.2.1' });
    expect(board.statusCode).toBe(200);
  });

  test('rateLimit: false lifts the budget too (benchmarks)', async () => {
    const app = await build({ rateLimit: false });
    for (let i = 0; i < 70; i++) expect((await app.inject({ url: `/api/deals/garden/n${i}` })).statusCode).toBe(200);
  });
});
