/**
 * GET /metrics (docs/operations.md, "Metrics"): the Prometheus text format, only with
 * METRICS_TOKEN sent as a bearer token; anything else is the not-found answer of an unknown address. Runs on
 * both backends (vitest.config.ts): the pool's gauges are PostgreSQL's alone.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, describe, expect, test } from 'vitest';
import { parseEnv } from '../../../src/server/config.ts';
import { databaseErrorCode } from '../../../src/server/plugins/metrics.ts';
import { BACKEND, build, createGame, newPlayer, postMoves, query, solutionMoves } from '../helper.ts';
import { startServer } from '../process.ts';

const TOKEN = 'mT4x9QzL2vR8kW1pN6bY3cF7hJ0dS5aG-metrics';

/** GET /metrics with this Authorization header (none: null); the right token by default. */
const scrape = (app: FastifyInstance, authorization: string | null = `Bearer ${TOKEN}`) =>
  app.inject({ url: '/metrics', headers: authorization === null ? {} : { authorization } });

/** The samples of an exposition: `name{labels} value` lines, comments left out. */
function samples(text: string): { name: string; labels: Record<string, string>; value: number }[] {
  return text
    .split('\n')
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
      if (!match) throw new Error(`not a sample line: ${line}`);
      const labels = Object.fromEntries(
        [...(match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1]!, m[2]!]),
      );
      return { name: match[1]!, labels, value: Number(match[3]) };
    });
}

const value = (text: string, name: string, labels: Record<string, string> = {}): number | undefined =>
  samples(text).find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;

/** What a prober sees: the status, the body with the address it asked for taken out, the header names. */
function seenAs(res: LightMyRequestResponse, url: string) {
  const varying = new Set(['x-request-id', 'date', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'content-length']);
  return {
    status: res.statusCode,
    type: res.headers['content-type'],
    body: res.body.replaceAll(url, '<url>'),
    headers: Object.keys(res.headers)
      .filter((h) => !varying.has(h))
      .sort()
      .map((h) => `${h}: ${String(res.headers[h])}`),
  };
}

describe('without METRICS_TOKEN', () => {
  test('/metrics is an unknown address, also with a bearer token', async () => {
    const app = await build();
    const unknown = await app.inject({ url: '/metricz' });
    for (const authorization of [null, `Bearer ${TOKEN}`]) {
      const res = await scrape(app, authorization);
      expect(res.statusCode).toBe(404);
      expect(seenAs(res, '/metrics')).toEqual(seenAs(unknown, '/metricz'));
    }
    expect(app.metrics.enabled).toBe(false);
  });
});

