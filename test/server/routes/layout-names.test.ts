/**
 * Players' own names of custom layouts (docs/server.md, "Your own layouts"): the upload form's name, a KMahjongg
 * `.desktop` beside a `.layout`, the file's name, the editor's name and the rename form; each shown to the player
 * who gave it alone, everyone else seeing the neutral name; bad names and files refused with a 4xx; the bound of
 * names a player keeps.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { makeKmahjongg } from '../../../src/formats/kmahjongg.ts';
import { LAYOUT_NAMES_MAX } from '../../../src/server/services/custom-layouts.ts';
import { readUpload } from '../../../src/server/services/upload.ts';
import { makeDraftCode } from '../../../src/shared/draft.ts';
import { build, createGame, newPlayer, postMoves, query, solutionMoves } from '../helper.ts';

const BOUNDARY = '----mj-names-boundary-41c2';

interface Part {
  name: string;
  value: string | Buffer;
  filename?: string; // a file part
}

/** POST /layouts with these multipart parts, as the upload form sends them. */
function post(app: FastifyInstance, cookie: string, parts: readonly Part[], headers: Record<string, string> = {}) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const file = p.filename !== undefined ? `; filename="${p.filename}"` : '';
    const type = p.filename !== undefined ? 'Content-Type: application/octet-stream\r\n' : '';
    chunks.push(
      Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${p.name}"${file}\r\n${type}\r\n`),
      Buffer.from(p.value),
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
    payload: Buffer.concat(chunks),
  });
}

/** The id a 303 leads to. */
const idOf = (location: unknown): string => /^\/layouts\/(c-[0-9a-f]{12})$/.exec(String(location))![1]!;

/** The message on the re-shown upload form. */
const formError = (html: string): string | undefined =>
  /<p id="upload-error" class="field-error" role="alert">([^<]*)</.exec(html)?.[1];

/** A GNOME map of tiles given in whole tiles. */
const gnomeMap = (name: string, tiles: readonly (readonly [number, number, number])[]): string =>
  `<mahjongg>\n  <map name="${name}">\n${tiles.map(([x, y, z]) => `    <tile x="${x}" y="${y}" z="${z}"/>`).join('\n')}\n  </map>\n</mahjongg>\n`;

/** A small clearable shape: a row of 6 tiles with 2 on top. */
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
const SMALL_MAP = gnomeMap('Row', SMALL);

/** The same shape as a KMahjongg `.layout` file. */
function smallLayoutFile(): string {
  const read = readUpload(Buffer.from(SMALL_MAP), 'row.map', '');
  if (!read.ok) throw new Error(read.message);
  return makeKmahjongg(read.value.layout);
}

/** A KMahjongg `.desktop` naming a layout, as KMahjongg ships them. */
const DESKTOP = [
  '[KMahjonggLayout]',
  'Name=Stairs to heaven',
  'Name[de]=Himmelstreppe',
  'Name[pt_BR]=Escada ao céu',
  'Description=A layout',
  'VersionFormat=1',
  'FileName=stairs.layout',
  '',
].join('\n');

const h1 = (html: string): string | undefined => /<h1>([^<]*)<\/h1>/.exec(html)?.[1];
const title = (html: string): string | undefined => /<title>([^<]*) · Mahjong solitaire<\/title>/.exec(html)?.[1];

