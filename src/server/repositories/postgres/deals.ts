/**
 * Stored deals over PostgreSQL (DealsStore); see ../sqlite/deals.ts for SQLite's and the compact
 * storage (shapes once, faces and solution per deal). The rows are rebuilt into the same deal JSON by
 * the same code (`compactRow` there).
 */
import type pg from 'pg';
import type { Deal } from '../../../engine/index.ts';
import { transaction } from '../../db/postgres.ts';
import { compactDeal, keepShape, rebuildRow, shapeCache, type Slots, type StoredRow } from '../deal-rows.ts';
import type { MeasuredCache } from '../../services/lru.ts';
import type { DealsStore } from '../types.ts';

const COLUMNS = 'id, layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score';

export function createPgDealsRepository(pool: pg.Pool, caches: MeasuredCache[] = []): DealsStore {
  const shapes = shapeCache(); // shape id → coordinates, parsed once
  caches.push(shapes);

  const toRow = async (row: StoredRow | undefined) => {
    if (!row) return undefined;
    let slots = row.shape_id === null ? undefined : shapes.get(row.shape_id);
    if (row.shape_id !== null && !slots) {
      const shape = await pool.query<{ slots: string }>('SELECT slots FROM shapes WHERE id = $1', [row.shape_id]);
      slots = JSON.parse(shape.rows[0]!.slots) as Slots;
      keepShape(shapes, row.shape_id, slots);
    }
    const { measured, ...rebuilt } = rebuildRow(row, () => slots!);
    // A row from before migration 005 is measured on its first read and kept so.
    if (measured)
      await pool.query('UPDATE deals SET band = $1, score = $2 WHERE id = $3 AND band IS NULL', [
        measured.band,
        measured.score,
        row.id,
      ]);
    return rebuilt;
  };
  const byKey = async (q: pg.Pool | pg.PoolClient, layout: string, seed: string, mode: string) =>
    (
      await q.query<StoredRow>(`SELECT ${COLUMNS} FROM deals WHERE layout = $1 AND seed = $2 AND mode = $3`, [
        layout,
        seed,
        mode,
      ])
    ).rows[0];
  const unplayed = `seed NOT LIKE 'daily-%' AND NOT EXISTS (SELECT 1 FROM games g WHERE g.deal_id = deals.id)
       AND id <> ALL($1::integer[])`;

  return {
    async find({ layout, seed, mode }) {
      return toRow(await byKey(pool, layout, seed, mode));
    },
    async findById(id) {
      return toRow((await pool.query<StoredRow>(`SELECT ${COLUMNS} FROM deals WHERE id = $1`, [id])).rows[0]);
    },
    async store({ layout, seed, mode }, generator, dealJson, now) {
      const { slots, hash, faces, solution, band, score } = compactDeal(JSON.parse(dealJson) as Deal);
      const row = await transaction(pool, async (client) => {
        await client.query('INSERT INTO shapes (hash, slots) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING', [
          hash,
          slots,
        ]);
        const shape = (await client.query<{ id: number }>('SELECT id FROM shapes WHERE hash = $1', [hash])).rows[0]!.id;
        await client.query(
          `INSERT INTO deals (layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score, created_at)
           VALUES ($1, $2, $3, $4, '', $5, $6, $7, $8, $9, $10) ON CONFLICT (layout, seed, mode) DO NOTHING`,
          [layout, seed, mode, generator, shape, faces, solution, band, score, now],
        );
        return byKey(client, layout, seed, mode);
      });
      return (await toRow(row))!;
    },
    async pruneUnplayed({ before, max, keep, limit }) {
      const old = await pool.query(
        `DELETE FROM deals WHERE id IN (
           SELECT id FROM deals WHERE created_at < $2 AND ${unplayed} ORDER BY id LIMIT $3)`,
        [keep, before, limit],
      );
      const over = await pool.query(
        `DELETE FROM deals WHERE id IN (
           SELECT id FROM (SELECT id FROM deals WHERE ${unplayed} ORDER BY id DESC OFFSET $2) AS o ORDER BY id LIMIT $3)`,
        [keep, max, limit],
      );
      return (old.rowCount ?? 0) + (over.rowCount ?? 0);
    },
  };
}
