/**
 * Your own layouts: GET /layouts/new, POST /layouts (multipart), GET /layouts/:id, and
 * playing a custom layout like a built-in (/play/c-…, /api/deals/c-…, games and stats). Real files
 * are read from the layout corpus (MAHJONG_LAYOUTS_DIR; never copied); the bad ones are made here.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { deal, makeLayout, type Deal } from '../../../src/engine/index.ts';
import * as gnome from '../../../src/formats/gnome.ts';
import { MAX_UPLOAD_BYTES, uploadCostMs } from '../../../src/server/services/upload.ts';
import { corpusDir } from '../../../src/cli/corpus.ts';
import { build, createGame, newPlayer, playerCookie, postMoves, solutionMoves, query } from '../helper.ts';

const CORPUS = corpusDir();
const hasCorpus = existsSync(CORPUS);
const corpusFile = (rel: string): Buffer => readFileSync(path.join(CORPUS, rel));

const BOUNDARY = '----mj-test-boundary-7d1f';

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string; // a file part
}

/** A multipart/form-data body of these parts. */
function multipartBody(parts: readonly Part[]): Buffer {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    const type = p.filename !== undefined ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

/** POST /layouts as the form does: the file (and a map name), with the player's cookie. */
function upload(
  app: FastifyInstance,
  cookie: string,
  file: string | Buffer,
  filename: string,
  mapName?: string,
  headers: Record<string, string> = {},
) {
  const parts: Part[] = [{ name: 'file', value: file, filename }];
  if (mapName !== undefined) parts.push({ name: 'name', value: mapName });
  return app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    payload: multipartBody(parts),
  });
}

/** Uploads a file that must be accepted; returns its id. */
async function uploaded(
  app: FastifyInstance,
  cookie: string,
  file: string | Buffer,
  filename: string,
  mapName?: string,
): Promise<string> {
  const res = await upload(app, cookie, file, filename, mapName);
  expect(res.statusCode, res.body.slice(0, 2000)).toBe(303);
  const m = /^\/layouts\/(c-[0-9a-f]{12})$/.exec(res.headers.location as string);
  expect(m).not.toBeNull();
  return m![1]!;
}

/** The message on the re-shown form. */
const formError = (html: string): string | undefined => {
  const m = /<p id="upload-error" class="field-error" role="alert">([^<]*)<\/p>/.exec(html)?.[1];
  return m && m.charAt(0).toLowerCase() + m.slice(1); // shown as a sentence; matched as the message
};

/** A GNOME map file of tiles given in whole tiles (x, y, z). */
const gnomeMap = (name: string, tiles: readonly (readonly [number, number, number])[]): string =>
  `<mahjongg>\n  <map name="${name}">\n${tiles.map(([x, y, z]) => `    <tile x="${x}" y="${y}" z="${z}"/>`).join('\n')}\n  </map>\n</mahjongg>\n`;

/** A small clearable layout: a row of 6 tiles with 2 on top. */
const SMALL: [number, number, number][] = [
  [0, 0, 0],
  [1, 0, 0],
  [2, 0, 0],
  [3, 0, 0],
  [4, 0, 0],
  [5, 0, 0],
  [2, 0, 1],
  [3, 0, 1],
];

function dealDataOf(html: string): { deal: Deal } {
  const m = /<script type="application\/json" id="deal-data">([^<]*)<\/script>/.exec(html);
  if (!m) throw new Error('no #deal-data');
  return JSON.parse(m[1]!);
}