describe('each player sees their own name', () => {
  test('two players upload the same shape under different names; each sees theirs, anyone else the neutral one', async () => {
    const app = await build();
    const ann = await newPlayer(app);
    const bob = await newPlayer(app);
    const a = await post(app, ann, [
      { name: 'file', value: SMALL_MAP, filename: 'row.map' },
      { name: 'title', value: '  Ann’s   row ' },
    ]);
    expect(a.statusCode, a.body.slice(0, 500)).toBe(303);
    const b = await post(app, bob, [
      { name: 'file', value: smallLayoutFile(), filename: 'row.layout' },
      { name: 'title', value: 'Bob’s bridge' },
    ]);
    expect(b.statusCode).toBe(303);
    const id = idOf(a.headers.location);
    expect(idOf(b.headers.location)).toBe(id); // one shape, one row
    expect(await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts')).toEqual([{ n: 1 }]);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM layout_names')).toEqual([{ n: 2 }]);

    const page = async (cookie?: string) =>
      (await app.inject({ url: `/layouts/${id}`, headers: cookie ? { cookie } : {} })).body;
    expect(h1(await page(ann))).toBe('Ann’s row');
    expect(h1(await page(bob))).toBe('Bob’s bridge');
    const friend = await newPlayer(app);
    for (const other of [await page(friend), await page()]) {
      expect(h1(other)).toBe(`Custom layout ${id}`);
      expect(other).not.toContain('Ann');
      expect(other).not.toContain('Bob');
      expect(other).not.toContain('custom-rename'); // no rename form for a player who never named it
    }
    // The link preview (cached, seen by whoever the link is sent to) is neutral even on the owner's page.
    expect(await page(ann)).toContain(`<meta property="og:title" content="Custom layout ${id}`);

    // Play pages: the title and header by the player's own name; the preview neutral.
    const play = (await app.inject({ url: `/play/${id}/s1`, headers: { cookie: ann } })).body;
    expect(title(play)).toBe('Ann’s row s1');
    expect(play).toContain(`<meta property="og:title" content="Custom layout ${id} s1 · `);
    expect(title((await app.inject({ url: `/play/${id}/s1`, headers: { cookie: bob } })).body)).toBe('Bob’s bridge s1');
    expect(title((await app.inject({ url: `/play/${id}/s1`, headers: { cookie: friend } })).body)).toBe(
      `Custom layout ${id} s1`,
    );

    // Stats, the API's and the page's, and the home page's list of the player's layouts.
    const game = await createGame(app, bob, { layout: id, seed: 'w', mode: 'relaxed' });
    expect((await postMoves(app, bob, game.id, solutionMoves(game))).json().status).toBe('won');
    const stats = (await app.inject({ url: '/api/stats', headers: { cookie: bob } })).json();
    expect(stats.byLayout[id]).toMatchObject({ name: 'Bob’s bridge', won: 1 });
    expect((await app.inject({ url: '/stats', headers: { cookie: bob } })).body).toContain('Bob’s bridge');
    const home = (await app.inject({ url: '/', headers: { cookie: ann } })).body;
    expect(home).toContain(`<a class="own-layout-name" href="/layouts/${id}">Ann’s row</a>`);
    expect(home).toContain('8 tiles');
    expect(home).not.toContain('Bob');
    expect((await app.inject({ url: '/', headers: { cookie: friend } })).body).not.toContain('own-layout-name');
  });

  test('without a typed name: the .desktop beside the .layout names it, in the uploader’s language', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const files: Part[] = [
      { name: 'file', value: smallLayoutFile(), filename: 'stairs.layout' },
      { name: 'file', value: DESKTOP, filename: 'stairs.desktop' },
    ];
    const res = await post(app, cookie, files);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const id = idOf(res.headers.location);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Stairs to heaven');
    // A German page takes Name[de]; a Portuguese one Name[pt_BR]; each player keeps the name they uploaded.
    const german = await newPlayer(app);
    expect((await post(app, german, files, { 'accept-language': 'de' })).statusCode).toBe(303);
    expect(h1((await app.inject({ url: `/layouts/${id}?hl=de`, headers: { cookie: german } })).body)).toBe(
      'Himmelstreppe',
    );
    const brazilian = await newPlayer(app);
    expect((await post(app, brazilian, files, { 'accept-language': 'pt-BR' })).statusCode).toBe(303);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie: brazilian } })).body)).toBe(
      'Escada ao céu',
    );
    // The typed name wins over the .desktop's.
    const typed = await newPlayer(app);
    await post(app, typed, [...files, { name: 'title', value: 'My stairs' }]);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie: typed } })).body)).toBe('My stairs');
  });

  test('without either: the file’s name, a capital first letter given to one written all in small letters', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await post(app, cookie, [
      { name: 'file', value: smallLayoutFile(), filename: 'stairs_to_heaven.layout' },
    ]);
    const id = idOf(res.headers.location);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Stairs to heaven');
    const other = await newPlayer(app);
    await post(app, other, [{ name: 'file', value: smallLayoutFile(), filename: 'ROW_of_Six.layout' }]);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie: other } })).body)).toBe('ROW of Six');
    // Uploading it again without a name keeps the one given before.
    await post(app, cookie, [{ name: 'file', value: smallLayoutFile(), filename: 'other.layout' }]);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Stairs to heaven');
  });

  test('the editor’s name is the saver’s; empty, “My layout” in their language', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const code = makeDraftCode(
      [0, 2, 4, 6]
        .map((x) => ({ x, y: 0, z: 0 }))
        .concat([
          { x: 2, y: 0, z: 1 },
          { x: 4, y: 0, z: 1 },
        ]),
    );
    const save = (who: string, name: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: '/layouts/editor',
        headers: { cookie: who, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ layout: code, name }).toString(),
      });
    const saved = await save(cookie, 'Little bridge');
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    const id = idOf(saved.headers.location);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Little bridge');
    expect(h1((await app.inject({ url: `/layouts/${id}` })).body)).toBe(`Custom layout ${id}`);
    const german = await newPlayer(app);
    expect((await save(german, '', { 'accept-language': 'de' })).statusCode).toBe(303);
    const mine = (await query(app, 'SELECT name FROM layout_names WHERE name <> ?', 'Little bridge'))[0];
    expect(mine).toEqual({ name: 'Mein Layout' });
    // Saving it again unnamed keeps the name; a typed one replaces it.
    await save(cookie, '');
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Little bridge');
    const long = await save(cookie, 'x'.repeat(41));
    expect(long.statusCode).toBe(400);
    expect(long.body).toContain('A layout&#39;s name is at most 40 characters.');
    const invisible = await save(cookie, '\u202e\u200b\u0007');
    expect(invisible.statusCode).toBe(400);
    expect(invisible.body).toContain('The name has no characters that can be shown');
  });
});

