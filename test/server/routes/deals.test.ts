/**
 * Deals are stored on first use and served as stored: a link keeps its board
 * after the generator changes (docs/contracts.md, "Pages": same link, same board, forever).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, test } from 'vitest';
import { GENERATOR_VERSION, deal, ok, type Deal } from '../../../src/engine/index.ts';
import { layoutById } from '../../../src/engine/builtins.ts';
import { build, createGame, newPlayer, postMoves, solutionMoves, query } from '../helper.ts';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A "next version" of the generator: other faces (the pairs in another order), version '999'. */
const bumpedDeal: typeof deal = (layout, seed, mode) => {
  const real = deal(layout, seed, mode);
  if (!real.ok) return real;
  const d = real.value.deal;
  const order = d.solution;
  const faces = d.tiles.map((t) => t.face);
  const bumped = faces.slice();
  order.forEach(([a, b], k) => {
    const [c, e] = order[(k + 1) % order.length]!; // each pair takes the faces of the next pair
    bumped[a] = faces[c]!;
    bumped[b] = faces[e]!;
  });
  return ok({
    deal: { ...d, generator: '999', tiles: d.tiles.map((t, i) => ({ ...t, face: bumped[i]! })) },
    stats: real.value.stats,
  });
};

describe('stored deals', () => {
  test('a generator bump: old links keep their board, new links get the new generator', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'mj-deals-'));
    dirs.push(dir);
    const databasePath = join(dir, 'test.db');

    const before = await build({ databasePath });
    const cookie = await newPlayer(before); // a player opened the link: that stores it (a visit without a cookie would not)
    const old = await before.inject({ url: '/api/deals/turtle/shared-link', headers: { cookie } });
    const oldPage = await before.inject({ url: '/play/turtle/shared-link' });
    await before.close();

    const after = await build({ databasePath, dealer: { deal: bumpedDeal } });
    const again = await after.inject({ url: '/api/deals/turtle/shared-link' });
    expect(again.body).toBe(old.body);
    expect(again.json().generator).toBe(GENERATOR_VERSION);
    const page = await after.inject({ url: '/play/turtle/shared-link' });
    const faces = (html: string) => html.match(/data-slot="\d+" data-face="\w+"/g); // the board's, not the lesson's
    expect(faces(page.body)).toEqual(faces(oldPage.body));

    const fresh = (await after.inject({ url: '/api/deals/turtle/new-link' })).json();
    expect(fresh.generator).toBe('999');
    const direct = deal(layoutById('turtle')!, 'new-link', 'relaxed');
    expect(direct.ok && fresh.tiles).not.toEqual(direct.ok && direct.value.deal.tiles);
  });

  test('a row made by another generator is served, played and verified as stored', async () => {
    const app = await build();
    const real = deal(layoutById('garden')!, 'legacy', 'relaxed');
    if (!real.ok) throw new Error(real.message);
    const legacy = (bumpedDeal(layoutById('garden')!, 'legacy', 'relaxed') as { value: { deal: Deal } }).value.deal;
    const stored: Deal = { ...legacy, generator: '0' };
    await query(
      app,
      "INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES ('garden', 'legacy', 'relaxed', '0', ?, 0)",
      JSON.stringify(stored),
    );
    const res = await app.inject({ url: '/api/deals/garden/legacy' });
    expect(res.json()).toEqual(stored);
    expect(res.json().tiles).not.toEqual(real.value.deal.tiles);
    const page = await app.inject({ url: '/play/garden/legacy' });
    const board = [...page.body.matchAll(/data-slot="\d+" data-face="(\w+)"/g)].map((m) => m[1]); // not the lesson's
    expect(board).toEqual(stored.tiles.map((t) => t.face));
    // A game on it is checked against the stored board: its solution clears it.
    const cookie = await newPlayer(app);
    const game = await createGame(app, cookie, { layout: 'garden', seed: 'legacy' });
    expect(game.generator).toBe('0');
    const won = await postMoves(app, cookie, game.id, solutionMoves(stored));
    expect(won.json().status).toBe('won');
  });

  test('a stored deal of a layout no longer built in is still served', async () => {
    const app = await build();
    const real = deal(layoutById('garden')!, 'old', 'relaxed');
    if (!real.ok) throw new Error(real.message);
    const retired = { ...real.value.deal, layout: 'retired' };
    await query(
      app,
      "INSERT INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES ('retired', 'old', 'relaxed', '1', ?, 0)",
      JSON.stringify(retired),
    );
    expect((await app.inject({ url: '/api/deals/retired/old' })).json()).toEqual(retired);
    const page = await app.inject({ url: '/play/retired/old' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-layout="retired"');
  });

  test('one row per (layout, seed, mode), however many requests', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    await Promise.all(
      Array.from({ length: 5 }, () => app.inject({ url: '/api/deals/turtle/same', headers: { cookie } })),
    );
    await app.inject({ url: '/play/turtle/same', headers: { cookie } });
    await app.inject({ url: '/api/deals/turtle/same?mode=classic', headers: { cookie } });
    const rows = await query(app, 'SELECT layout, seed, mode, generator FROM deals ORDER BY mode');
    expect(rows).toEqual([
      { layout: 'turtle', seed: 'same', mode: 'classic', generator: GENERATOR_VERSION },
      { layout: 'turtle', seed: 'same', mode: 'relaxed', generator: GENERATOR_VERSION },
    ]);
  });
});
