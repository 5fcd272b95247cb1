/**
 * Players' own layouts (CustomLayoutsStore): one row per shape, keyed by its content id, written once and
 * never changed.
 */
import type { Sql } from '../db/sql.ts';
import type { CustomLayoutRow, CustomLayoutsStore } from './types.ts';

const COLUMNS = 'id, name, format, tiles, slots, created_at';
const BY_ID = `SELECT ${COLUMNS} FROM custom_layouts WHERE id = ?`;
const NAMES_AT_ONCE = 500; // ids per query of names(); a page of stats has far fewer

export function createCustomLayoutsStore(sql: Sql): CustomLayoutsStore {
  const namesOf = `SELECT id, name FROM custom_layouts WHERE ${sql.dialect.among('id')}`;
  return {
    async find(id) {
      return sql.one<CustomLayoutRow>(BY_ID, [id]);
    },
    async store(row) {
      return sql.transaction(async (tx) => {
        const created =
          (await tx.run(
            `INSERT INTO custom_layouts (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
            [row.id, row.name, row.format, row.tiles, row.slots, row.created_at],
          )) === 1;
        return { row: created ? row : (await tx.one<CustomLayoutRow>(BY_ID, [row.id]))!, created };
      });
    },
    async names(ids) {
      const names = new Map<string, string>();
      for (let i = 0; i < ids.length; i += NAMES_AT_ONCE)
        for (const r of await sql.all<{ id: string; name: string }>(namesOf, [
          sql.list(ids.slice(i, i + NAMES_AT_ONCE)),
        ]))
          names.set(r.id, r.name);
      return names;
    },
  };
}