describe('renaming', () => {
  test('the owner renames on the layout page (a POST of our own origin); nobody else can', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const id = idOf(
      (await post(app, cookie, [{ name: 'file', value: SMALL_MAP, filename: 'row.map' }])).headers.location,
    );
    const page = (await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body;
    expect(h1(page)).toBe('Row'); // the GNOME map's name
    expect(page).toContain(`<form class="custom-rename" method="post" action="/layouts/${id}/name">`);
    expect(page).toContain('value="Row"');
    expect(page).toContain(`anyone else with the link sees “Custom layout ${id}”`);
    const rename = (who: string, name: string, headers: Record<string, string> = {}) =>
      app.inject({
        method: 'POST',
        url: `/layouts/${id}/name`,
        headers: { cookie: who, 'content-type': 'application/x-www-form-urlencoded', ...headers },
        payload: new URLSearchParams({ name }).toString(),
      });
    const done = await rename(cookie, 'Six in a row');
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe(`/layouts/${id}`);
    expect(h1((await app.inject({ url: `/layouts/${id}`, headers: { cookie } })).body)).toBe('Six in a row');

    for (const [name, status, message] of [
      ['y'.repeat(41), 400, 'A layout&#39;s name is at most 40 characters.'],
      ['\u0001\u0002', 400, 'The name has no characters that can be shown'],
      ['   ', 400, 'Type the layout&#39;s new name'],
    ] as const) {
      const res = await rename(cookie, name);
      expect(res.statusCode).toBe(status);
      expect(res.body).toContain(message);
      expect(res.body).toContain('id="rename-error"');
    }
    const stranger = await newPlayer(app);
    const refused = await rename(stranger, 'Mine now');
    expect(refused.statusCode).toBe(403);
    expect(h1(refused.body)).toBe(`Custom layout ${id}`);
    const foreign = await rename(cookie, 'Hijacked', {
      origin: 'https://evil.example',
      'sec-fetch-site': 'cross-site',
    });
    expect(foreign.statusCode).toBe(403);
    expect(await query(app, 'SELECT name FROM layout_names')).toEqual([{ name: 'Six in a row' }]);
    const unknown = await app.inject({
      method: 'POST',
      url: '/layouts/c-000000000000/name',
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=x',
    });
    expect(unknown.statusCode).toBe(404);
  });
});

