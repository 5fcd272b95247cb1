/**
 * Graceful shutdown: on SIGTERM or SIGINT the server stops accepting connections,
 * lets in-flight requests finish, closes the database and exits 0. A request is held in flight
 * deterministically: its headers and half its body are sent, the server logs it as incoming, the
 * signal goes, and only then the rest of the body. A cleanly closed database has checkpointed its
 * WAL into the main file and removed it.
 *
 * Draining first (readiness.ts): when something checks /healthz (a balancer), SIGTERM makes it
 * answer 503 `draining` for DRAIN_MS while every request is still served (closing its connection), and
 * longer while requests keep arriving; then the close above. A second signal ends the drain at once.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { EventEmitter } from 'node:events';
import type { Server } from 'node:http';
import { afterAll, afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { Deal } from '../../../src/engine/index.ts';
import { waitForDrain } from '../../../src/server/readiness.ts';
import { DRAINING } from '../../../src/server/routes/health.ts';
import { Player, startServer, type ServerProcess } from '../process.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'mahjong-shutdown-'));
const servers: ServerProcess[] = [];
afterAll(() => {
  for (const s of servers) if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** Reads one whole HTTP response (Content-Length framed) from a socket. */
function readResponse(socket: Socket): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    let data = '';
    const done = (): boolean => {
      const end = data.indexOf('\r\n\r\n');
      if (end < 0) return false;
      const headers = data.slice(0, end);
      const length = Number(/content-length: (\d+)/i.exec(headers)?.[1] ?? NaN);
      const body = data.slice(end + 4);
      if (Buffer.byteLength(body) < length) return false;
      resolve({ status: Number(headers.split(' ')[1]), headers, body });
      return true;
    };
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString();
      done();
    });
    socket.on('error', reject);
    socket.on('close', () => {
      if (!done())
        reject(new Error(`the connection closed before a whole response: ${JSON.stringify(data.slice(0, 200))}`));
    });
  });
}

test(
  'SIGTERM during a request: it completes, new connections are refused, the database closes cleanly, exit 0',
  { timeout: 60_000 },
  async () => {
    const databasePath = path.join(dir, 'term.db');
    const server = await startServer(databasePath);
    servers.push(server);
    const player = new Player(server.base);
    const created = await player.request('POST', '/api/games', { layout: 'turtle', seed: 'shutdown' });
    expect(created.status).toBe(201);
    const deal = created.json as unknown as Deal & { id: string };
    const body = JSON.stringify({ moves: deal.solution.map(([a, b]) => ({ type: 'match', a, b })) });

    // Headers and the first half of the body; a keep-alive connection, as a browser's.
    const { port } = new URL(server.base);
    const socket = connect(Number(port), '127.0.0.1');
    await new Promise<void>((resolve) => socket.once('connect', resolve));
    const url = `/api/games/${deal.id}/moves`;
    const half = Math.floor(body.length / 2);
    socket.write(
      `POST ${url} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nCookie: ${player.cookie}\r\n` +
        `Content-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body.slice(0, half)}`,
    );
    const response = readResponse(socket);
    await server.waitForLog(
      (l) => l.msg === 'incoming request' && (l.req as { url?: string } | undefined)?.url === url,
    );

    server.child.kill('SIGTERM');
    await server.waitForLog((l) => l.msg.startsWith('shutting down'));
    // No new requests: the listening socket is closed (refused), or, in the instant before it is, a
    // request that slipped in is answered 503 by fastify's closing state.
    const probe = await fetch(`${server.base}/healthz`).then(
      (r) => r.status,
      () => 'refused' as const,
    );
    expect(['refused', 503]).toContain(probe);

    socket.write(body.slice(half));
    const answer = await response;
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toMatchObject({ status: 'won', moves: 72 });
    // The client keeps its keep-alive connection open; the server closes it, so it need not wait for it.
    expect(answer.headers).toMatch(/^connection: close$/im);

    const exit = await server.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(server.logs.some((l) => l.msg === 'closed')).toBe(true);
    expect(existsSync(`${databasePath}-wal`)).toBe(false); // checkpointed into the file and removed on close
    const db = new Database(databasePath, { readonly: true, fileMustExist: true });
    try {
      expect(db.prepare('SELECT result, move_count FROM games WHERE id = ?').get(deal.id)).toEqual({
        result: 'won',
        move_count: 72,
      });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    } finally {
      db.close();
    }
  },
);

test('SIGINT on an idle server: exit 0 and a cleanly closed database', { timeout: 60_000 }, async () => {
  const databasePath = path.join(dir, 'int.db');
  const server = await startServer(databasePath);
  servers.push(server);
  expect((await fetch(`${server.base}/api/deals/garden/idle`)).status).toBe(200); // a write: a deal row
  server.child.kill('SIGINT');
  expect(await server.exited).toEqual({ code: 0, signal: null });
  expect(existsSync(`${databasePath}-wal`)).toBe(false);
});

