/**
 * Compact deal storage and the bound on deals nobody played.
 */
import { describe, expect, test } from 'vitest';
import { layoutById } from '../../../src/engine/builtins.ts';
import { deal, LAYOUTS } from '../../../src/engine/index.ts';
import { dealKey } from '../../../src/server/schemas/common.ts';
import { KEEP_UNPLAYED_MS } from '../../../src/server/services/dealer.ts';
import { build, createGame, newPlayer, query } from '../helper.ts';

describe('compact deals', () => {
  // One app for every layout: a store per layout cost an app and a database each (42 of them, on both backends).
  test("every built-in layout: the stored deal gives back the generator's JSON byte for byte, in under 1.5 KB", async () => {
    const app = await build();
    for (const { id } of LAYOUTS)
      for (const mode of ['relaxed', 'classic'] as const) {
        if (mode === 'classic' && id !== 'turtle') continue; // classic deals take time; one layout shows the same path
        const made = deal(layoutById(id)!, 'compact', mode);
        if (!made.ok) throw new Error(made.message);
        const json = JSON.stringify(made.value.deal);
        const row = await app.dealsStore.store(dealKey(id, 'compact', mode), made.value.deal.generator, json, 1);
        expect(row.deal_json, id).toBe(json);
        expect((await app.dealsStore.findById(row.id))!.deal_json, id).toBe(json);
        const stored = (
          await query(
            app,
            'SELECT length(faces) + length(solution) + length(deal_json) AS n FROM deals WHERE id = ?',
            row.id,
          )
        )[0] as { n: number };
        expect(stored.n, id).toBeLessThan(1500);
      }
  });

  test('the API serves a compact deal as it was made', async () => {
    const app = await build();
    const res = await app.inject({ url: '/api/deals/turtle/served' });
    const made = deal(layoutById('turtle')!, 'served');
    expect(made.ok && res.body).toBe(made.ok && JSON.stringify(made.value.deal));
  });
});

describe('deals nobody played', () => {
  test(`kept ${KEEP_UNPLAYED_MS / 86_400_000} days; played and daily deals are never deleted; the link deals the same board again`, async () => {
    let clock = 1_750_000_000_000;
    const app = await build({ now: () => clock });
    const cookie = await newPlayer(app);
    const before = (await app.inject({ url: '/api/deals/garden/unplayed', headers: { cookie } })).body;
    await createGame(app, cookie, { layout: 'garden', seed: 'played' });
    await app.inject({ url: `/api/deals/turtle/daily-2025-01-01`, headers: { cookie } });
    const count = async () => ((await query(app, 'SELECT COUNT(*) AS n FROM deals'))[0] as { n: number }).n;
    expect(await count()).toBe(3);
    clock += KEEP_UNPLAYED_MS - 1000;
    expect(await app.dealer.prune()).toBe(0);
    clock += 2000;
    expect(await app.dealer.prune()).toBe(0); // deals in the dealer's cache stay: a request may be about to use one
    const pruned = await app.dealsStore.pruneUnplayed({
      before: clock - KEEP_UNPLAYED_MS,
      max: 100,
      keep: [],
      limit: 100,
    });
    expect(pruned).toBe(1);
    expect(await query(app, 'SELECT seed FROM deals ORDER BY seed')).toEqual([
      { seed: 'daily-2025-01-01' },
      { seed: 'played' },
    ]);
    const again = await build({ databasePath: ':memory:' });
    expect((await again.inject({ url: '/api/deals/garden/unplayed' })).body).toBe(before);
  });

  test('past the cap the oldest unplayed deals go first', async () => {
    const app = await build();
    const cookie = await newPlayer(app);
    for (let i = 0; i < 6; i++) await app.inject({ url: `/api/deals/garden/cap${i}`, headers: { cookie } });
    expect(await app.dealsStore.pruneUnplayed({ before: 0, max: 4, keep: [], limit: 100 })).toBe(2);
    expect((await query(app, 'SELECT seed FROM deals ORDER BY id')).map((r) => (r as { seed: string }).seed)).toEqual([
      'cap2',
      'cap3',
      'cap4',
      'cap5',
    ]);
  });
});
