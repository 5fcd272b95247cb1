/** Deadlines and caps on sockets, and shedding to make room (docs/http.md, "Making room for a socket"). */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Server, Socket } from 'node:net';
import type { ErrorCode } from './errors.ts';
import { clientKey } from './services/limits.ts';

export interface ConnectionLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  idleTimeoutMs: number;
  keepAliveTimeoutMs: number;
  checkIntervalMs: number;
  maxConnections: number;
  perAddress: number; // 0: no per-address cap
}

export const CONNECTION_LIMITS: ConnectionLimits = {
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000, // bodies are at most 96 KB
  idleTimeoutMs: 120_000,
  keepAliveTimeoutMs: 72_000, // longer than a balancer's usual 60 s
  checkIntervalMs: 1_000,
  maxConnections: 800,
  // Room for many players behind one NAT; still under a third of the total.
  perAddress: 256,
};

const HARD_MARGIN = 16; // Node refuses past maxConnections + this

const GRACE_MS = 1_000;
const BROWSER_SOCKETS = 6;

interface Tracked {
  readonly socket: Socket;
  readonly key: string;
  since: number;
  served: number;
  inFlight: number;
  request: IncomingMessage | undefined;
  forget(): void;
}

/** No complete headers yet, or a body still arriving? */
const isUnfinished = (t: Tracked): boolean =>
  (t.served === 0 && t.inFlight === 0) || (t.request !== undefined && !t.request.complete);

const isIdle = (t: Tracked): boolean => t.inFlight === 0 && !isUnfinished(t);

export interface ConnectionLog {
  refused(client: string): void;
  shed(client: string, open: number): void;
  full(open: number): void;
}

export interface ConnectionStats {
  readonly open: number;
  readonly shed: number;
  readonly refused: number;
}

export function capConnections(server: Server, limits: ConnectionLimits, log: ConnectionLog): () => ConnectionStats {
  server.maxConnections = limits.maxConnections + HARD_MARGIN;
  const byKey = new Map<string, Set<Tracked>>();
  const bySocket = new WeakMap<Socket, Tracked>();
  let open = 0;
  let shed = 0;
  let refused = 0;
  const once = { refused: 0, shed: 0, full: 0 }; // last log time of each kind
  const logOnce = (kind: keyof typeof once, say: () => void): void => {
    if (Date.now() - once[kind] < 60_000) return;
    once[kind] = Date.now();
    say();
  };

  /** The oldest socket `pick` takes of the client holding most (at least `least`). */
  function oldestOfBiggest(pick: (t: Tracked) => boolean, least = 1): Tracked | undefined {
    let best: { set: Set<Tracked>; count: number } | undefined;
    for (const set of byKey.values()) {
      let count = 0;
      for (const t of set) if (pick(t)) count++;
      if (count >= least && (!best || count > best.count)) best = { set, count };
    }
    if (best) for (const t of best.set) if (pick(t)) return t;
    return undefined;
  }

  /** The socket to shed for a newcomer, if any. */
  function victim(): Tracked | undefined {
    const now = Date.now();
    return (
      oldestOfBiggest((t) => isUnfinished(t) && now - t.since >= GRACE_MS) ??
      oldestOfBiggest(isUnfinished, 2) ??
      oldestOfBiggest(isIdle, BROWSER_SOCKETS + 1) ??
      oldestOfBiggest(isIdle)
    );
  }

  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress ?? '');
    const mine = byKey.get(key);
    if (limits.perAddress > 0 && (mine?.size ?? 0) >= limits.perAddress) {
      // One client with this many sockets is not a person.
      refused++;
      socket.destroy();
      logOnce('refused', () => log.refused(key));
      return;
    }
    if (open >= limits.maxConnections) {
      const out = victim();
      if (!out) {
        refused++;
        socket.destroy();
        logOnce('full', () => log.full(open));
        return;
      }
      shed++;
      out.forget(); // off the books now: the room the new one takes
      out.socket.destroy();
      logOnce('shed', () => log.shed(out.key, open));
    }
    let set = byKey.get(key); // again: shedding may have removed it
    if (!set) byKey.set(key, (set = new Set()));
    let gone = false;
    const tracked: Tracked = {
      socket,
      key,
      since: Date.now(),
      served: 0,
      inFlight: 0,
      request: undefined,
      forget() {
        if (gone) return;
        gone = true;
        open--;
        set.delete(tracked);
        if (set.size === 0 && byKey.get(key) === set) byKey.delete(key);
      },
    };
    bySocket.set(socket, tracked);
    set.add(tracked);
    open++;
    socket.once('close', () => tracked.forget());
  });

  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const tracked = bySocket.get(request.socket);
    if (!tracked) return;
    tracked.inFlight++;
    tracked.since = Date.now();
    tracked.request = request;
    response.once('close', () => {
      tracked.inFlight--;
      tracked.served++;
      if (tracked.request === request && request.complete) tracked.request = undefined;
    });
  });

  return () => ({ open, shed, refused });
}

/** The client-error answer: 408, 431 or 400, then the socket closed. */
export function answerClientError(error: { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'Request Timeout']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'Request Header Fields Too Large']
        : [400, 'Bad Request'];
  const code: ErrorCode =
    status === 408 ? 'ERR_REQUEST_TIMEOUT' : status === 431 ? 'ERR_HEADERS_TOO_LARGE' : 'ERR_BAD_REQUEST';
  const message =
    status === 408
      ? 'the request did not arrive in time'
      : status === 431
        ? 'the request headers are too large'
        : 'the request is malformed';
  const body = JSON.stringify({ error: message, code });
  if (!socket.writable) return void socket.destroy();
  socket.end(
    `HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
    () => socket.destroy(),
  );
  setTimeout(() => socket.destroy(), 1000).unref(); // a peer that never reads cannot keep it open
}
