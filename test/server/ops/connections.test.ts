/**
 * Connections that never finish: a stalled body or stalled headers are cut off
 * at their deadline while other clients are served, and one client's pile of stalled sockets does
 * not lock anyone else out. The app listens on 127.0.0.1 with short deadlines; the "other client"
 * connects from 127.0.0.1, the hostile one from 127.0.0.2 (both loopback).
 *
 * Connection budgets (docs/operations.md, "Sockets"): sixteen addresses (127.0.0.2–17) holding stalled sockets up to their per-address cap, and
 * opening a new one whenever one is closed, while forty new clients (each from an address of its own)
 * ask for /healthz: every one gets its answer, because the server sheds the oldest unfinished socket of
 * the client holding the most of them. Before, four such addresses filled every socket and new clients
 * were reset. And a 408 always closes its socket, saying `Connection: close`. A player's idle kept-alive
 * connection survives such an attack, and its next request is answered on it (young stalled sockets of the
 * biggest holders go first).
 */
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../src/server/app.ts';
import { TEST_SECRET } from '../helper.ts';
import type { ConnectionLimits } from '../../../src/server/connections.ts';

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

async function listen(connections: Partial<ConnectionLimits> = SHORT): Promise<number> {
  app = buildApp({
    databasePath: ':memory:',
    cookieSecret: TEST_SECRET,
    logger: false,
    dealer: { workers: 0 },
    connections,
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

/** A new client from `from`: one request on a fresh connection; resolves with its status line, or why none came. */
function newClient(port: number, from: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1', localAddress: from });
    let received = '';
    const timer = setTimeout(() => {
      socket.destroy();
      resolve('no answer in 5 s');
    }, 5_000);
    socket.on('data', (d) => (received += d.toString()));
    socket.on('error', (e) => received === '' && (received = `error: ${e.message}`));
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(received.split('\r\n')[0] || 'closed without an answer');
    });
    socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n'));
  });
}

