/**
 * Layout name squatting (docs/server.md, "Your own layouts"): a custom layout's id comes from its shape, so anyone
 * may store a well-known shape first, under any name. No page, title, stats or API then shows that name to anyone
 * but the one who gave it: everyone else sees their own name of it, a neutral name made of its id, or a built-in's
 * name for a built-in's shape.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { describe, expect, test } from 'vitest';
import { corpusDir } from '../../../src/cli/corpus.ts';
import { sortSlots } from '../../../src/engine/index.ts';
import { makeDraftCode } from '../../../src/shared/draft.ts';
import { build, createGame, newPlayer } from '../helper.ts';

const CORPUS = corpusDir();
const BOUNDARY = '----mj-squat-boundary';
const SCAM = 'Scam: free coins at evil.example';

/** Uploads a file as the upload form sends it; resolves with the layout's id (from the 303). */
async function upload(app: FastifyInstance, cookie: string, file: Buffer | string, filename: string): Promise<string> {
  const body = Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\n` +
        'Content-Type: application/octet-stream\r\n\r\n',
    ),
    Buffer.from(file),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
  const res = await app.inject({
    method: 'POST',
    url: '/layouts',
    headers: { cookie, 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'sec-fetch-site': 'same-origin' },
    payload: body,
  });
  expect(res.statusCode, res.body.slice(0, 500)).toBe(303);
  return /^\/layouts\/(c-[0-9a-f]{12})$/.exec(res.headers.location as string)![1]!;
}

/** Every place a layout's name is shown to `cookie`, in its language. */
async function shown(app: FastifyInstance, cookie: string, id: string): Promise<string> {
  const game = await createGame(app, cookie, { layout: id, seed: 'look' });
  const pages = await Promise.all(
    [`/layouts/${id}`, `/play/${id}/look`, '/stats', '/', `/api/layouts/${id}`, '/api/stats'].map((url) =>
      app.inject({ url, headers: { cookie } }),
    ),
  );
  expect(game.id).toBeTruthy();
  return pages.map((p) => p.body).join('\n');
}

describe.skipIf(!existsSync(CORPUS))('nobody can squat a layout’s name', () => {
  test('a shape stored first under a scam name: the next uploader sees their own name, everyone else a neutral one', async () => {
    const app = await build();
    const winds = readFileSync(path.join(CORPUS, 'kmahjongg/4_winds.layout'));
    const attacker = await newPlayer(app);
    const squatted = await upload(app, attacker, winds, `${SCAM}.layout`);
    const victim = await newPlayer(app);
    const id = await upload(app, victim, winds, '4_winds.layout');
    expect(id).toBe(squatted); // the id contract holds: the same shape, the same id
    const page = (await app.inject({ url: `/layouts/${id}`, headers: { cookie: victim } })).body;
    expect(page).toContain('<title>4 winds · Mahjong solitaire</title>'); // the victim's own file's name
    expect(page).toContain('<h1>4 winds</h1>');
    expect(await shown(app, victim, id)).not.toMatch(/scam|evil\.example|free coins/i);
    const stranger = await newPlayer(app);
    const everything = await shown(app, stranger, id);
    expect(everything).not.toMatch(/scam|evil\.example|free coins|4 winds/i);
    expect(everything).toContain(`Custom layout ${id}`);
    // The attacker alone sees the words they gave it.
    expect(await shown(app, attacker, id)).toMatch(/Scam: free coins/);
    // In another language, the neutral name is that language's.
    const fr = (await app.inject({ url: `/layouts/${id}`, headers: { cookie: `${stranger}; lang=fr` } })).body;
    expect(fr).toContain(`<h1>Disposition perso ${id}</h1>`);
  });

  test("a built-in's shape stored under a scam name is shown by the built-in's name", async () => {
    const app = await build();
    const attacker = await newPlayer(app);
    const id = await upload(
      app,
      attacker,
      readFileSync(path.join(CORPUS, 'kmahjongg/default.layout')),
      `${SCAM}.layout`,
    );
    const everything = await shown(app, await newPlayer(app), id);
    expect(everything).not.toMatch(/scam|evil\.example|free coins/i);
    expect(everything).toContain('<h1>Turtle</h1>');
  });

  test('a GNOME map or an editor save named as a scam shows no more of it', async () => {
    const app = await build();
    const attacker = await newPlayer(app);
    const tiles =
      [0, 1, 2, 3, 4, 5].map((x) => `<tile x="${x}" y="0" z="0"/>`).join('') +
      '<tile x="2" y="0" z="1"/><tile x="3" y="0" z="1"/>';
    const fromMap = await upload(app, attacker, `<mahjongg><map name="${SCAM}">${tiles}</map></mahjongg>`, 'x.map');
    expect(await shown(app, await newPlayer(app), fromMap)).not.toMatch(/scam|evil\.example/i);
    const drawn = sortSlots([2, 6, 10].map((x) => ({ x, y: 2, z: 0 })).concat([{ x: 2, y: 2, z: 1 }]));
    const saved = await app.inject({
      method: 'POST',
      url: '/layouts/editor',
      headers: {
        cookie: attacker,
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-site': 'same-origin',
      },
      payload: new URLSearchParams({ layout: makeDraftCode(drawn), name: SCAM }).toString(),
    });
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(303);
    const id = /c-[0-9a-f]{12}/.exec(saved.headers.location as string)![0];
    expect(await shown(app, await newPlayer(app), id)).not.toMatch(/scam|evil\.example/i);
  });
});
