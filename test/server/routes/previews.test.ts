/**
 * Link previews (docs/contracts.md, "Finding the site and link previews"): every board page (a deal, a daily,
 * a replay, a custom layout) carries its Open Graph and Twitter card tags, and its `og:image` answers a PNG of
 * 1200 × 630 showing that board, content-addressed and immutable, from the cache the second time; bad
 * addresses are 4xx, never 500; a client asking for many distinct images is held by its CPU budget (429).
 */
import { inflateSync } from 'node:zlib';
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { boxOf } from '../../../src/shared/box.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import { build, newPlayer } from '../helper.ts';

const ORIGIN = 'http://mahjong.example'; // http: the player cookie keeps its plain name (helper.ts newPlayer)

/** The content of `<meta property|name="key" content="…">`, unescaped enough for URLs. */
function meta(html: string, key: string): string | undefined {
  const m = new RegExp(`<meta (?:property|name)="${key.replace(/[:.]/g, '\\$&')}" content="([^"]*)">`).exec(html);
  return m?.[1]?.replace(/&amp;/g, '&');
}

/** Width and height from a PNG's IHDR, after checking the signature. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  expect(png.subarray(12, 16).toString('ascii')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/**
 * The RGBA pixel at (x, y) of an 8-bit PNG, RGBA (6) or palette (3, what the server writes: services/png-palette.ts):
 * its IDATs inflated and unfiltered, a palette index looked up in PLTE.
 */
function pixelAt(png: Buffer, x: number, y: number): [number, number, number, number] {
  const width = png.readUInt32BE(16);
  expect(png.readUInt8(24)).toBe(8); // bit depth
  const type = png.readUInt8(25);
  expect([3, 6]).toContain(type);
  const bpp = type === 6 ? 4 : 1; // bytes a pixel
  const idat: Buffer[] = [];
  let plte: Buffer = Buffer.alloc(0);
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    const kind = png.subarray(at + 4, at + 8).toString('ascii');
    if (kind === 'IDAT') idat.push(png.subarray(at + 8, at + 8 + length));
    if (kind === 'PLTE') plte = png.subarray(at + 8, at + 8 + length);
    at += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * bpp;
  let prev = Buffer.alloc(stride);
  let row = prev;
  for (let r = 0; r <= y; r++) {
    const filter = raw[r * (stride + 1)]!;
    const line = raw.subarray(r * (stride + 1) + 1, (r + 1) * (stride + 1));
    row = Buffer.alloc(stride);
    for (let i = 0; i < stride; i++) {
      const a = i >= bpp ? row[i - bpp]! : 0;
      const b = prev[i]!;
      const c = i >= bpp ? prev[i - bpp]! : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const predictor = [0, a, b, (a + b) >> 1, pa <= pb && pa <= pc ? a : pb <= pc ? b : c][filter]!;
      row[i] = (line[i]! + predictor) & 0xff;
    }
    prev = row;
  }
  if (type === 6) return [row[x * 4]!, row[x * 4 + 1]!, row[x * 4 + 2]!, row[x * 4 + 3]!];
  const entry = row[x]! * 3;
  expect(entry + 3).toBeLessThanOrEqual(plte.length);
  return [plte[entry]!, plte[entry + 1]!, plte[entry + 2]!, 255];
}

/** The path of an absolute og:image under ORIGIN. */
const pathOf = (url: string): string => {
  expect(url.startsWith(`${ORIGIN}/og/`)).toBe(true);
  return url.slice(ORIGIN.length);
};

async function checkPage(app: FastifyInstance, url: string, headers: Record<string, string> = {}) {
  const page = await app.inject({ url, headers });
  expect(page.statusCode, url).toBe(200);
  const html = page.body;
  for (const key of [
    'og:title',
    'og:description',
    'og:url',
    'og:image',
    'og:image:width',
    'og:image:height',
    'og:image:alt',
  ])
    expect(meta(html, key), `${url} ${key}`).toBeTruthy();
  expect(meta(html, 'twitter:card')).toBe('summary_large_image');
  expect(meta(html, 'og:image:width')).toBe('1200');
  expect(meta(html, 'og:image:height')).toBe('630');
  expect(meta(html, 'og:url')!.startsWith(ORIGIN)).toBe(true);
  return { html, image: pathOf(meta(html, 'og:image')!) };
}

