/** Players' own layouts over PostgreSQL (CustomLayoutsStore); see ../sqlite/custom-layouts.ts for SQLite's. */
import type pg from 'pg';
import { transaction } from '../../db/postgres.ts';
import type { CustomLayoutRow, CustomLayoutsStore } from '../types.ts';

const COLUMNS = 'id, name, format, tiles, slots, created_at';

export function createPgCustomLayoutsRepository(pool: pg.Pool): CustomLayoutsStore {
  const byId = async (q: pg.Pool | pg.PoolClient, id: string): Promise<CustomLayoutRow | undefined> =>
    (await q.query<CustomLayoutRow>(`SELECT ${COLUMNS} FROM custom_layouts WHERE id = $1`, [id])).rows[0];
  return {
    async find(id) {
      return byId(pool, id);
    },
    async store(row) {
      return transaction(pool, async (client) => {
        const inserted = await client.query(
          `INSERT INTO custom_layouts (${COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
          [row.id, row.name, row.format, row.tiles, row.slots, row.created_at],
        );
        const created = inserted.rowCount === 1;
        return { row: created ? row : (await byId(client, row.id))!, created };
      });
    },
    async names(ids) {
      const names = new Map<string, string>();
      if (ids.length === 0) return names;
      const rows = await pool.query<{ id: string; name: string }>(
        'SELECT id, name FROM custom_layouts WHERE id = ANY($1::text[])',
        [ids],
      );
      for (const r of rows.rows) names.set(r.id, r.name);
      return names;
    },
  };
}
