/**
 * Players' own layouts over SQLite (CustomLayoutsStore, migration 007): one row per shape, keyed
 * by its content id, written once and never changed.
 */
import type { Database } from 'better-sqlite3';
import type { CustomLayoutRow, CustomLayoutsStore } from '../types.ts';

const NAMES_AT_ONCE = 500; // ids per query of names(); SQLite allows 32,766 parameters, a page of stats has far fewer ids

export function createCustomLayoutsRepository(db: Database): CustomLayoutsStore {
  const columns = 'id, name, format, tiles, slots, created_at';
  const byId = db.prepare<[string], CustomLayoutRow>(`SELECT ${columns} FROM custom_layouts WHERE id = ?`);
  const insert = db.prepare<[CustomLayoutRow]>(
    `INSERT OR IGNORE INTO custom_layouts (${columns}) VALUES (@id, @name, @format, @tiles, @slots, @created_at)`,
  );
  const namesOf = db.prepare<[string], { id: string; name: string }>(
    'SELECT id, name FROM custom_layouts WHERE id IN (SELECT value FROM json_each(?))',
  );
  return {
    async find(id) {
      return byId.get(id);
    },
    async store(row) {
      const created = insert.run(row).changes === 1;
      return { row: created ? row : byId.get(row.id)!, created };
    },
    async names(ids) {
      const names = new Map<string, string>();
      for (let i = 0; i < ids.length; i += NAMES_AT_ONCE)
        for (const r of namesOf.all(JSON.stringify(ids.slice(i, i + NAMES_AT_ONCE)))) names.set(r.id, r.name);
      return names;
    },
  };
}