describe('link previews', () => {
  test('a deal page: its tags, and its image a 1200 × 630 PNG of the board, cached and immutable', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    const { html, image } = await checkPage(app, '/play/turtle/og-deal');
    expect(meta(html, 'og:url')).toBe(`${ORIGIN}/play/turtle/og-deal`);
    expect(meta(html, 'og:title')).toContain('og-deal');
    expect(image).toMatch(/^\/og\/[0-9a-f]{16}\.png\?layout=turtle&faces=[a-zA-P]{144}$/);
    const t0 = performance.now();
    const first = await app.inject({ url: image });
    const drawnMs = performance.now() - t0;
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toBe('image/png');
    expect(first.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(pngSize(first.rawPayload)).toEqual({ width: 1200, height: 630 });
    expect(first.rawPayload.readUInt8(25)).toBe(3); // a palette PNG: a quarter of a full-colour one's bytes
    expect(first.rawPayload.length).toBeLessThan(150_000);
    const t1 = performance.now();
    const second = await app.inject({ url: image });
    const cachedMs = performance.now() - t1;
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(cachedMs).toBeLessThan(drawnMs);
    console.log(
      `turtle preview: ${first.rawPayload.length} bytes, drawn in ${drawnMs.toFixed(0)} ms, cached ${cachedMs.toFixed(1)} ms`,
    );
    // The right board: the table's felt in a corner, and an ivory face where the turtle's lone tile on its
    // left end (the free tile of row y = 7, x = 0) shows a blank strip above its art.
    const png = first.rawPayload;
    expect(pixelAt(png, 3, 3)).toEqual([0x3f, 0x84, 0x70, 255]);
    const slots = layoutById('turtle')!.slots;
    const box = boxOf(slots, 0, 0);
    const tile = Math.min((1200 - 56) / box.bw, (630 - 56) / box.bh);
    const left = (1200 - box.bw * tile) / 2 + box.ox * tile;
    const top = (630 - box.bh * tile) / 2 + box.oy * tile;
    const lone = slots.find((s) => s.x === 0 && s.z === 0)!;
    const [r, g, b] = pixelAt(png, Math.round(left + tile * 0.5), Math.round(top + ((lone.y * 2) / 3) * tile + 2));
    expect(r).toBeGreaterThan(230); // the face's ivory (#fbf6e9 … #fffdf6), not the felt or a side (#d9c9a0)
    expect(g).toBeGreaterThan(225);
    expect(b).toBeGreaterThan(200);
    if (process.env.OG_PNG_OUT) (await import('node:fs')).writeFileSync(process.env.OG_PNG_OUT, first.rawPayload);
    // The same deal in classic mode is another board: another image.
    const classic = await checkPage(app, '/play/turtle/og-deal?mode=classic');
    expect(classic.image).not.toBe(image);
  });

  test('the daily page, a replay and a custom layout page carry theirs too', async () => {
    const app = await build({ publicOrigin: ORIGIN, cpu: { clientBurstMs: 60_000, clientPerMinuteMs: 60_000 } });
    const daily = await checkPage(app, '/daily');
    expect(meta(daily.html, 'og:url')).toBe(`${ORIGIN}/daily`);
    expect((await app.inject({ url: daily.image })).statusCode).toBe(200);

    const cookie = await newPlayer(app);
    const created = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, origin: ORIGIN },
      payload: { layout: 'turtle', seed: 'og-replay' },
    });
    expect(created.statusCode).toBe(201);
    const game = created.json<{ id: string; solution: [number, number][] }>();
    const [a, b] = game.solution[0]!;
    const moved = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/moves`,
      headers: { cookie, origin: ORIGIN },
      payload: { moves: [{ type: 'match', a, b }] },
    });
    expect(moved.statusCode).toBe(200);
    const shared = await app.inject({
      method: 'POST',
      url: `/api/games/${game.id}/replay`,
      headers: { cookie, origin: ORIGIN },
    });
    const replayUrl = shared.json<{ url: string }>().url;
    const start = await checkPage(app, replayUrl);
    const after = await checkPage(app, `${replayUrl}?move=1`);
    expect(after.image).not.toBe(start.image); // two tiles fewer
    expect(after.image).toMatch(/faces=[a-zA-P-]*-/); // the pair taken is gone from the picture
    expect((await app.inject({ url: after.image })).statusCode).toBe(200);

    const upload = await app.inject({
      method: 'POST',
      url: '/layouts',
      headers: { cookie, origin: ORIGIN, 'content-type': 'multipart/form-data; boundary=X' },
      payload: [
        '--X',
        'Content-Disposition: form-data; name="file"; filename="small.map"',
        'Content-Type: text/xml',
        '',
        '<mahjongg><map name="Small"><row left="0" right="3" y="0"/><row left="0" right="3" y="1"/><row left="0" right="3" y="2"/><row left="0" right="3" y="3"/><row left="0" right="3" y="4"/><row left="0" right="3" y="5"/><row left="0" right="3" y="6"/><row left="0" right="3" y="7"/><row left="0" right="3" y="8"/></map></mahjongg>',
        '--X--',
        '',
      ].join('\r\n'),
    });
    expect(upload.statusCode, upload.body.slice(0, 300)).toBe(303);
    const custom = await checkPage(app, upload.headers.location as string);
    expect(custom.image).toContain('layout=c-');
    const png = await app.inject({ url: custom.image });
    expect(png.statusCode).toBe(200);
    expect(pngSize(png.rawPayload)).toEqual({ width: 1200, height: 630 });
  });
});

describe('the image route', () => {
  const turtle = async (app: FastifyInstance, seed: string) => (await checkPage(app, `/play/turtle/${seed}`)).image;

  test('bad addresses are 4xx, never 500', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    const image = await turtle(app, 'og-bad');
    const [file, search] = image.split('?') as [string, string];
    const faces = new URLSearchParams(search).get('faces')!;
    const other = `${faces.slice(0, -1)}${faces.endsWith('a') ? 'b' : 'a'}`;
    const cases: [string, number][] = [
      ['/og/nothex0000000000.png?layout=turtle&faces=ab', 400], // not a hash
      ['/og/0123456789abcdef.jpg?layout=turtle&faces=ab', 400],
      [`${file}`, 400], // no recipe
      [`${file}?layout=turtle&faces=${faces.replace(/^./, 'Z')}`, 400], // a letter that is no face
      [`${file}?layout=turtle&faces=${other}`, 404], // another board than the hash says
      [`${file}?layout=turtle&faces=${faces.slice(2)}`, 404], // too few slots
      [`${file}?layout=no-such-layout&faces=${faces}`, 404],
      [`${file}?layout=c-0123456789ab&faces=${faces}`, 404],
      [`${file}?layout=turtle&faces=${'a'.repeat(1001)}`, 400],
    ];
    for (const [url, status] of cases) {
      const res = await app.inject({ url });
      expect(res.statusCode, url).toBe(status);
    }
    expect((await app.inject({ url: image })).statusCode).toBe(200);
  });

  test('a client asking for many distinct images is held by its CPU budget; another client is not', async () => {
    const app = await build({ publicOrigin: ORIGIN });
    const images: string[] = [];
    for (let i = 0; i < 12; i++) images.push(await turtle(app, `og-many-${i}`));
    const statuses: number[] = [];
    for (const url of images) {
      const res = await app.inject({ url, remoteAddress: '203.0.113.7' });
      statuses.push(res.statusCode);
      if (res.statusCode === 429) expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    expect(statuses[0]).toBe(200);
    expect(statuses).toContain(429);
    // Someone else, on another network, still gets theirs at once (the refusals drew nothing).
    const other = await app.inject({ url: images.at(-1)!, remoteAddress: '198.51.100.9' });
    expect(other.statusCode).toBe(200);
    // And an image already drawn answers from the cache, budget or not.
    expect((await app.inject({ url: images[0]!, remoteAddress: '203.0.113.7' })).statusCode).toBe(200);
  });
});