describe('with METRICS_TOKEN', () => {
  test.each([
    ['no Authorization header', null],
    ['an empty header', ''],
    ['another scheme', `Basic ${TOKEN}`],
    ['the token alone', TOKEN],
    ['a wrong token', `Bearer ${TOKEN.slice(0, -1)}x`],
    ['a longer token', `Bearer ${TOKEN}x`],
    ['a prefix of it', `Bearer ${TOKEN.slice(0, 8)}`],
    ['two tokens', `Bearer ${TOKEN} ${TOKEN}`],
  ])('%s: answered exactly as an unknown address', async (_label, authorization) => {
    const app = await build({ metricsToken: TOKEN });
    const unknown = await app.inject({ url: '/metricz', headers: authorization === null ? {} : { authorization } });
    const res = await scrape(app, authorization);
    expect(res.statusCode).toBe(404);
    expect(seenAs(res, '/metrics')).toEqual(seenAs(unknown, '/metricz'));
  });

  test('requests by route pattern and status, latency, deals made, games started and won', async () => {
    const app = await build({ metricsToken: TOKEN });
    const cookie = await newPlayer(app);
    for (const seed of ['metrics-a', 'metrics-b', 'metrics-c'])
      expect((await app.inject({ url: `/play/turtle/${seed}`, headers: { cookie } })).statusCode).toBe(200);
    expect((await app.inject({ url: '/api/deals/turtle/metrics-a?mode=classic' })).statusCode).toBe(200);
    await app.inject({ url: '/no/such/place' });
    await app.inject({ url: '/api/deals/turtle/bad%20seed' }); // 400
    const game = await createGame(app, cookie, { layout: 'turtle', seed: 'metrics-a' });
    expect((await postMoves(app, cookie, game.id, solutionMoves(game))).json().status).toBe('won');

    const res = await scrape(app);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['set-cookie']).toBeUndefined();
    const text = res.body;

    expect(value(text, 'mahjong_http_requests_total', { route: '/play/:layout/:seed', status: '200' })).toBe(3);
    expect(value(text, 'mahjong_http_requests_total', { route: '/api/deals/:layout/:seed', status: '400' })).toBe(1);
    expect(value(text, 'mahjong_http_requests_total', { route: 'unmatched', status: '404' })).toBe(1);
    expect(value(text, 'mahjong_http_requests_total', { route: '/api/games/:id/moves', method: 'POST' })).toBe(1);
    // Bounded labels: the addresses asked for never become label values.
    expect(text).not.toMatch(/metrics-[abc]|no\/such|bad/);
    expect(value(text, 'mahjong_http_request_duration_seconds_count', { route: '/play/:layout/:seed' })).toBe(3);
    expect(
      value(text, 'mahjong_http_request_duration_seconds_bucket', { route: '/play/:layout/:seed', le: '+Inf' }),
    ).toBe(3);
    expect(value(text, 'mahjong_http_request_duration_seconds_sum', { route: '/play/:layout/:seed' })).toBeGreaterThan(
      0,
    );

    expect(value(text, 'mahjong_deals_made_total', { mode: 'relaxed' })).toBe(3);
    expect(value(text, 'mahjong_deals_made_total', { mode: 'classic' })).toBe(1);
    expect(value(text, 'mahjong_games_started_total', { mode: 'relaxed' })).toBe(1);
    expect(value(text, 'mahjong_games_won_total', { mode: 'relaxed' })).toBe(1);
    expect(value(text, 'mahjong_build_info', { backend: BACKEND })).toBe(1);

    // prom-client's defaults: CPU, heap, event-loop lag.
    for (const name of [
      'process_cpu_seconds_total',
      'nodejs_heap_size_used_bytes',
      'nodejs_eventloop_lag_seconds',
      'nodejs_eventloop_lag_p99_seconds',
    ])
      expect(value(text, name), name).toBeGreaterThanOrEqual(0);

    // The pool is PostgreSQL's; SQLite has one connection and no pool.
    const busy = value(text, 'mahjong_database_pool_connections', { state: 'busy' });
    const idle = value(text, 'mahjong_database_pool_connections', { state: 'idle' });
    if (BACKEND === 'postgres') {
      expect(busy).toBeGreaterThanOrEqual(0);
      expect(idle).toBeGreaterThanOrEqual(1);
      expect(value(text, 'mahjong_database_pool_waiting')).toBe(0);
      expect(value(text, 'mahjong_database_pool_max_connections')).toBe(10);
    } else expect(text).not.toContain('mahjong_database_pool');
  });

  test('names follow the conventions: prefix, base units, counters end in _total, HELP and TYPE for each', async () => {
    const app = await build({ metricsToken: TOKEN });
    await app.inject({ url: '/' });
    const text = (await scrape(app)).body;
    const types = new Map(
      [...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)]
        .map((m) => [m[1]!, m[2]!] as const)
        .filter(([n]) => n.startsWith('mahjong_')),
    );
    expect(types.size).toBeGreaterThan(15);
    for (const [name, type] of types) {
      expect(text, name).toMatch(new RegExp(`^# HELP ${name} \\S`, 'm'));
      expect(name).toMatch(/^mahjong_[a-z_]+$/);
      if (type === 'counter') expect(name).toMatch(/_total$/);
      else expect(name).not.toMatch(/_total$/);
      expect(name).not.toMatch(/_(ms|milliseconds|kb|mb|percent)(_|$)/); // base units: seconds, bytes
      if (type === 'histogram') expect(name).toMatch(/_seconds$/);
    }
    // Every sample line parses, and ours are numbers (prom-client's lag mean is NaN before its first sample).
    for (const s of samples(text)) if (s.name.startsWith('mahjong_')) expect(Number.isNaN(s.value), s.name).toBe(false);
  });

  test('deal workers: threads, queue and busy time', async () => {
    const app = await build({ metricsToken: TOKEN, dealer: { workers: 1 } });
    expect((await app.inject({ url: '/api/deals/turtle/metrics-worker?mode=classic' })).statusCode).toBe(200);
    const text = (await scrape(app)).body;
    expect(value(text, 'mahjong_deal_workers')).toBe(1);
    expect(value(text, 'mahjong_deal_worker_tasks_running')).toBe(0);
    expect(value(text, 'mahjong_deal_worker_queue_length')).toBe(0);
    expect(value(text, 'mahjong_deal_worker_tasks_total', { outcome: 'done' })).toBe(1);
    expect(value(text, 'mahjong_deal_worker_busy_seconds_total')).toBeGreaterThan(0);
  });

  test('a database error that fails the health check is counted by its code', async () => {
    const app = await build({ metricsToken: TOKEN });
    await query(app, 'DROP TABLE settings'); // the health check's probe write now fails
    expect((await app.inject({ url: '/healthz' })).statusCode).toBe(503);
    const text = (await scrape(app)).body;
    const code = BACKEND === 'postgres' ? '42P01' : 'SQLITE_ERROR'; // undefined table
    expect(value(text, 'mahjong_database_errors_total', { code })).toBe(1);
  });
});