test('a bad environment exits 2 with one line per problem, before opening anything', { timeout: 60_000 }, () => {
  const databasePath = path.join(dir, 'never.db');
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'src/server/server.ts'], {
    cwd: path.resolve(import.meta.dirname, '../../..'),
    env: { PATH: process.env.PATH ?? '', DATABASE_PATH: databasePath, TRUST_PROXY: 'everyone', LOG_LEVEL: 'loud' },
    encoding: 'utf8',
  });
  expect(run.status).toBe(2);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatch(/^mahjong server: environment: LOG_LEVEL: LOG_LEVEL is one of/);
  expect(lines[1]).toMatch(/^mahjong server: environment: TRUST_PROXY: "everyone" is not true, false/);
  expect(existsSync(databasePath)).toBe(false);
});

describe('draining before the close', () => {
  test(
    'watched: /healthz 503 "draining" while requests are served, closing their connections; then closed; exit 0',
    {
      timeout: 60_000,
    },
    async () => {
      const server = await startServer(path.join(dir, 'drain.db'), { DRAIN_MS: '1500' });
      servers.push(server);
      // A balancer's checks (two, a moment apart): someone is watching.
      for (let i = 0; i < 2; i++) expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
      server.child.kill('SIGTERM');
      await server.waitForLog((l) => l.msg.startsWith('draining'));
      const health = await fetch(`${server.base}/healthz`);
      expect(health.status).toBe(503);
      expect(await health.json()).toEqual({ ok: false, error: DRAINING });
      // New connections are still taken and served, each answer closing its connection.
      const layouts = await fetch(`${server.base}/api/layouts`);
      expect(layouts.status).toBe(200);
      expect(layouts.headers.get('connection')).toBe('close');
      const drained = await server.waitForLog((l) => l.msg === 'drained');
      expect(drained.drainedMs).toBeGreaterThanOrEqual(1500);
      expect(await server.exited).toEqual({ code: 0, signal: null });
      expect(server.logs.some((l) => l.msg === 'closed')).toBe(true);
    },
  );

  test('a second signal ends the drain at once', { timeout: 60_000 }, async () => {
    const server = await startServer(path.join(dir, 'drain2.db'), { DRAIN_MS: '60000' });
    servers.push(server);
    for (let i = 0; i < 2; i++) expect((await fetch(`${server.base}/healthz`)).status).toBe(200);
    server.child.kill('SIGTERM');
    await server.waitForLog((l) => l.msg.startsWith('draining'));
    server.child.kill('SIGTERM');
    const drained = await server.waitForLog((l) => l.msg === 'drained');
    expect(drained.drainedMs).toBeLessThan(60_000);
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  describe('waitForDrain, on a fake clock (its timing on a real one: bench/shutdown.ts)', () => {
    beforeEach(() => {
      vi.useFakeTimers();
    });
    afterEach(() => {
      vi.useRealTimers();
    });
    // A server that only says when a request arrives: all waitForDrain listens to.
    const fakeServer = (): { server: Server; request: (url: string) => void } => {
      const emitter = new EventEmitter();
      return { server: emitter as Server, request: (url) => emitter.emit('request', { url }) };
    };
    const settle = <T>(promise: Promise<T>): { value: T | undefined } => {
      const box: { value: T | undefined } = { value: undefined };
      void promise.then((value) => (box.value = value));
      return box;
    };

    test('quiet: over at DRAIN_MS', async () => {
      const { server } = fakeServer();
      const result = settle(waitForDrain(server, 200, { quietMs: 150, maxExtraMs: 5000 }).done);
      await vi.advanceTimersByTimeAsync(199);
      expect(result.value).toBeUndefined();
      await vi.advanceTimersByTimeAsync(1);
      expect(result.value).toEqual({ drainedMs: 200, quietMs: 200 });
    });

    test('requests past DRAIN_MS keep it open until none came for quietMs; health checks do not count', async () => {
      const { server, request } = fakeServer();
      const result = settle(waitForDrain(server, 200, { quietMs: 400, maxExtraMs: 5000 }).done);
      for (let at = 30; at <= 900; at += 30) {
        await vi.advanceTimersByTimeAsync(30);
        request('/api/layouts');
      }
      for (let at = 920; at < 1300; at += 20) {
        await vi.advanceTimersByTimeAsync(20);
        request('/healthz');
      }
      expect(result.value).toBeUndefined(); // 380 ms quiet after the last request at 900 ms
      await vi.advanceTimersByTimeAsync(40);
      expect(result.value!.quietMs).toBeGreaterThanOrEqual(400);
      expect(result.value!.drainedMs).toBeGreaterThanOrEqual(1300);
      expect(result.value!.drainedMs).toBeLessThanOrEqual(1320); // the next check after 1300 ms
    });

    test('requests that never stop: over after maxExtraMs more', async () => {
      const { server, request } = fakeServer();
      const result = settle(waitForDrain(server, 100, { quietMs: 150, maxExtraMs: 400 }).done);
      while (result.value === undefined) {
        await vi.advanceTimersByTimeAsync(20);
        request('/x');
      }
      expect(result.value.drainedMs).toBeGreaterThanOrEqual(500);
      expect(result.value.drainedMs).toBeLessThanOrEqual(520);
      expect(result.value.quietMs).toBeLessThan(150);
    });

    test('a second signal ends it at once', async () => {
      const { server } = fakeServer();
      const drain = waitForDrain(server, 60_000);
      const result = settle(drain.done);
      await vi.advanceTimersByTimeAsync(10);
      drain.end();
      await vi.advanceTimersByTimeAsync(0);
      expect(result.value).toEqual({ drainedMs: 10, quietMs: 10 });
    });
  });
});