describe('bad names and files: a 4xx with the reason', () => {
  test.each([
    [
      'a name too long',
      [{ name: 'title', value: 'z'.repeat(41) }],
      400,
      /a layout&#39;s name is at most 40 characters/,
    ],
    [
      'a name of control characters only',
      [{ name: 'title', value: '\u0000\u202e\u2066' }],
      400,
      /no characters that can be shown/,
    ],
    ['a .desktop without its layout', [], 400, /a \.desktop file only names the kmahjongg \.layout beside it/],
  ] as const)('%s', async (_, extra, status, message) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const parts: Part[] =
      extra.length === 0
        ? [{ name: 'file', value: DESKTOP, filename: 'stairs.desktop' }]
        : [{ name: 'file', value: SMALL_MAP, filename: 'row.map' }, ...extra];
    const res = await post(app, cookie, parts);
    expect(res.statusCode).toBe(status);
    expect(formError(res.body)?.toLowerCase()).toMatch(message);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM layout_names')).toEqual([{ n: 0 }]);
  });

  test('a .desktop beside a GNOME .map, one without a Name=, one that is not text, two layouts, a picture', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const cases: [Part[], number, RegExp][] = [
      [
        [
          { name: 'file', value: SMALL_MAP, filename: 'row.map' },
          { name: 'file', value: DESKTOP, filename: 'row.desktop' },
        ],
        400,
        /a gnome \.map names its own maps/,
      ],
      [
        [
          { name: 'file', value: smallLayoutFile(), filename: 'row.layout' },
          { name: 'file', value: '[Desktop Entry]\nType=Application\n', filename: 'row.desktop' },
        ],
        400,
        /has no name= line/,
      ],
      [
        [
          { name: 'file', value: smallLayoutFile(), filename: 'row.layout' },
          { name: 'file', value: Buffer.from([0xff, 0xfe, 0x00, 0x41]), filename: 'row.desktop' },
        ],
        400,
        /the \.desktop file is not text/,
      ],
      [
        [
          { name: 'file', value: smallLayoutFile(), filename: 'a.layout' },
          { name: 'file', value: smallLayoutFile(), filename: 'b.layout' },
        ],
        400,
        /send one layout file at a time/,
      ],
      [
        [{ name: 'file', value: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]), filename: 'row.png' }],
        400,
        /not text/,
      ],
    ];
    for (const [parts, status, message] of cases) {
      const res = await post(app, cookie, parts);
      expect(res.statusCode, formError(res.body)).toBe(status);
      expect(formError(res.body)?.toLowerCase()).toMatch(message);
    }
    expect(await query(app, 'SELECT COUNT(*) AS n FROM layout_names')).toEqual([{ n: 0 }]);
  });

  test(`a player keeps at most ${LAYOUT_NAMES_MAX} names: past them a new one is refused (409), a rename still works`, async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const first = idOf(
      (await post(app, cookie, [{ name: 'file', value: SMALL_MAP, filename: 'row.map' }])).headers.location,
    );
    const player = (await query<{ player_id: string }>(app, 'SELECT player_id FROM layout_names'))[0]!.player_id;
    for (let i = 1; i < LAYOUT_NAMES_MAX; i++) {
      const id = `c-${i.toString(16).padStart(12, '0')}`;
      await query(
        app,
        'INSERT INTO custom_layouts (id, name, format, tiles, slots, created_at) VALUES (?, ?, ?, ?, ?, ?)',
        id,
        'x',
        'gnome',
        2,
        '[[0,0,0],[2,0,0]]',
        1,
      );
      await query(
        app,
        'INSERT INTO layout_names (player_id, layout, name, named_at) VALUES (?, ?, ?, ?)',
        player,
        id,
        `n${i}`,
        i,
      );
    }
    const refused = await post(app, cookie, [
      {
        name: 'file',
        value: gnomeMap(
          'Two',
          SMALL.concat([
            [0, 1, 0],
            [1, 1, 0],
          ]),
        ),
        filename: 'two.map',
      },
    ]);
    expect(refused.statusCode).toBe(409);
    expect(formError(refused.body)).toMatch(/as many as one player keeps/);
    const renamed = await app.inject({
      method: 'POST',
      url: `/layouts/${first}/name`,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Still+mine',
    });
    expect(renamed.statusCode).toBe(303);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM layout_names')).toEqual([{ n: LAYOUT_NAMES_MAX }]);
  });
});