describe.skipIf(BACKEND === 'postgres')('database error codes', () => {
  test.each([
    [{ code: 'SQLITE_FULL', message: 'database or disk is full' }, 'SQLITE_FULL'],
    [{ code: '57P01', severity: 'FATAL', message: 'terminating connection' }, '57P01'],
    [{ code: 'ECONNREFUSED', message: 'connect ECONNREFUSED 127.0.0.1:5432' }, 'ECONNREFUSED'],
    [new Error('Connection terminated unexpectedly'), 'connection'],
    [new Error('timeout exceeded when trying to connect'), 'connection'],
    [{ code: 'FST_ERR_VALIDATION', message: 'bad' }, undefined],
    [{ code: 'ERR_TIMEOUT', message: 'making this deal took longer' }, undefined],
    [new Error('something else'), undefined],
    ['a string', undefined],
  ])('%j → %s', (error, code) => {
    expect(databaseErrorCode(error)).toBe(code);
  });
});

// The environment and the server process do not depend on the backend: once, in the sqlite project.
describe.skipIf(BACKEND === 'postgres')('METRICS_TOKEN in the environment', () => {
  test.each([
    ['short', /METRICS_TOKEN must be at least 32 characters/],
    ['x'.repeat(40), /METRICS_TOKEN looks weak/],
    ['abcdefghijklmnop qrstuvwxyz0123456789', /visible ASCII characters without spaces/],
    ['é'.repeat(40), /visible ASCII/],
  ])('%j is refused', (token, message) => {
    const env = parseEnv({ METRICS_TOKEN: token });
    expect(env.ok).toBe(false);
    if (!env.ok) expect(env.errors.join('\n')).toMatch(message);
  });

  test('a good one is taken as it is; unset or empty is no metrics', () => {
    expect(parseEnv({ METRICS_TOKEN: TOKEN })).toMatchObject({ ok: true, value: { METRICS_TOKEN: TOKEN } });
    for (const env of [{}, { METRICS_TOKEN: '' }]) {
      const parsed = parseEnv(env);
      expect(parsed.ok && parsed.value.METRICS_TOKEN).toBeUndefined();
    }
  });

  const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-metrics-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('the server exits 2 with one line for a short token, and never prints it', { timeout: 60_000 }, () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
      cwd: path.resolve(import.meta.dirname, '../../..'),
      env: { PATH: process.env.PATH ?? '', DATABASE_PATH: path.join(dir, 'never.db'), METRICS_TOKEN: 'hunter2' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      'mahjong server: environment: METRICS_TOKEN: METRICS_TOKEN must be at least 32 characters (`openssl rand -hex 32`)',
    ]);
    expect(run.stderr).not.toContain('hunter2');
  });

  test('the server process serves /metrics with the token from its environment', { timeout: 60_000 }, async () => {
    const server = await startServer(path.join(dir, 'served.db'), { METRICS_TOKEN: TOKEN });
    try {
      expect((await fetch(`${server.base}/api/layouts`)).status).toBe(200);
      expect((await fetch(`${server.base}/metrics`)).status).toBe(404);
      const res = await fetch(`${server.base}/metrics`, { headers: { authorization: `bearer ${TOKEN}` } });
      expect(res.status).toBe(200);
      const text = await res.text();
      expect(value(text, 'mahjong_http_requests_total', { route: '/api/layouts', status: '200' })).toBe(1);
      expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(0);
      // The token is never logged (the Authorization header is redacted).
      expect(JSON.stringify(server.logs)).not.toContain(TOKEN);
    } finally {
      server.child.kill('SIGTERM');
      await server.exited;
    }
  });
});
