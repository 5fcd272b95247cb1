/**
 * The name an uploader gives a layout (POST /layouts; docs/server.md, "Your own layouts"): the form's `title`
 * field, else the Name= of a KMahjongg .desktop file sent beside the .layout, else the neutral "Custom layout
 * c-…". Bounded, cleaned, stored (custom_layouts.title) and shown escaped; a name too long is a 400 that says so.
 */
import { describe, expect, test } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeLayout, type Slot } from '../../../src/engine/index.ts';
import { makeKmahjongg } from '../../../src/formats/kmahjongg.ts';
import { build, newPlayer, query } from '../helper.ts';

const BOUNDARY = '----mj-names-boundary-41';

/** Two rows of `n` tiles side by side, `gap` half tiles apart: a flat layout no built-in has. */
const rows = (n: number, gap: number): Slot[] =>
  [0, 2].flatMap((y) => Array.from({ length: n }, (_, i) => ({ x: i * gap, y, z: 0 })));
const layoutFile = (slots: readonly Slot[]): string => makeKmahjongg(makeLayout('x', 'x', 'x', slots));

/** POST /layouts as the form sends it: the .layout, and the other fields given. */
function upload(
  app: FastifyInstance,
  cookie: string,
  file: string,
  fields: Record<string, string> = {},
  desktop?: string,
) {
  const part = (name: string, value: string, filename?: string): string =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${filename ? `; filename="${filename}"` : ''}\r\n` +
    `${filename ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n${value}\r\n`;
  const body =
    part('file', file, 'rock_garden.layout') +
    Object.entries(fields)
      .map(([k, v]) => part(k, v))
      .join('') +
    (desktop === undefined ? '' : part('desktop', desktop, 'rock_garden.desktop')) +
    `--${BOUNDARY}--\r\n`;
  return app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}` },
    payload: Buffer.from(body, 'utf8'),
  });
}

const idOf = (location: unknown): string => /^\/layouts\/(c-[0-9a-f]{12})$/.exec(String(location))![1]!;

describe('the name an uploaded layout is shown by', () => {
  test('the form names it: stored cleaned, shown escaped on its page', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await upload(app, cookie, layoutFile(rows(4, 2)), { title: '  Rock <b>garden</b>\u202e & co ' });
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const id = idOf(res.headers.location);
    expect(await query(app, 'SELECT name, title FROM custom_layouts WHERE id = ?', id)).toEqual([
      { name: 'rock garden', title: 'Rock <b>garden</b> & co' }, // the file's name is kept too, never shown
    ]);
    const page = (await app.inject({ url: `/layouts/${id}` })).body;
    expect(page).toContain('<h1>Rock &lt;b&gt;garden&lt;/b&gt; &amp; co</h1>');
    expect(page).not.toContain('<b>garden');
    expect(page).not.toContain('\u202e'); // a bidi override is dropped
    // The play page and the stats name it the same way.
    const play = await app.inject({ url: `/play/${id}/names-1`, headers: { cookie } });
    expect(play.body).toContain('<span class="play-name">Rock &lt;b&gt;garden&lt;/b&gt; &amp; co</span>');
  });

  test('a name longer than 40 characters is refused with a clear 400, and shown back in the form', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const long = 'A'.repeat(41);
    const res = await upload(app, cookie, layoutFile(rows(4, 2)), { title: long });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('A layout&#39;s name is at most 40 characters.');
    expect(res.body).toContain(`value="${long}"`);
    expect(await query(app, 'SELECT COUNT(*) AS n FROM custom_layouts')).toEqual([{ n: 0 }]);
    // Forty is fine; so is a field far past the form's bounds (refused, never a 5xx).
    expect((await upload(app, cookie, layoutFile(rows(4, 2)), { title: 'B'.repeat(40) })).statusCode).toBe(303);
    const huge = await upload(app, cookie, layoutFile(rows(5, 2)), { title: '\u00e9'.repeat(5000) });
    expect(huge.statusCode).toBe(400);
    expect(huge.body).toContain('at most 40 characters');
    // Whoever stores a shape first names it for everyone: a name may not send them anywhere.
    for (const scam of ['Free coins at evil.example', 'mail me@home', 'https://x', 'evil\uff0eexample'])
      expect((await upload(app, cookie, layoutFile(rows(6, 2)), { title: scam })).body).toContain(
        'cannot hold a web or e-mail address',
      );
  });

  test('a .desktop file beside the .layout names it by its Name= when the name field is empty', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const desktop = '[KMahjonggLayout]\r\nName[de]=Steingarten\r\nName=Rock Garden\r\nFileName=rock_garden.layout\r\n';
    const res = await upload(app, cookie, layoutFile(rows(3, 2)), { title: '' }, desktop);
    expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
    const id = idOf(res.headers.location);
    expect((await app.inject({ url: `/layouts/${id}` })).body).toContain('<h1>Rock Garden</h1>');
    // The form's name comes first.
    const typed = await upload(app, cookie, layoutFile(rows(3, 4)), { title: 'Zen' }, desktop);
    expect((await app.inject({ url: typed.headers.location as string })).body).toContain('<h1>Zen</h1>');
    // One without Name= leaves the neutral name.
    const nameless = await upload(app, cookie, layoutFile(rows(6, 4)), {}, '[KMahjonggLayout]\nAuthor=me\n');
    const other = idOf(nameless.headers.location);
    expect((await app.inject({ url: `/layouts/${other}` })).body).toContain(`<h1>Custom layout ${other}</h1>`);
  });

  test('without a name it keeps the neutral one, whatever the file is called', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    const res = await upload(app, cookie, layoutFile(rows(7, 2)));
    const id = idOf(res.headers.location);
    const page = (await app.inject({ url: `/layouts/${id}` })).body;
    expect(page).toContain(`<h1>Custom layout ${id}</h1>`);
    expect(page).not.toContain('rock garden');
  });
});
