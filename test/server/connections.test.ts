/**
 * Connections that never finish (issue 9, item 1): a stalled body or stalled headers are cut off
 * at their deadline while other clients are served, and one client's pile of stalled sockets does
 * not lock anyone else out. The app listens on 127.0.0.1 with short deadlines; the "other client"
 * connects from 127.0.0.1, the hostile one from 127.0.0.2 (both loopback).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/server/app.ts';
import { TEST_SECRET } from './helper.ts';

const SHORT = {
  headersTimeoutMs: 400,
  requestTimeoutMs: 800,
  idleTimeoutMs: 5_000,
  checkIntervalMs: 100,
  perAddress: 20,
  maxConnections: 200,
};

let app: FastifyInstance | undefined;
let cookie = ''; // a player's, so the stalled POSTs reach their body (a POST without one is refused at once)
const sockets: Socket[] = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) s.destroy();
  await app?.close();
  app = undefined;
});

async function listen(): Promise<number> {
  app = buildApp({
    databasePath: ':memory:',
    cookieSecret: TEST_SECRET,
    logger: false,
    dealer: { workers: 0 },
    connections: SHORT,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as { port: number }).port;
  const res = await fetch(`http://127.0.0.1:${port}/api/stats`);
  cookie = /mj_player=[^;]+/.exec(res.headers.get('set-cookie') ?? '')![0];
  return port;
}

/** A raw socket from `from` that sends `text` and then nothing; resolves when connected. */
function stalled(port: number, text: string, from = '127.0.0.2'): Promise<{ socket: Socket; closed: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    sockets.push(socket);
    let received = '';
    socket.on('data', (d) => (received += d.toString()));
    const closed = new Promise<string>((done) => socket.on('close', () => done(received)));
    socket.on('error', () => {}); // a refused socket is reset: that is the point
    socket.once('connect', () => {
      socket.write(text);
      resolve({ socket, closed });
    });
    socket.once('error', reject);
  });
}

const healthz = (port: number) => fetch(`http://127.0.0.1:${port}/healthz`, { signal: AbortSignal.timeout(5_000) });

describe('stalled requests are cut off', () => {
  test('a body shorter than its Content-Length: 408 and closed at the deadline, others served meanwhile', async () => {
    const port = await listen();
    const started = Date.now();
    const { closed } = await stalled(
      port,
      `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"layout":`,
    );
    expect((await healthz(port)).status).toBe(200); // while the stalled one waits
    const answer = await closed;
    expect(answer).toMatch(/^HTTP\/1\.1 408/);
    expect(Date.now() - started).toBeLessThan(4_000);
  });

  test('a chunked body that never ends, and headers that never end, are closed too', async () => {
    const port = await listen();
    const chunked = await stalled(
      port,
      `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n{"lay\r\n`,
    );
    const headers = await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    expect(await chunked.closed).toMatch(/^HTTP\/1\.1 408/);
    expect(await headers.closed).toMatch(/^(HTTP\/1\.1 408|$)/);
  });
});

describe('many stalled sockets do not lock others out', () => {
  test('one client with 60 stalled sockets: past 20 they are refused, and another client is served', async () => {
    const port = await listen();
    const held = [];
    for (let i = 0; i < 60; i++)
      held.push(await stalled(port, 'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 100\r\n\r\n{'));
    // The sockets past the cap are closed at once, before any deadline.
    const early = await Promise.race([
      Promise.all(held.slice(20).map((h) => h.closed)).then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('open'), 300)),
    ]);
    expect(early).toBe('closed');
    const res = await healthz(port); // from 127.0.0.1: another client
    expect(res.status).toBe(200);
  });
});
