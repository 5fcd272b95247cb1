/**
 * A small HTTP client for the tests that need a source address of their own: node:http with
 * `localAddress`, so one test process speaks as several clients on 127.0.0.0/8 (every 127.x.y.z is this
 * machine on Linux). One kept-alive agent per source address; each answer comes with its time.
 */
import { Agent, request } from 'node:http';

export interface Answer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
  readonly ms: number; // from sending to the whole answer
}

const agents = new Map<string, Agent>();
const agentFor = (from: string): Agent => {
  let agent = agents.get(from);
  if (!agent) agents.set(from, (agent = new Agent({ keepAlive: true, maxSockets: 8, localAddress: from })));
  return agent;
};

/** Closes every kept-alive socket (call at the end of a test). */
export function closeAgents(): void {
  for (const agent of agents.values()) agent.destroy();
  agents.clear();
}

/** One request from `from` (default 127.0.0.1) to `base` (http://127.0.0.1:PORT). */
export function send(
  base: string,
  method: string,
  path: string,
  opts: { from?: string; headers?: Record<string, string>; body?: string | Buffer; timeoutMs?: number } = {},
): Promise<Answer> {
  const url = new URL(path, base);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname + url.search,
        method,
        agent: agentFor(opts.from ?? '127.0.0.1'),
        headers:
          opts.body === undefined ? opts.headers : { ...opts.headers, 'content-length': Buffer.byteLength(opts.body) },
        timeout: opts.timeoutMs ?? 30_000,
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () =>
          resolve({
            status: res.statusCode!,
            headers: res.headers,
            body: Buffer.concat(chunks).toString(),
            ms: performance.now() - started,
          }),
        );
        res.on('error', reject);
      },
    );
    req.on('timeout', () =>
      req.destroy(new Error(`${method} ${path}: no answer within ${opts.timeoutMs ?? 30_000} ms`)),
    );
    req.on('error', reject);
    req.end(opts.body);
  });
}

/** The `name=value` of a Set-Cookie answer's cookie called `name`, if it set one. */
export function cookieOf(answer: Answer, name: string): string | undefined {
  const set = answer.headers['set-cookie'];
  for (const line of Array.isArray(set) ? set : set ? [set] : []) {
    const m = new RegExp(`^(${name}=[^;]*)`).exec(line);
    if (m) return m[1];
  }
  return undefined;
}
