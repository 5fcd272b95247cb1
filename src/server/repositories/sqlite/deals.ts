/**
 * Stored deals over SQLite (DealsStore): the first deal served for a (layout,
 * seed, mode) is kept with the generator version that made it, and served as
 * stored from then on.
 *
 * Storage (migration 004): the layout's coordinates once per distinct shape, and per deal its faces
 * and solution as short strings (engine codec.ts): about 0.6 KB for a turtle deal instead of 5.9 KB
 * of JSON. `deal_json` of a returned row is rebuilt from them, byte for byte the JSON the generator
 * made (the test stores and compares). Rows from before keep their JSON as it was. The deal's difficulty
 * is stored beside it (migration 011); a row from before is measured on its first read and kept so.
 */
import type { Database } from 'better-sqlite3';
import type { Deal } from '../../../engine/index.ts';
import { compactDeal, keepShape, rebuildRow, shapeCache, type Slots, type StoredRow } from '../deal-rows.ts';
import type { MeasuredCache } from '../../services/lru.ts';
import type { DealRow, DealsStore } from '../types.ts';

export function createDealsRepository(db: Database, caches: MeasuredCache[] = []): DealsStore {
  const columns = 'id, layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score';
  const byKey = db.prepare<[string, string, string], StoredRow>(
    `SELECT ${columns} FROM deals WHERE layout = ? AND seed = ? AND mode = ?`,
  );
  const byId = db.prepare<[number], StoredRow>(`SELECT ${columns} FROM deals WHERE id = ?`);
  const insert = db.prepare<[string, string, string, string, number, string, string, string, number, number]>(
    `INSERT OR IGNORE INTO deals (layout, seed, mode, generator, deal_json, shape_id, faces, solution, band, score, created_at)
     VALUES (?, ?, ?, ?, '', ?, ?, ?, ?, ?, ?)`,
  );
  const keepDifficulty = db.prepare<[string, number, number]>(
    'UPDATE deals SET band = ?, score = ? WHERE id = ? AND band IS NULL',
  );
  const insertShape = db.prepare<[string, string]>('INSERT OR IGNORE INTO shapes (hash, slots) VALUES (?, ?)');
  const shapeByHash = db.prepare<[string], { id: number }>('SELECT id FROM shapes WHERE hash = ?');
  const shapeById = db.prepare<[number], { slots: string }>('SELECT slots FROM shapes WHERE id = ?');
  const unplayed = `seed NOT LIKE 'daily-%' AND NOT EXISTS (SELECT 1 FROM games g WHERE g.deal_id = deals.id)
       AND id NOT IN (SELECT value FROM json_each(@keep))`;
  const pruneOld = db.prepare<[{ before: number; keep: string; limit: number }]>(
    `DELETE FROM deals WHERE id IN (SELECT id FROM deals WHERE created_at < @before AND ${unplayed} LIMIT @limit)`,
  );
  const pruneOver = db.prepare<[{ max: number; keep: string; limit: number }]>(
    `DELETE FROM deals WHERE id IN (
       SELECT id FROM (SELECT id FROM deals WHERE ${unplayed} ORDER BY id DESC LIMIT -1 OFFSET @max) ORDER BY id LIMIT @limit)`,
  );
  const shapes = shapeCache(); // shape id → coordinates, parsed once
  caches.push(shapes);

  const slotsOf = (id: number): Slots => {
    let slots = shapes.get(id);
    if (!slots) {
      slots = JSON.parse(shapeById.get(id)!.slots) as Slots;
      keepShape(shapes, id, slots);
    }
    return slots;
  };

  /** The row rebuilt; a difficulty measured now (a row from before migration 011) is kept from then on. */
  const toRow = (row: StoredRow | undefined): DealRow | undefined => {
    if (!row) return undefined;
    const { measured, ...rebuilt } = rebuildRow(row, slotsOf);
    if (measured) keepDifficulty.run(measured.band, measured.score, row.id);
    return rebuilt;
  };

  const storeCompact = db.transaction(
    (layout: string, seed: string, mode: string, generator: string, deal: Deal, now: number) => {
      const { slots, hash, faces, solution, band, score } = compactDeal(deal);
      insertShape.run(hash, slots);
      insert.run(layout, seed, mode, generator, shapeByHash.get(hash)!.id, faces, solution, band, score, now);
    },
  );

  return {
    async find({ layout, seed, mode }) {
      return toRow(byKey.get(layout, seed, mode));
    },
    async findById(id) {
      return toRow(byId.get(id));
    },
    async store({ layout, seed, mode }, generator, dealJson, now) {
      storeCompact(layout, seed, mode, generator, JSON.parse(dealJson) as Deal, now);
      return toRow(byKey.get(layout, seed, mode))!;
    },
    async pruneUnplayed({ before, max, keep, limit }) {
      const keepJson = JSON.stringify(keep);
      const old = pruneOld.run({ before, keep: keepJson, limit }).changes;
      return old + pruneOver.run({ max, keep: keepJson, limit }).changes;
    },
  };
}
