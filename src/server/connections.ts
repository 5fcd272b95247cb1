/**
 * Time limits and caps on connections (docs/operations.md).
 *
 * A client that opens a socket and never finishes its request (a Content-Length larger than what it
 * sends, a chunked body with no end, headers one byte a minute) would otherwise hold a file
 * descriptor for ever: with fastify's defaults (request and connection timeouts 0) one client with
 * ~1,100 such sockets locked every other client out. So:
 *
 * - `headersTimeoutMs`: the request line and headers must arrive within this (408, then closed).
 * - `requestTimeoutMs`: the whole request, body included, within this (408, then closed).
 * - `idleTimeoutMs`: a socket with no traffic either way is closed (fastify's connectionTimeout).
 * - `keepAliveTimeoutMs`: an idle keep-alive connection between requests is closed after this. The
 *   deadlines of a socket that has not finished its request are the shorter ones.
 * - `checkIntervalMs`: how often Node checks the header and request deadlines.
 * - `maxConnections`: open sockets in all (kept under the usual 1024-descriptor limit, with room for the
 *   database and the deal workers). A new socket past it does not lose its turn: room is made for it.
 * - `perAddress`: open sockets from one client (clientKey: IPv6 by /64); past it a new socket from
 *   that client is closed at once. Behind a proxy (TRUST_PROXY) every socket comes from the proxy, so
 *   this cap is off there: the proxy limits its clients.
 *
 * Making room: with 256 sockets allowed per address and 800 in all, four addresses (a /64
 * each makes four cheap) once held every socket with requests that never finished, and 39 of 41 new
 * clients were reset. Now, when a new socket arrives with `maxConnections` open, the server sheds one:
 * of the client holding the most sockets that have not finished their request (no complete headers yet,
 * or a body still arriving) for a second or more, its oldest such socket; failing that, of the client
 * holding the most younger unfinished sockets (two or more), its oldest; failing that, of the client holding
 * the most kept-alive idle sockets, more than a browser keeps (6), its oldest; and only then, last of all, the
 * oldest idle socket of the client holding the most. A socket whose request is being answered is never shed.
 * So a newcomer, holding one young socket, always gets in while other clients hold stalled or idle sockets,
 * many stalling clients share the room evenly, and a player's kept-alive connection is not cut while any
 * stalling socket is left (sixteen stalling addresses once cut a browser's idle connection 17 times: their
 * sockets, shed and opened again at once, were all younger than a second, so the idle one went first). Only
 * when every open socket is being answered (or is another newcomer's) is a new one refused. A shed socket
 * gets no answer (it never finished asking).
 *
 * A 408 always closes its socket (fastify's answer to a request timeout writes the 408 and destroys the
 * socket; the answer here says `Connection: close` first, so a client that reads it knows).
 */
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
  headersTimeoutMs: 10_000, // a slow phone sends its headers in well under a second
  requestTimeoutMs: 30_000, // the largest body is 64 KB (an upload 96 KB)
  idleTimeoutMs: 120_000, // longer than any answer takes (a new classic deal: at most 15 s)
  keepAliveTimeoutMs: 72_000, // fastify's default: longer than a load balancer's usual 60 s idle timeout
  checkIntervalMs: 1_000,
  maxConnections: 800,
  // A browser holds one or two kept-alive sockets while playing (up to 6 while a page loads), and a
  // school, an office or a carrier's NAT puts many players behind one address: room for
  // about 150 playing at once from one address, while one client still cannot take a third of the total.
  perAddress: 256,
};

const HARD_MARGIN = 16; // Node refuses sockets past maxConnections + this before we see them (a ceiling)

const GRACE_MS = 1_000; // an unfinished socket younger than this is shed only after older unfinished ones
const BROWSER_SOCKETS = 6; // kept-alive sockets a browser holds to one site: a client holding no more keeps them

/** One open socket: whose, since when, and what it is doing. */
interface Tracked {
  readonly socket: Socket;
  readonly key: string; // clientKey of its address
  since: number; // ms epoch: when it connected, or when its latest request began
  served: number; // requests answered on it
  inFlight: number; // requests received and not yet answered
  request: IncomingMessage | undefined; // the latest request, while in flight or while its body is still arriving
  forget(): void; // takes it off the books (at its close, or at once when shed)
}

/**
 * Has the socket not finished its request: no complete headers yet, or a body still arriving (also one
 * answered early, say with a 429, whose body Node still waits for)?
 */
const isUnfinished = (t: Tracked): boolean =>
  (t.served === 0 && t.inFlight === 0) || (t.request !== undefined && !t.request.complete);

/** Is it kept alive between requests, with nothing asked? (A new request's first bytes cannot be seen.) */
const isIdle = (t: Tracked): boolean => t.inFlight === 0 && !isUnfinished(t);

export interface ConnectionLog {
  refused(client: string): void; // a socket past the per-address cap
  shed(client: string, open: number): void; // a socket shed to make room for a new one
  full(open: number): void; // a new socket refused: every open one is being answered
}

/** What the tracker reports (tests, /healthz). */
export interface ConnectionStats {
  readonly open: number;
  readonly shed: number; // sockets shed since start
  readonly refused: number; // sockets refused since start (per-address cap, or all busy)
}

/** Applies the caps and makes room for new sockets (see the module notes). */
export function capConnections(server: Server, limits: ConnectionLimits, log: ConnectionLog): () => ConnectionStats {
  server.maxConnections = limits.maxConnections + HARD_MARGIN;
  const byKey = new Map<string, Set<Tracked>>(); // clientKey → its open sockets, oldest first
  const bySocket = new WeakMap<Socket, Tracked>();
  let open = 0;
  let shed = 0;
  let refused = 0;
  const once = { refused: 0, shed: 0, full: 0 }; // ms epoch of the last log line of each kind: one a minute
  const logOnce = (kind: keyof typeof once, say: () => void): void => {
    if (Date.now() - once[kind] < 60_000) return;
    once[kind] = Date.now();
    say();
  };

  /** The oldest socket that `pick` takes, of the client holding the most such; with `least`, only from a client holding that many. */
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

  /**
   * The socket to shed for a newcomer, if any (see the module notes): an unfinished one past GRACE_MS, else a
   * young unfinished one of a client holding more than one, else an idle kept-alive one of a client holding more
   * than a browser keeps, and only then, last of all, a browser's own idle kept-alive one.
   */
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
      // One client holding this many sockets is not a person: refuse, before a byte is read.
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
      out.forget(); // off the books now, not at its close event: this is the room the new one takes
      out.socket.destroy();
      logOnce('shed', () => log.shed(out.key, open));
    }
    let set = byKey.get(key); // again: shedding may have taken this client's last socket, and its set
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
      // Answered before its body came whole (a refusal): unfinished until the rest arrives, or its deadline.
      if (tracked.request === request && request.complete) tracked.request = undefined;
    });
  });

  return () => ({ open, shed, refused });
}

/**
 * The client-error answer (fastify's `clientErrorHandler`): 408 for a request past its deadline, 431 for
 * headers too large, 400 for anything malformed, each with `Connection: close`, and the socket closed once
 * it is written (at once if it cannot be).
 */
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
    () => socket.destroy(), // written: closed
  );
  setTimeout(() => socket.destroy(), 1000).unref(); // a peer that never reads cannot keep it open either
}
