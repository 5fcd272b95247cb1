/** Ports for the throwaway servers tests start (PostgreSQL, Redis, haproxy, app processes). */
import { createServer } from 'node:net';

/** A free TCP port on 127.0.0.1 (the kernel's pick, released for the caller to take). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
