/**
 * Measures what the caches' values take on the heap, beside what utils/sizes.ts estimates.
 * Run by test/server/ops/memory.test.ts as `node --expose-gc --import tsx test/support/heap-probe.ts`: for each
 * kind of cached value it builds many copies the way the server does, collects garbage, and prints one JSON
 * line `{"kind", "measured", "estimated"}` with bytes per copy. Buffers count with the heap (they live in
 * the process's memory all the same).
 */
import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { layoutById } from '../../src/engine/builtins.ts';
import {
  applyMoves,
  availablePairs,
  deal,
  makeBoard,
  newGame,
  parseBoards,
  replay,
  type Deal,
  type Game,
  type Move,
} from '../../src/engine/index.ts';
import { buildApp } from '../../src/server/app.ts';
import { LocalCounters } from '../../src/server/services/counters.ts';
import { infoOf } from '../../src/server/services/custom-layouts.ts';
import { customLayoutBytes, dealBytes, gameBytes, shapeBytes } from '../../src/server/utils/sizes.ts';
import { readUpload, slotsJson } from '../../src/server/services/upload.ts';
import { bigLayoutMap, BOUNDARY, multipartFile } from './heavy.ts';

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with --expose-gc');

const used = (): number => {
  gc();
  gc();
  const m = process.memoryUsage();
  return m.heapUsed + m.arrayBuffers;
};

/** Bytes per copy of what `make` builds, `n` copies kept alive at once. */
function measure(make: (i: number) => unknown, n: number): number {
  const keep: unknown[] = [];
  const before = used();
  for (let i = 0; i < n; i++) keep.push(make(i));
  const after = used();
  if (keep.length !== n) throw new Error('lost copies');
  return Math.round((after - before) / n);
}

const print = (kind: string, measured: number, estimated: number): void =>
  void process.stdout.write(`${JSON.stringify({ kind, measured, estimated })}\n`);

/** A copy of a string that shares nothing with it (as a row read from the database is). */
const copy = (s: string): string => Buffer.from(s).toString();

const made = (d: ReturnType<typeof deal>): Deal => {
  if (!d.ok) throw new Error(d.message);
  return d.value.deal;
};
const big = readUpload(Buffer.from(bigLayoutMap(0)), 'big.map', '');
if (!big.ok) throw new Error(big.message);
const layouts = { turtle: layoutById('turtle')!, big: big.value.layout };

for (const [name, layout] of Object.entries(layouts)) {
  const json = JSON.stringify(made(deal(layout, 'probe')));
  const n = layout.slots.length;
  // A stored deal as the dealer keeps it, once a game, a page and a shuffle used it (geometry, search tables).
  const stored = measure(
    () => {
      const text = copy(json);
      const d = JSON.parse(text) as Deal;
      const start = newGame(d);
      if (!start.ok) throw new Error(start.message);
      applyMoves(start.value, [{ type: 'shuffle' }]);
      return { id: 1, deal: d, json: text };
    },
    name === 'big' ? 20 : 60,
  );
  print(`deal ${name}`, stored, dealBytes(json, n));

  // Game states as the games cache keeps them: replayed from the stored log and boards.
  const d = JSON.parse(json) as Deal;
  const start = newGame(d);
  if (!start.ok) throw new Error(start.message);
  const solution: Move[] = d.solution.map(([a, b]) => ({ type: 'match', a, b }));
  const turns = (k: number): Move[] => Array.from({ length: k }, (_, i): Move => ({ type: i % 2 ? 'redo' : 'undo' }));
  // Ten matches, each followed by a shuffle (a match is one of the pairs free at the time).
  const mixed: Move[] = [];
  let game = start.value;
  for (let k = 0; k < 10; k++) {
    const [a, b] = availablePairs(game)[0]!;
    const next = applyMoves(game, [{ type: 'match', a, b }, { type: 'shuffle' }]);
    if (!next.ok) throw new Error(next.message);
    game = next.value;
    mixed.push({ type: 'match', a, b }, { type: 'shuffle' });
  }
  const scenarios: Record<string, Move[]> = {
    fresh: [],
    'half played': solution.slice(0, solution.length >> 1),
    '10 shuffles among matches': mixed,
    'the caps: 100 shuffles, 4,800 undo/redo': [...Array<Move>(100).fill({ type: 'shuffle' }), ...turns(4800)],
  };
  for (const [scenario, moves] of Object.entries(scenarios)) {
    const played = applyMoves(start.value, moves);
    if (!played.ok) throw new Error(`${scenario}: ${played.message}`);
    const log = JSON.stringify(played.value.log);
    const boards = played.value.boards.map(makeBoard).join('');
    let last: Game | undefined;
    const bytes = measure(
      () => {
        const known = boards === '' ? undefined : parseBoards(boards, n);
        if (known && !known.ok) throw new Error(known.message);
        const game = replay(d, JSON.parse(log) as Move[], known?.value);
        if (!game.ok) throw new Error(game.message);
        return (last = game.value);
      },
      moves.length > 1000 ? 10 : 400,
    );
    print(`game ${name}, ${scenario}`, bytes, gameBytes(last!));
  }

  // A layout's shape, as the deals store keeps it.
  const shape = slotsJson(layout.slots);
  print(
    `shape ${name}`,
    measure(() => JSON.parse(copy(shape)), 100),
    shapeBytes(n),
  );
}