describe('GET /layouts/new', () => {
  test('a form that sends a file and a map name as multipart to POST /layouts', async () => {
    const app = await build();
    const res = await app.inject({ url: '/layouts/new' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toMatch(/<form[^>]*method="post"[^>]*action="\/layouts"[^>]*enctype="multipart\/form-data"/);
    expect(res.body).toMatch(/<input id="file" name="file" type="file"/);
    expect(res.body).toMatch(/<input id="map-name" name="name" type="text"/);
    expect(formError(res.body)).toBeUndefined();
  });

  test('the home page links it', async () => {
    const app = await build();
    const html = (await app.inject({ url: '/' })).body;
    expect(html).toMatch(/<a class="button" href="\/layouts\/new">Upload your own layout<\/a>/);
  });
});

describe.skipIf(!hasCorpus)('POST /layouts with the corpus', () => {
  test('a KMahjongg file: 303 to its page, with picture, tiles, who may play and new games in both modes', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, corpusFile('kmahjongg/cat.layout'), 'cat.layout');
    const res = await app.inject({ url: `/layouts/${id}`, headers: { cookie } });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<h1>Cat</h1>'); // the uploader's own name, from the file's name
    expect(html).toContain('144 tiles · 4 layers · from a KMahjongg layout');
    expect(html).toMatch(/<svg class="layout-picture"[^>]*aria-label="Cat: 144 tiles in 4 layers"/);
    // Anyone else (a shared link) sees the neutral name.
    expect((await app.inject({ url: `/layouts/${id}` })).body).toContain(`<h1>Custom layout ${id}</h1>`);
    expect(html.match(/<svg class="layout-picture".*?<\/svg>/s)![0].match(/M/g)).toHaveLength(144);
    expect(html).toContain('anyone with the link');
    expect(html).toContain(`href="/play/${id}"`);
    expect(html).toContain(`href="/play/${id}?mode=classic"`);
    // The layout's slots travel with the page, for a browser that deals it itself.
    const data = JSON.parse(/<script type="application\/json" id="layout-data">([^<]*)<\/script>/.exec(html)![1]!);
    expect(data).toMatchObject({ id, name: 'Cat' });
    expect(data.slots).toHaveLength(144);
  });

  test('the same file gives the same id (and is stored once); so does the same shape from another file', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const a = await uploaded(app, cookie, corpusFile('kmahjongg/default.layout'), 'default.layout');
    const b = await uploaded(app, cookie, corpusFile('kmahjongg/default.layout'), 'default.layout');
    expect(b).toBe(a);
    // Comments and CRLF line ends change the bytes, not the layout.
    const edited = `# my copy\r\n${corpusFile('kmahjongg/default.layout').toString('utf8').replace(/\n/g, '\r\n')}`;
    expect(
      await uploaded(app, cookie, edited.replace(/^# my copy\r\n(.*?\r\n)/, '$1# my copy\r\n'), 'turtle.layout'),
    ).toBe(a);
    // GNOME's Turtle holds the same 144 positions, half a tile further left.
    expect(await uploaded(app, cookie, corpusFile('gnome/mahjongg.map'), 'mahjongg.map')).toBe(a);
    expect((await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts'))[0]).toEqual({ n: 1 });
    // A built-in's shape is named as the built-in, whatever the files called it.
    expect((await app.inject({ url: `/layouts/${a}` })).body).toContain('<h1>Turtle</h1>');
  });

  test('a GNOME map picked by name; the first map without one; an unknown name lists the maps', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const map = corpusFile('gnome/mahjongg.map');
    const taipei = await uploaded(app, cookie, map, 'mahjongg.map', 'Taipei');
    expect((await app.inject({ url: `/layouts/${taipei}` })).body).toContain(`<h1>Custom layout ${taipei}</h1>`);
    expect(await uploaded(app, cookie, map, 'mahjongg.map', 'taipei')).toBe(taipei); // case does not matter
    expect(await uploaded(app, cookie, map, 'mahjongg.map', 'difficult')).toBe(taipei); // nor name or score name
    expect(await uploaded(app, cookie, map, 'mahjongg.map', '')).not.toBe(taipei);
    const res = await upload(app, cookie, map, 'mahjongg.map', 'Snail');
    expect(res.statusCode).toBe(400);
    expect(formError(res.body)).toMatch(
      /^no map called &quot;Snail&quot; in this file; its maps: Turtle, The Ziggurat, .*Taipei\.$/,
    );
    expect(res.body).toContain('value="Snail"'); // shown back in the form
  });

  test('every corpus layout is accepted (GNOME maps and KMahjongg files)', async () => {
    const app = await build({ rateLimit: false }); // 82 uploads: past the upload rate limit and the budget
    const cookie = await newPlayer(app);
    const ids = new Set<string>();
    for (const file of readdirLayouts()) ids.add(await uploaded(app, cookie, corpusFile(`kmahjongg/${file}`), file));
    const map = corpusFile('gnome/mahjongg.map');
    for (const name of [
      'Turtle',
      'The Ziggurat',
      'Four Bridges',
      'Cloud',
      'Tic-Tac-Toe',
      'Red Dragon',
      'Overpass',
      "Pyramid's Walls",
      'Confounding Cross',
      'Taipei',
    ])
      ids.add(await uploaded(app, cookie, map, 'mahjongg.map', name));
    expect(ids.size).toBe(72 + 10 - 1); // KMahjongg's default is GNOME's Turtle
  }, 120_000);
});

function readdirLayouts(): string[] {
  const dir = path.join(CORPUS, 'kmahjongg');
  return (existsSync(dir) ? readdirSync(dir) : []).filter((f) => f.endsWith('.layout')).sort();
}

describe('POST /layouts with a bad file: the form again, with the reason', () => {
  const cases: [string, string | Buffer, string, number, RegExp, string?][] = [
    [
      'an odd tile count',
      gnomeMap('Odd', SMALL.slice(0, 7)),
      'odd.map',
      400,
      /7 tiles; tiles are removed in pairs, so the count must be even/,
    ],
    [
      'two tiles overlapping on one layer',
      gnomeMap('Overlap', [
        [0, 0, 0],
        [0.5, 0, 0],
      ]),
      'overlap.map',
      400,
      /tiles \(0, 0, 0\) and \(1, 0, 0\) overlap on layer 0/,
    ],
    [
      'two tiles in one place',
      gnomeMap('Twice', [
        [0, 0, 0],
        [0, 0, 0],
      ]),
      'twice.map',
      400,
      /two tiles at \(0, 0, 0\)/,
    ],
    [
      'a lone tower',
      gnomeMap('Tower', [
        [0, 0, 0],
        [0, 0, 1],
        [0, 0, 2],
        [0, 0, 3],
      ]),
      'tower.map',
      400,
      /cannot be cleared: 4 of the 4 tiles are stacked on one another/,
    ],
    [
      'a tower among too few tiles',
      gnomeMap('Tall', [
        [0, 0, 0],
        [0, 0, 1],
        [0, 0, 2],
        [2, 0, 0],
      ]),
      'tall.map',
      400,
      /cannot be cleared: 3 of the 4 tiles are stacked/,
    ],
    [
      'garbage text',
      'hello, this is not a layout\n',
      'notes.txt',
      400,
      /unknown layout format: expected a KMahjongg \.layout/,
    ],
    [
      'garbage in a .layout file',
      'kmahjongg-layout-v1.0\nxyz\n',
      'bad.layout',
      400,
      /line 2: the grid line is 3 cells wide; expected 32/,
    ],
    [
      'garbage in a .map file',
      '<mahjongg><map name="A"><tile x="one" y="0"/></map></mahjongg>',
      'bad.map',
      400,
      /x=&quot;one&quot; in &lt;tile&gt; is not a number of tiles/,
    ],
    [
      'binary bytes',
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]),
      'picture.png',
      400,
      /the file is not text \(UTF-8\)/,
    ],
    ['a NUL in text', 'kmahjongg-layout-v1.0\n\0\n', 'nul.layout', 400, /the file is not text/],
    ['an empty file', '', 'empty.layout', 400, /empty\.layout is empty/],
    ['no file chosen', '', '', 400, /choose a \.layout or \.map file to upload/],
    [
      'too many tiles',
      gnomeMap(
        'Huge',
        Array.from({ length: 1002 }, (_, i) => [i % 100, Math.floor(i / 100), 0] as [number, number, number]),
      ),
      'huge.map',
      400,
      /takes the map past 1000 tiles/,
    ],
    [
      'a map name with a KMahjongg file',
      'kmahjongg-layout-v1.0\n',
      'x.layout',
      400,
      /a map name picks one map of a GNOME \.map file/,
      'Turtle',
    ],
    [
      'a file over the size limit',
      `<mahjongg><!-- ${'x'.repeat(MAX_UPLOAD_BYTES)} --></mahjongg>`,
      'big.map',
      413,
      new RegExp(`the file is larger than ${MAX_UPLOAD_BYTES / 1024} KB`),
    ],
  ];

  test.each(cases)('%s', async (_what, file, filename, status, message, mapName) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await upload(app, cookie, file, filename, mapName);
    expect(res.statusCode).toBe(status);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toMatch(/<form[^>]*action="\/layouts"/);
    expect(formError(res.body)).toMatch(message);
    expect((await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts'))[0]).toEqual({ n: 0 });
  });

  test('a map name longer than the field allows', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await upload(app, cookie, gnomeMap('Small', SMALL), 'small.map', 'x'.repeat(101));
    expect(res.statusCode).toBe(400);
    expect(formError(res.body)).toBe('a map name is at most 100 characters.');
  });

  test('a file in another field, two files, a form that is not multipart', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const headers = { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` };
    const other = await app.inject({
      method: 'POST',
      url: '/layouts',
      headers,
      payload: multipartBody([{ name: 'layout', value: gnomeMap('S', SMALL), filename: 's.map' }]),
    });
    expect(other.statusCode).toBe(400);
    expect(formError(other.body)).toMatch(/the layout goes in the field called file/);
    const two = await app.inject({
      method: 'POST',
      url: '/layouts',
      headers,
      payload: multipartBody([
        { name: 'file', value: gnomeMap('S', SMALL), filename: 's.map' },
        { name: 'file', value: gnomeMap('S', SMALL), filename: 't.map' },
      ]),
    });
    expect(two.statusCode).toBe(400);
    expect(formError(two.body)).toMatch(/send one layout file at a time/);
    const form = await app.inject({ method: 'POST', url: '/layouts', headers: { cookie }, payload: { name: 'x' } });
    expect(form.statusCode).toBe(415);
    expect(formError(form.body)).toMatch(/send the layout from the upload form/);
    const truncated = await app.inject({
      method: 'POST',
      url: '/layouts',
      headers,
      payload: `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="a.map"\r\n\r\n<mahj`,
    });
    expect(truncated.statusCode).toBe(400);
    expect(formError(truncated.body)).toMatch(/the form data was cut off or malformed/);
  });

  test('POSTs need the player cookie and our own origin, like every POST', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const noCookie = await upload(app, '', gnomeMap('Small', SMALL), 'small.map');
    expect(noCookie.statusCode).toBe(403);
    expect(noCookie.headers['set-cookie']).toBeUndefined();
    const foreign = await upload(app, cookie, gnomeMap('Small', SMALL), 'small.map', undefined, {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(foreign.statusCode).toBe(403);
    expect((await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts'))[0]).toEqual({ n: 0 });
    const same = await upload(app, cookie, gnomeMap('Small', SMALL), 'small.map', undefined, {
      origin: 'http://localhost:80',
      'sec-fetch-site': 'same-origin',
    });
    expect(same.statusCode).toBe(303);
    // Chromium's own form POST under Referrer-Policy: no-referrer: Origin null, Sec-Fetch-Site same-origin.
    const form = await upload(app, cookie, gnomeMap('Small', SMALL), 'small.map', undefined, {
      origin: 'null',
      'sec-fetch-site': 'same-origin',
    });
    expect(form.statusCode).toBe(303);
  });

  test('the API takes no multipart bodies', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
      payload: multipartBody([{ name: 'file', value: 'x', filename: 'x.map' }]),
    });
    expect(res.statusCode).toBe(415);
  });
});

describe('names and budgets', () => {
  test("a file's name reaches its uploader's page only, escaped and cleaned; never anyone else's", async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const evil = '<script>alert(1)</script>\u202e "quoted" &amp; a very long name that goes on and on';
    const id = await uploaded(
      app,
      cookie,
      gnomeMap(evil.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'), SMALL),
      'evil.map',
    );
    const page = (await app.inject({ url: `/layouts/${id}` })).body;
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('\u202e');
    expect(page).not.toContain('alert(1)');
    expect(page).toContain(`<h1>Custom layout ${id}</h1>`);
    const own = (await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body;
    expect(own).toContain('<h1>&lt;script&gt;alert(1)&lt;/script&gt; &quot;quoted&quot; &amp;amp…</h1>'); // 40 characters
    expect(own).not.toContain('<script>alert');
    expect(own).not.toContain('\u202e');
    const play = (await app.inject({ url: `/play/${id}/s1`, headers: { cookie } })).body;
    expect(play).not.toContain('<script>alert');
    expect(play).not.toContain('\u202e');
  });

  test('an id already held by another shape (a hash clash) is refused, not shared', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    // Plant a clash: the row of this id now holds another shape.
    await query(app, 'UPDATE custom_layouts SET slots = ? WHERE id = ?', '[[0,0,0],[2,0,0]]', id);
    const res = await upload(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    expect(res.statusCode).toBe(409);
    expect(formError(res.body)).toMatch(/another layout already has this one&#39;s id/);
  });

  test('new layouts are budgeted per client; one stored already costs nothing', async () => {
    const app = await build({ newLayouts: { perHour: 2, globalPerHour: 100 } });
    const cookie = await newPlayer(app);
    const first = await uploaded(app, cookie, gnomeMap('One', SMALL), 'one.map');
    await uploaded(
      app,
      cookie,
      gnomeMap(
        'Two',
        SMALL.concat([
          [0, 1, 0],
          [1, 1, 0],
        ]),
      ),
      'two.map',
    );
    const third = await upload(
      app,
      cookie,
      gnomeMap(
        'Three',
        SMALL.concat([
          [0, 2, 0],
          [1, 2, 0],
        ]),
      ),
      'three.map',
    );
    expect(third.statusCode).toBe(429);
    expect(third.headers['retry-after']).toMatch(/^\d+$/);
    expect(formError(third.body)).toMatch(/at most 2 new layouts an hour from your network/);
    expect(await uploaded(app, cookie, gnomeMap('One again', SMALL), 'one.map')).toBe(first);
    // A refused file costs nothing either.
    expect((await upload(app, cookie, gnomeMap('Odd', SMALL.slice(0, 7)), 'odd.map')).statusCode).toBe(400);
  });

  test("an upload is charged to its network's CPU budget by its size, before the file is read, whatever the cookie", async () => {
    const file = gnomeMap('Small', SMALL);
    const cost = Math.ceil(uploadCostMs(Buffer.byteLength(file)));
    const app = await build({ cpu: { clientBurstMs: 2 * cost } }); // two uploads of this file in a burst
    const scans = vi.spyOn(gnome, 'scanGnomeMaps');
    onTestFinished(() => scans.mockRestore());
    const from = async (remoteAddress: string) => {
      const cookie = playerCookie(await app.inject({ url: '/api/stats', remoteAddress })); // a fresh cookie each time
      return app.inject({
        method: 'POST',
        url: '/layouts',
        remoteAddress,
        headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
        payload: multipartBody([{ name: 'file', value: file, filename: 'small.map' }]),
      });
    };
    expect((await from('127.0.0.2')).statusCode).toBe(303);
    expect((await from('127.0.0.3')).statusCode).toBe(303); // stored already: read all the same
    const refused = await from('127.0.0.4'); // the same /24
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-5]$/);
    expect(refused.body).toMatch(/<form[^>]*action="\/layouts"/);
    expect(formError(refused.body)).toMatch(/more work than one network may \(upload\); try again in \d s/);
    expect(scans).toHaveBeenCalledTimes(2); // the refused file was never read
    expect((await from('127.0.1.2')).statusCode).toBe(303); // another network has its own budget
    expect(scans).toHaveBeenCalledTimes(3);
  });

  test('a file of more than 100 maps is refused by a count before it is read; a broken map nobody picked is never checked', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const body = '<block left="0" right="30" top="0" bottom="31"/>'; // 992 tiles
    const many = `<mahjongg>${Array.from({ length: 101 }, (_, i) => `<map name="m${i}">${body}</map>`).join('\n')}</mahjongg>`;
    const res = await upload(app, cookie, many, 'many.map');
    expect(res.statusCode).toBe(400);
    expect(formError(res.body)).toBe('line 101: more than 100 maps in one file.');
    const broken = '<map name="Broken"><tile x="0" y="0"/><tile x="0.5" y="0"/></map>';
    const file = gnomeMap('Small', SMALL).replace('</mahjongg>', `${broken}</mahjongg>`);
    await uploaded(app, cookie, file, 'two.map', 'Small');
    const picked = await upload(app, cookie, file, 'two.map', 'Broken');
    expect(formError(picked.body)).toMatch(
      /^map &quot;Broken&quot; \(line \d+\): tiles \(0, 0, 0\) and \(1, 0, 0\) overlap/,
    );
  });
});

describe('playing a custom layout', () => {
  test('/play/c-…/:seed is a stable board in both modes; the API deals it too', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    const page = await app.inject({ url: `/play/${id}/abc`, headers: { cookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>Small abc · Mahjong solitaire</title>'); // the uploader's own name
    expect((await app.inject({ url: `/play/${id}/abc` })).body).toContain(
      `<title>Custom layout ${id} abc · Mahjong solitaire</title>`,
    );
    const { deal: shown } = dealDataOf(page.body);
    expect(shown).toMatchObject({ layout: id, seed: 'abc', mode: 'relaxed' });
    expect(shown.tiles).toHaveLength(8);
    expect((page.body.match(/<button class="tile"/g) ?? []).length).toBe(8);
    const api = await app.inject({ url: `/api/deals/${id}/abc` });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toEqual(shown);
    expect((await app.inject({ url: `/api/deals/${id}/abc` })).body).toBe(api.body); // same link, same board
    const classic = await app.inject({ url: `/play/${id}/abc?mode=classic`, headers: { cookie } });
    expect(classic.statusCode).toBe(200);
    expect(dealDataOf(classic.body).deal.mode).toBe('classic');
    const random = await app.inject({ url: `/play/${id}?mode=classic`, headers: { cookie } });
    expect(random.statusCode).toBe(302);
    expect(random.headers.location).toMatch(new RegExp(`^/play/${id}/[A-Za-z0-9]{8}\\?mode=classic$`));
  });

  test('in deal workers too: the upload check and relaxed deals of a custom layout run there', async () => {
    const app = await build({ dealer: { workers: 1 } });
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    const refused = await upload(
      app,
      cookie,
      gnomeMap('Tower', [
        [0, 0, 0],
        [0, 0, 1],
      ]),
      'tower.map',
    );
    expect(refused.statusCode).toBe(400);
    expect(formError(refused.body)).toMatch(/cannot be cleared/);
    const res = await app.inject({ url: `/api/deals/${id}/in-a-worker` });
    expect(res.statusCode).toBe(200);
    const mine = deal(makeLayout(id, '', '', res.json().tiles), 'in-a-worker', 'relaxed');
    expect(mine.ok && JSON.stringify(mine.value.deal)).toBe(res.body);
  }, 30_000);

  test('a browser can deal any seed itself from the slots the page carries: the same board as the server', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    const { deal: shown } = dealDataOf((await app.inject({ url: `/play/${id}/abc`, headers: { cookie } })).body);
    const layout = makeLayout(
      id,
      'Small',
      '',
      shown.tiles.map(({ x, y, z }) => ({ x, y, z })),
    );
    for (const [seed, mode] of [
      ['other', 'relaxed'],
      ['xyz-1', 'classic'],
    ] as const) {
      const mine = deal(layout, seed, mode);
      expect(mine.ok).toBe(true);
      const server = await app.inject({ url: `/api/deals/${id}/${seed}?mode=${mode}` });
      expect(JSON.stringify(mine.ok && mine.value.deal)).toBe(server.body);
    }
    const api = await app.inject({ url: `/api/layouts/${id}` });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toEqual({
      id,
      name: `Custom layout ${id}`,
      tiles: 8,
      slots: shown.tiles.map(({ x, y, z }) => [x, y, z]),
    });
    expect((await app.inject({ url: '/api/layouts/turtle' })).json().tiles).toBe(144);
  });

  test('games, wins and stats work for it, under its name', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = await uploaded(app, cookie, gnomeMap('Small', SMALL), 'small.map');
    const game = await createGame(app, cookie, { layout: id, seed: 'win-it', mode: 'relaxed' });
    const res = await postMoves(app, cookie, game.id, solutionMoves(game));
    expect(res.json().status).toBe('won');
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie } })).json();
    expect(stats.byLayout[id]).toMatchObject({ name: 'Small', played: 1, won: 1 }); // the player's own name
    expect(stats.history[0]).toMatchObject({ layout: id, url: `/play/${id}/win-it` });
    const page = (await app.inject({ url: '/stats', headers: { cookie } })).body;
    expect(page).toContain('Small');
    expect(page).not.toContain(`Custom layout ${id}`);
    // An unfinished game of it is resumed from the home page, by name.
    const next = await createGame(app, cookie, { layout: id, seed: 'later' });
    await postMoves(app, cookie, next.id, solutionMoves(next).slice(0, 1));
    expect((await app.inject({ url: '/', headers: { cookie } })).body).toMatch(
      new RegExp(`<span class="card-link-title">Small</span>`),
    );
  });

  test('an unknown c- id is 404 everywhere', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = 'c-0123456789ab';
    for (const url of [
      `/layouts/${id}`,
      `/play/${id}`,
      `/play/${id}/abc`,
      `/api/deals/${id}/abc`,
      `/api/layouts/${id}`,
    ]) {
      const res = await app.inject({ url, headers: { cookie } });
      expect(res.statusCode, url).toBe(404);
    }
    expect((await app.inject({ url: '/layouts/nothing-here' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/layouts/turtle' })).headers.location).toBe('/play/turtle');
    const game = await app.inject({
      method: 'POST',
      url: '/api/games',
      headers: { cookie },
      payload: { layout: id, seed: 'x' },
    });
    expect(game.statusCode).toBe(404);
    expect((await query(app, 'SELECT COUNT(*) AS n FROM deals'))[0]).toEqual({ n: 0 });
  });
});
