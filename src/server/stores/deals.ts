/**
 * Stored deals (DealsStore): the first deal served for a (layout, seed, mode) is kept and served as stored,
 * in compact form (docs/storage.md, "Compact deals").
 */
import type { Deal } from '../../engine/index.ts';
import type { Sql } from '../db/sql.ts';
import type { MeasuredCache } from '../utils/lru.ts';
import { compactDeal, keepShape, rebuildRow, shapeCache, type Slots, type StoredRow } from './deal-rows.ts';
import type { DealRow, DealsStore } from './types.ts';

const COLUMNS = 'id, layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score';
const BY_KEY = `SELECT ${COLUMNS} FROM deals WHERE layout = ? AND seed = ? AND mode = ?`;

export function createDealsStore(sql: Sql, caches: MeasuredCache[] = []): DealsStore {
  const shapes = shapeCache();
  caches.push(shapes);
  const d = sql.dialect;
  const unplayed = `seed NOT LIKE 'daily-%' AND NOT EXISTS (SELECT 1 FROM games g WHERE g.deal_id = deals.id)
       AND ${d.among('id', true)}`;
  const pruneOld = `DELETE FROM deals WHERE id IN (
       SELECT id FROM deals WHERE created_at < ? AND ${unplayed} ORDER BY id LIMIT ?)`;
  const pruneOver = `DELETE FROM deals WHERE id IN (
       SELECT id FROM (SELECT id FROM deals WHERE ${unplayed} ORDER BY id DESC ${d.offsetOnly}) AS o ORDER BY id LIMIT ?)`;

  const toRow = async (row: StoredRow | undefined): Promise<DealRow | undefined> => {
    if (!row) return undefined;
    let slots = row.shape_id === null ? undefined : shapes.get(row.shape_id);
    if (row.shape_id !== null && !slots) {
      const shape = await sql.one<{ slots: string }>('SELECT slots FROM shapes WHERE id = ?', [row.shape_id]);
      slots = JSON.parse(shape!.slots) as Slots;
      keepShape(shapes, row.shape_id, slots);
    }
    const { measured, ...rebuilt } = rebuildRow(row, () => slots!);
    if (measured)
      await sql.run('UPDATE deals SET band = ?, score = ? WHERE id = ? AND band IS NULL', [
        measured.band,
        measured.score,
        row.id,
      ]);
    return rebuilt;
  };

  return {
    async find({ layout, seed, mode }) {
      return toRow(await sql.one<StoredRow>(BY_KEY, [layout, seed, mode]));
    },
    async findById(id) {
      return toRow(await sql.one<StoredRow>(`SELECT ${COLUMNS} FROM deals WHERE id = ?`, [id]));
    },
    async store({ layout, seed, mode }, generator, dealJson, now) {
      const { slots, hash, faces, solution, band, score } = compactDeal(JSON.parse(dealJson) as Deal);
      const row = await sql.transaction(async (tx) => {
        await tx.run('INSERT INTO shapes (hash, slots) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING', [hash, slots]);
        const shape = (await tx.one<{ id: number }>('SELECT id FROM shapes WHERE hash = ?', [hash]))!.id;
        await tx.run(
          `INSERT INTO deals (layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score, created_at)
           VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?) ON CONFLICT (layout, seed, mode) DO NOTHING`,
          [layout, seed, mode, generator, shape, faces, solution, band, score, now],
        );
        return tx.one<StoredRow>(BY_KEY, [layout, seed, mode]);
      });
      return (await toRow(row))!;
    },
    async pruneUnplayed({ before, max, keep, limit }) {
      const kept = sql.list(keep);
      const old = await sql.run(pruneOld, [before, kept, limit]);
      return old + (await sql.run(pruneOver, [kept, max, limit]));
    },
  };
}