// A custom layout as its pages keep it (parsed, geometry, picture).
{
  const row = {
    id: big.value.layout.id,
    name: big.value.layout.name,
    format: 'gnome' as const,
    tiles: big.value.layout.slots.length,
    slots: slotsJson(big.value.layout.slots),
    created_at: 0,
  };
  let info = infoOf(row);
  const bytes = measure(() => (info = infoOf({ ...row, slots: copy(row.slots) })), 10);
  print('custom layout 1,000 tiles', bytes, customLayoutBytes(info.tiles, info.drawing.body, info.name));
}

// Counter windows, as LocalCounters keeps them (a key per client and limit).
{
  const counters = new LocalCounters(Date.now);
  const before = used();
  const n = 20_000;
  for (let i = 0; i < n; i++)
    counters.takeNow([
      { key: `rate:POST /api/games/:id/moves:player ${i.toString(36).padStart(22, 'x')}`, max: 9, windowMs: 6e4 },
    ]);
  print('counter window', Math.round((used() - before) / n), Math.round(counters.windows.usage().bytes / n));
}

// Play pages of visitors without a game: what the page cache says it holds against what the heap grew by,
// the deals cache beside it (the pages of a deal keep nothing of the deal but its JSON in #deal-data).
// Asked over a socket: app.inject keeps some of every answer for a while, a real connection does not.
{
  const app = buildApp({
    databasePath: ':memory:',
    cookieSecret: 'probe-secret-probe-secret-probe-secret-0123',
    rateLimit: false,
    dealer: { workers: 0 },
    logger: false,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const get = (path: string, cookie: string, extra: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>(
      (resolve, reject) => {
        const body = extra['content-type'] ? multipartFile(bigLayoutMap(1), 'big.map') : undefined;
        const req = request(
          { host: '127.0.0.1', port, path, agent, method: body ? 'POST' : 'GET', headers: { cookie, ...extra } },
          (res) => {
            let text = '';
            res.on('data', (chunk: Buffer) => (text += chunk.toString()));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
          },
        );
        req.on('error', reject);
        req.end(body);
      },
    );
  const first = await get('/api/stats', '');
  const cookie = /mj_player=[^;]+/.exec(String(first.headers['set-cookie']))![0];
  const up = await get('/layouts', cookie, { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` });
  const id = /c-[0-9a-f]{12}/.exec(String(up.headers.location))?.[0];
  if (!id) throw new Error(`the upload failed: ${up.status} ${up.body.slice(0, 200)}`);
  const held = (): number =>
    app.caches
      .filter((c) => ['play pages', 'deals', 'deal shapes'].includes(c.name))
      .reduce((sum, c) => sum + c.usage().bytes, 0);
  for (const [name, layout, count] of [
    ['turtle', 'turtle', 40],
    ['big', id, 12],
  ] as const) {
    const page = async (seed: string, theme: string) => {
      const res = await get(`/play/${layout}/${seed}`, `${cookie}; theme=${theme}`);
      if (res.status !== 200) throw new Error(`${res.status} ${res.body.slice(0, 200)}`);
    };
    for (let i = 0; i < 20; i++) await page('warm', 'dark'); // templates, the layout's own caches, the sockets
    const before = used();
    const estimated = held();
    for (let i = 0; i < count; i++) for (const theme of ['light', 'dark', 'contrast']) await page(`p${i}`, theme);
    const grown = used() - before;
    print(
      `play pages ${name} (3 per deal) and their deals`,
      Math.round(grown / count),
      Math.round((held() - estimated) / count),
    );
  }
  agent.destroy();
  await app.close();
}
