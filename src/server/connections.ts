/**
 * Time limits and caps on connections (issue 9, item 1).
 *
 * A client that opens a socket and never finishes its request (a Content-Length larger than what it
 * sends, a chunked body with no end, headers one byte a minute) would otherwise hold a file
 * descriptor for ever: with fastify's defaults (request and connection timeouts 0) one client with
 * ~1,100 such sockets locked every other client out. So:
 *
 * - `headersTimeoutMs`: the request line and headers must arrive within this (408, then closed).
 * - `requestTimeoutMs`: the whole request, body included, within this (408, then closed).
 * - `idleTimeoutMs`: a socket with no traffic either way is closed (fastify's connectionTimeout).
 * - `keepAliveTimeoutMs`: an idle keep-alive connection between requests is closed after this.
 * - `checkIntervalMs`: how often Node checks the header and request deadlines.
 * - `maxConnections`: open sockets in all; past it a new socket is closed at once (kept under the
 *   usual 1024-descriptor limit, with room for the database and the deal workers).
 * - `perAddress`: open sockets from one client (clientKey: IPv6 by /64); past it a new socket from
 *   that client is closed at once, so one client cannot fill `maxConnections` either. Behind a
 *   proxy (TRUST_PROXY) every socket comes from the proxy, so this cap is off there: the proxy
 *   limits its clients.
 */
import type { Server, Socket } from 'node:net';
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
  requestTimeoutMs: 30_000, // the largest body is 64 KB
  idleTimeoutMs: 120_000, // longer than any answer takes (a new classic deal: at most 15 s)
  keepAliveTimeoutMs: 72_000, // fastify's default: longer than a load balancer's usual 60 s idle timeout
  checkIntervalMs: 1_000,
  maxConnections: 800,
  // A browser holds one or two kept-alive sockets while playing (up to 6 while a page loads), and a
  // school, an office or a carrier's NAT puts many players behind one address (issue 8): room for
  // about 150 playing at once from one address, while one client still cannot take a third of the total.
  perAddress: 256,
};

/** Applies the per-address cap and the total cap to a listening server's sockets. */
export function capConnections(server: Server, limits: ConnectionLimits, log: (address: string) => void): void {
  server.maxConnections = limits.maxConnections;
  if (limits.perAddress <= 0) return;
  const open = new Map<string, number>(); // clientKey → open sockets
  let lastLogged = 0; // ms epoch: one log line a minute at most, not one per refused socket
  server.on('connection', (socket: Socket) => {
    const key = clientKey(socket.remoteAddress ?? '');
    const count = (open.get(key) ?? 0) + 1;
    if (count > limits.perAddress) {
      // One client holding this many sockets is not a person: refuse, before a byte is read.
      socket.destroy();
      if (Date.now() - lastLogged > 60_000) {
        lastLogged = Date.now();
        log(key);
      }
      return;
    }
    open.set(key, count);
    socket.once('close', () => {
      const left = (open.get(key) ?? 1) - 1;
      if (left <= 0) open.delete(key);
      else open.set(key, left);
    });
  });
}