describe('sixteen addresses holding stalled sockets', () => {
  test('a new client always gets through: the oldest unfinished sockets of the biggest holders are shed', async () => {
    // The caps in the proportions of the defaults (800 in all, 256 an address: three addresses fill it).
    const port = await listen({
      ...SHORT,
      headersTimeoutMs: 3_000,
      requestTimeoutMs: 4_000,
      maxConnections: 120,
      perAddress: 40,
    });
    const attackers = Array.from({ length: 16 }, (_, i) => `127.0.0.${i + 2}`);
    let attacking = true;
    let opened = 0;
    /** Keeps `from` at its cap of stalled sockets: a new one whenever one is closed. */
    const hold = (from: string, k: number): void => {
      if (!attacking) return;
      const socket = connect({ port, host: '127.0.0.1', localAddress: from });
      sockets.push(socket);
      opened++;
      socket.on('error', () => {});
      socket.on('close', () => setTimeout(() => hold(from, k + 1), 20));
      socket.on('connect', () =>
        socket.write(
          k % 2 === 0
            ? 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ' // headers that never end
            : `POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{`, // a body that never ends
        ),
      );
    };
    for (const from of attackers) for (let k = 0; k < 40; k++) hold(from, k);
    await new Promise((r) => setTimeout(r, 500)); // every socket taken
    const answers: string[] = [];
    for (let i = 0; i < 40; i++) answers.push(await newClient(port, `127.0.1.${i + 1}`));
    attacking = false;
    expect(answers.filter((a) => a !== 'HTTP/1.1 200 OK')).toEqual([]);
    const stats = app!.connectionStats();
    expect(stats.open).toBeGreaterThanOrEqual(100); // the attackers held nearly every socket all along
    expect(stats.shed).toBeGreaterThan(0); // room was made, not found
    expect(opened).toBeGreaterThan(16 * 40); // the attackers kept opening sockets all along
  });

  test("a player's idle kept-alive connection is never cut while stalled sockets remain, and its next request is answered", async () => {
    const port = await listen({
      ...SHORT,
      headersTimeoutMs: 3_000,
      requestTimeoutMs: 4_000,
      keepAliveTimeoutMs: 20_000,
      idleTimeoutMs: 20_000,
      maxConnections: 120,
      perAddress: 40,
    });
    // A browser's connection from 127.0.0.1: one answered request, then idle, kept alive.
    const player = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.1' });
    sockets.push(player);
    let heard = '';
    player.on('data', (d) => (heard += d.toString()));
    player.on('error', () => {});
    await new Promise<void>((resolve) => player.once('connect', resolve));
    const ask = async (): Promise<string> => {
      heard = '';
      player.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
      await expect.poll(() => heard, { timeout: 5_000 }).toMatch(/\r\n\r\n\{.*\}$/s);
      return heard.split('\r\n')[0]!;
    };
    expect(await ask()).toBe('HTTP/1.1 200 OK');

    // Sixteen addresses keep their cap of stalled sockets, opening a new one as soon as one is shed.
    let attacking = true;
    const hold = (from: string): void => {
      if (!attacking) return;
      const socket = connect({ port, host: '127.0.0.1', localAddress: from });
      sockets.push(socket);
      socket.on('error', () => {});
      socket.on('close', () => setTimeout(() => hold(from), 5));
      socket.on('connect', () => socket.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    };
    for (let i = 0; i < 16; i++) for (let k = 0; k < 40; k++) hold(`127.0.0.${i + 2}`);
    await new Promise((r) => setTimeout(r, 500)); // every socket taken
    // New visitors meanwhile, each from an address of its own: every one answered.
    const answers: string[] = [];
    for (let i = 0; i < 30; i++) answers.push(await newClient(port, `127.0.2.${i + 1}`));
    await new Promise((r) => setTimeout(r, 1_500)); // the stalled sockets all get younger than a second, over and over
    for (let i = 0; i < 10; i++) answers.push(await newClient(port, `127.0.3.${i + 1}`));
    expect(answers.filter((a) => a !== 'HTTP/1.1 200 OK')).toEqual([]);
    expect(app!.connectionStats().shed).toBeGreaterThan(40); // room was made, over and over
    expect(player.destroyed).toBe(false); // the player's idle connection was never the one cut…
    expect(await ask()).toBe('HTTP/1.1 200 OK'); // … and its next request is answered on it
    attacking = false;
  });

  test('an unfinished socket has a shorter deadline than an idle kept-alive one', async () => {
    const port = await listen({ ...SHORT, headersTimeoutMs: 600, keepAliveTimeoutMs: 5_000 });
    const kept = await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '127.0.0.1'); // answered, then idle
    const unfinished = await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    const cut = await Promise.race([
      unfinished.closed.then(() => 'closed'),
      new Promise((r) => setTimeout(() => r('open'), 2_000)),
    ]);
    expect(cut).toBe('closed'); // at its headers' deadline (600 ms)
    expect(kept.socket.destroyed).toBe(false); // still open at 2 s: kept-alive sockets get 5 s
  });

  test('at the cap, sockets stalled for a second go before an idle kept-alive one', async () => {
    const port = await listen({
      ...SHORT,
      headersTimeoutMs: 5_000,
      requestTimeoutMs: 6_000,
      keepAliveTimeoutMs: 10_000,
      maxConnections: 30,
      perAddress: 40,
    });
    const kept = await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', '127.0.0.1');
    const old = [];
    // Up to the cap (the cookie's fetch may keep a socket of its own open too).
    while (app!.connectionStats().open < 30)
      old.push(await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: '));
    await new Promise((r) => setTimeout(r, 1_200));
    for (let i = 0; i < 10; i++) await stalled(port, 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ');
    await new Promise((r) => setTimeout(r, 100));
    expect(kept.socket.destroyed).toBe(false);
    expect(old.filter((h) => h.socket.destroyed).length).toBe(10); // the ten oldest stalled ones made room
    expect(app!.connectionStats().open).toBe(30);
  });
});

describe('after a 408 the socket is closed', () => {
  test.each([
    ['headers that never end', ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ']],
    [
      'a body that never ends',
      [
        'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCOOKIE\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      ],
    ],
    [
      'a kept-alive socket, then headers that never end',
      ['GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 'GET /healthz HTTP/1.1\r\nHost: 1'],
    ],
    [
      'a kept-alive socket, then a body that never ends',
      [
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n',
        'POST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCOOKIE\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      ],
    ],
    [
      'a pipelined request, then a body that never ends',
      [
        'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\nPOST /api/games HTTP/1.1\r\nHost: 127.0.0.1\r\nCOOKIE\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{',
      ],
    ],
  ])('%s: a 408 that says Connection: close, and the socket closed with it', async (_name, parts) => {
    const port = await listen({ ...SHORT, keepAliveTimeoutMs: 10_000 });
    const socket = connect({ port, host: '127.0.0.1' });
    sockets.push(socket);
    let received = '';
    let at408 = 0;
    socket.on('data', (d) => {
      received += d.toString();
      if (!at408 && / 408 /.test(received)) at408 = Date.now();
    });
    const closed = new Promise<number>((resolve) => socket.on('close', () => resolve(Date.now())));
    await new Promise<void>((resolve) => socket.on('connect', resolve));
    for (const part of parts) {
      socket.write(part.replace('COOKIE', `Cookie: ${cookie}`));
      await new Promise((r) => setTimeout(r, 150));
    }
    const closedAt = await closed;
    const answer = received.slice(received.indexOf('HTTP/1.1 408'));
    expect(answer).toMatch(/^HTTP\/1\.1 408 Request Timeout\r\n/);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'ERR_REQUEST_TIMEOUT' });
    expect(closedAt - at408).toBeLessThan(1_000); // closed with the answer, not at the keep-alive time (10 s)
  });
});
