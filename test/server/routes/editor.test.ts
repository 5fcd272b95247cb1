/**
 * The layout editor's routes (src/server/routes/pages/editor.ts): the page as the server renders it
 * (usable before any script), edits without script (a GET and a 303 each), opening a layout in it, the
 * `.layout` download, and saving a draft as an upload would be (the same checks and the same budget).
 */
import { describe, expect, onTestFinished, test, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { layoutById } from '../../../src/engine/builtins.ts';
import { sortSlots, type Slot } from '../../../src/engine/index.ts';
import { parseKmahjongg } from '../../../src/formats/kmahjongg.ts';
import * as drafts from '../../../src/shared/draft.ts';
import { EDITOR_MIN, draftOf, makeDraftCode, parseDraftCode } from '../../../src/shared/draft.ts';
import { EDITOR_COST } from '../../../src/server/routes/pages/editor.ts';
import { customId, normalizeSlots } from '../../../src/server/services/upload.ts';
import { build, newPlayer, query, testClock } from '../helper.ts';

const at = (x: number, y: number, z = 0): Slot => ({ x, y, z });
/** A tower of two beside two tiles: clearable. */
const SMALL = sortSlots([at(2, 2), at(2, 2, 1), at(6, 2), at(10, 2)]);

/** The attributes of #editor-status. */
function statusOf(html: string): { tiles: string; clearable: string; reason?: string; text: string } {
  const m = /<p id="editor-status"([^>]*)>([^<]*)<\/p>/.exec(html);
  if (!m) throw new Error('no #editor-status');
  const attr = (name: string) => new RegExp(`${name}="([^"]*)"`).exec(m[1]!)?.[1];
  return { tiles: attr('data-tiles')!, clearable: attr('data-clearable')!, reason: attr('data-reason'), text: m[2]! };
}

/** The draft of an editor address (a 303's location). */
function draftAt(location: string): { slots: Slot[]; z: number; name: string } {
  const url = new URL(location, 'http://x');
  const parsed = parseDraftCode(url.searchParams.get('layout') ?? '');
  if (!parsed.ok) throw new Error(parsed.message);
  return { slots: parsed.slots, z: Number(url.searchParams.get('z') ?? 0), name: url.searchParams.get('name') ?? '' };
}

/** POST /layouts/editor as the page's form sends it. */
const save = (app: FastifyInstance, cookie: string, fields: Record<string, string>, headers = {}) =>
  app.inject({
    method: 'POST',
    url: '/layouts/editor',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });

/** The message on the re-shown editor. */
const editorError = (html: string): string | undefined =>
  /<p class="field-error" role="alert" id="editor-error">([^<]*)<\/p>/.exec(html)?.[1];

describe('GET /layouts/editor', () => {
  test('an empty grid of cell buttons in a GET form, the status, the save and download, and its own script', async () => {
    const app = await build();
    const res = await app.inject({ url: '/layouts/editor' });
    expect(res.statusCode).toBe(200);
    const html = res.body;
    expect(html).toContain('<form class="editor-board" id="editor-form" method="get" action="/layouts/editor">');
    expect(html.match(/<button type="submit" name="cell" value="\d+,\d+" data-cell="\d+,\d+"/g)).toHaveLength(
      EDITOR_MIN.width * EDITOR_MIN.height,
    );
    expect(html).toContain('data-cell="35,19"');
    expect(statusOf(html)).toEqual({
      tiles: '0',
      clearable: 'no',
      reason: 'empty',
      text: 'No tiles yet: place tiles on the grid to begin',
    });
    for (const action of ['layer-up', 'layer-down', 'save', 'download', 'undo', 'zoom-in'])
      expect(html).toContain(`data-action="${action}"`);
    expect(html).toContain('formmethod="post" formaction="/layouts/editor" data-action="save"');
    expect(html).toMatch(/<script type="module" src="\/static\/build\/editor\.[0-9a-f]{8}\.js">/);
    expect(html).toMatch(/<link rel="stylesheet" href="\/static\/build\/editor\.[0-9a-f]{8}\.css">/);
    expect(html).toContain('<option value="turtle">Turtle</option>');
  });

  test('a draft in the address: its tiles on their layer, the ghost below, the answer and the picture', async () => {
    const app = await build();
    const code = makeDraftCode(SMALL);
    let html = (await app.inject({ url: `/layouts/editor?layout=${code}&z=1&name=Mine` })).body;
    expect(statusOf(html)).toMatchObject({ tiles: '4', clearable: 'yes', text: '4 tiles · can be cleared' });
    expect(html.match(/class="et on"/g)).toHaveLength(1);
    expect(html.match(/class="et ghost"/g)).toHaveLength(3);
    expect(html).toContain('data-cell="2,2" aria-label="2, 2" aria-pressed="true"');
    expect(html).toContain('data-cell="6,2" aria-label="6, 2" aria-pressed="false"'); // on layer 0, not 1
    expect(html).toContain('value="Mine"');
    expect(html).toContain('<svg class="layout-picture"');
    expect(html).toContain(`href="/layouts/editor.layout?layout=${code}&amp;name=Mine"`);
    // The layer is at most one above the top tile; a tower alone cannot be cleared.
    html = (await app.inject({ url: `/layouts/editor?layout=${makeDraftCode([at(2, 2), at(2, 2, 1)])}&z=9` })).body;
    expect(html).toContain('Layer <strong data-layer>3</strong>');
    expect(statusOf(html)).toMatchObject({ tiles: '2', clearable: 'no', reason: 'tower' });
    expect(statusOf(html).text).toMatch(/cannot be cleared: a lone tower: 2 of the 2 tiles/);
    // Tiles sharing room are drawn as such, and named.
    html = (await app.inject({ url: `/layouts/editor?layout=${makeDraftCode([at(0, 0), at(1, 1)])}` })).body;
    expect(html.match(/class="et on clash"/g)).toHaveLength(2);
    expect(statusOf(html)).toMatchObject({ clearable: 'no', reason: 'overlap' });
  });

  test('without script: a cell, a layer, a move each answer 303 to the changed draft', async () => {
    const app = await build();
    const code = makeDraftCode(SMALL);
    const go = async (query: string): Promise<{ slots: Slot[]; z: number; name: string }> => {
      const res = await app.inject({ url: `/layouts/editor?layout=${code}&name=Mine&${query}` });
      expect(res.statusCode, res.body.slice(0, 300)).toBe(303);
      return draftAt(res.headers.location as string);
    };
    expect((await go('cell=14,2')).slots).toEqual(sortSlots([...SMALL, at(14, 2)]));
    expect((await go('cell=7,3')).slots).toEqual(SMALL.filter((s) => s.x !== 6)); // a cell of the tile at (6, 2)
    expect((await go('z=1&cell=3,3')).slots).toEqual(SMALL.filter((s) => s.z !== 1));
    expect(await go('go=up')).toMatchObject({ z: 1, name: 'Mine' });
    expect(await go('z=1&go=down')).toMatchObject({ z: 0 });
    expect((await go('go=left')).slots).toEqual(SMALL.map((s) => ({ ...s, x: s.x - 1 })));
    expect((await go('go=higher')).slots).toEqual(SMALL.map((s) => ({ ...s, y: s.y - 1 })));
    expect((await go('go=name')).slots).toEqual(SMALL); // Enter in the name field: only the name
    // A move off the grid, or a cell past its end, is refused with the reason on the page.
    const refused = await app.inject({ url: `/layouts/editor?layout=${makeDraftCode([at(0, 0)])}&go=left` });
    expect(refused.statusCode).toBe(409);
    expect(editorError(refused.body)).toBe('The tiles are at the edge of the grid.');
    expect((await app.inject({ url: '/layouts/editor?cell=63,0' })).statusCode).toBe(409);
  });

  test('?from= opens a built-in or custom layout, moved in from the corner and named', async () => {
    const app = await build();
    const res = await app.inject({ url: '/layouts/editor?from=turtle' });
    expect(res.statusCode).toBe(303);
    const opened = draftAt(res.headers.location as string);
    expect(opened).toEqual({ ...draftOf(layoutById('turtle')!.slots, 'Turtle')!, z: 0 });
    const cookie = await newPlayer(app);
    const saved = await save(app, cookie, { layout: makeDraftCode(SMALL), name: 'Small' });
    const id = /c-[0-9a-f]{12}/.exec(saved.headers.location as string)![0];
    const custom = await app.inject({ url: `/layouts/editor?from=${id}` });
    expect(draftAt(custom.headers.location as string)).toMatchObject({ name: `Custom layout ${id}` });
    expect(draftAt(custom.headers.location as string).slots).toHaveLength(4);
    expect((await app.inject({ url: `/layouts/${id}` })).body).toContain(`href="/layouts/editor?from=${id}"`);
    expect((await app.inject({ url: '/layouts/editor?from=no-such' })).statusCode).toBe(404);
    expect((await app.inject({ url: '/layouts/editor?from=c-000000000000' })).statusCode).toBe(404);
  });
});

describe('GET /layouts/editor.layout', () => {
  test('the draft as a KMahjongg file to download, which reads back as the same tiles', async () => {
    const app = await build();
    const res = await app.inject({
      url: `/layouts/editor.layout?layout=${makeDraftCode(SMALL)}&name=Tea%20%26%20cake`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(res.headers['content-disposition']).toBe('attachment; filename="Tea  cake.layout"');
    const parsed = parseKmahjongg(res.body, 'back');
    expect(parsed.ok && parsed.value.layout.slots).toEqual(SMALL);
    expect(res.body).toMatch(/^kmahjongg-layout-v1\.1\n# Tea & cake\n/);
  });

  test('tiles sharing room cannot be written; no tiles is no file', async () => {
    const app = await build();
    expect(
      (await app.inject({ url: `/layouts/editor.layout?layout=${makeDraftCode([at(0, 0), at(1, 0)])}` })).statusCode,
    ).toBe(400);
    expect((await app.inject({ url: '/layouts/editor.layout' })).statusCode).toBe(400);
  });
});

describe('POST /layouts/editor', () => {
  test('saves the draft as a custom layout, by content id like an upload, and answers with its page', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await save(app, cookie, { layout: makeDraftCode(SMALL), name: '  My   <b>tower</b> ', z: '1' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const id = customId(normalizeSlots(SMALL));
    expect(res.headers.location).toBe(`/layouts/${id}`);
    const rows = await query(app, 'SELECT id, name, format, tiles FROM custom_layouts');
    expect(rows).toEqual([{ id, name: 'My <b>tower</b>', format: 'editor', tiles: 4 }]);
    const page = (await app.inject({ url: `/layouts/${id}` })).body;
    expect(page).toContain(`<h1>Custom layout ${id}</h1>`); // the name typed in is kept, not shown (customName)
    expect(page).not.toContain('tower');
    expect(page).toContain('drawn in the layout editor');
    // The same shape anywhere on the grid is the same layout; saving it again costs nothing.
    const moved = await save(app, cookie, {
      layout: makeDraftCode(SMALL.map((s) => ({ ...s, x: s.x + 5, y: s.y + 1 }))),
    });
    expect(moved.headers.location).toBe(`/layouts/${id}`);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts')).toEqual([{ n: 1 }]);
    // Unnamed: the same neutral name.
    const other = await save(app, cookie, { layout: makeDraftCode([at(0, 0), at(4, 0)]) });
    const otherId = /c-[0-9a-f]{12}/.exec(other.headers.location as string)![0];
    expect((await app.inject({ url: other.headers.location as string })).body).toContain(
      `<h1>Custom layout ${otherId}</h1>`,
    );
  });

  test.each([
    ['no tiles', [], /place some tiles/],
    ['an odd count', [at(0, 0), at(2, 0), at(4, 0)], /3 tiles; tiles are removed in pairs/],
    ['a lone tower', [at(0, 0), at(0, 0, 1)], /cannot be cleared: 2 of the 2 tiles are stacked/],
    ['tiles sharing room', [at(0, 0), at(1, 0)], /overlap on layer 0/],
  ])('%s: the editor again with the draft and the reason (400), nothing stored', async (_label, slots, message) => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await save(app, cookie, { layout: makeDraftCode(slots), name: 'Bad' });
    expect(res.statusCode).toBe(400);
    expect(editorError(res.body)?.toLowerCase()).toMatch(message);
    expect(statusOf(res.body).tiles).toBe(String(slots.length));
    expect(res.body).toContain('value="Bad"');
    expect(await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts')).toEqual([{ n: 0 }]);
  });

  test('shares the budget of new layouts with uploads', async () => {
    const app = await build({ newLayouts: { perHour: 2, globalPerHour: 100 } });
    const cookie = await newPlayer(app);
    for (const x of [0, 4])
      expect((await save(app, cookie, { layout: makeDraftCode([at(0, 0), at(x + 4, 0)]) })).statusCode).toBe(303);
    const third = await save(app, cookie, { layout: makeDraftCode([at(0, 0), at(20, 0)]) });
    expect(third.statusCode).toBe(429);
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
    expect(editorError(third.body)).toMatch(/^At most 2 new layouts an hour from your network/);
    expect(statusOf(third.body).tiles).toBe('2'); // the draft is kept
  });
});

describe("the editor's work is charged to the network's CPU budget before it is done", () => {
  // 1,000 tiles: a full bottom layer of 640 and 360 on the next, offset by half a tile.
  const big: Slot[] = [];
  for (let y = 0; y <= 38; y += 2) for (let x = 0; x <= 62; x += 2) big.push(at(x, y));
  for (let y = 1; y <= 37 && big.length < 1000; y += 2)
    for (let x = 1; x <= 61 && big.length < 1000; x += 2) big.push(at(x, y, 1));
  const code = makeDraftCode(big);
  const edit = Math.ceil(EDITOR_COST.editMs + 1000 * EDITOR_COST.editPerTileMs); // reading the code, as charged
  const page = Math.ceil(EDITOR_COST.pageMs + 1000 * EDITOR_COST.pagePerTileMs); // drawing and checking it

  test('a page past the budget is refused before its check: 429, Retry-After, the error page', async () => {
    // Two pages, the reading of a third (whose page is refused), and one edit.
    // The process's window is not what this test is about: a window's share allows one such page at a time.
    const app = await build({ cpu: { clientBurstMs: 2 * (edit + page) + 2 * edit, processPerWindowMs: 60_000 } });
    const checks = vi.spyOn(drafts, 'checkDraft');
    onTestFinished(() => checks.mockRestore());
    const view = (remoteAddress: string, query = '') =>
      app.inject({ url: `/layouts/editor?layout=${code}${query}`, remoteAddress });
    for (const address of ['127.0.0.2', '127.0.0.3']) {
      const res = await view(address);
      expect(res.statusCode).toBe(200);
      expect(statusOf(res.body).tiles).toBe('1000');
    }
    expect(checks).toHaveBeenCalledTimes(2);
    const refused = await view('127.0.0.4'); // the same /24
    expect(refused.statusCode).toBe(429);
    expect(refused.headers['retry-after']).toMatch(/^[1-5]$/);
    expect(refused.headers['content-type']).toMatch(/^text\/html/);
    expect(refused.body).toMatch(/more work than one network may \(editor\); try again in \d s/);
    expect(checks).toHaveBeenCalledTimes(2); // never checked
    // What is left pays for an edit without script (a 303: no page drawn), not for more.
    expect((await view('127.0.0.4', '&cell=0,0')).statusCode).toBe(303);
    const download = await app.inject({ url: `/layouts/editor.layout?layout=${code}`, remoteAddress: '127.0.0.5' });
    expect(download.statusCode).toBe(429);
    const cookie = await newPlayer(app);
    const saved = await save(app, cookie, { layout: code });
    expect(saved.statusCode).toBe(429);
    expect(checks).toHaveBeenCalledTimes(2);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts')).toEqual([{ n: 0 }]);
    // Another network has its own budget.
    expect((await view('127.0.1.2')).statusCode).toBe(200);
  });

  test('a small draft costs little: a person clicking without script for a minute stays within the budget', async () => {
    const clock = testClock(1_750_000_000_000);
    const app = await build({ now: clock.now });
    let draft = makeDraftCode(SMALL);
    for (let click = 0; click < 60; click++) {
      clock.advance(1_000); // a click a second
      const x = 2 * (click % 12) + 14;
      const y = 2 * Math.floor(click / 12) + 8;
      const res = await app.inject({ url: `/layouts/editor?layout=${draft}&cell=${x},${y}` });
      expect(res.statusCode).toBe(303);
      const next = await app.inject({ url: res.headers.location as string });
      expect(next.statusCode).toBe(200);
      draft = new URL(res.headers.location as string, 'http://x').searchParams.get('layout')!;
    }
    expect(parseDraftCode(draft)).toMatchObject({ ok: true, slots: { length: SMALL.length + 60 } });
  });
});
