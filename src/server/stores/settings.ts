/** Small server settings (SettingsStore), such as the generated cookie secret. */
import type { Sql } from '../db/sql.ts';
import type { SettingsStore } from './types.ts';

const SELECT = 'SELECT value FROM settings WHERE key = ?';

export function createSettingsStore(sql: Sql): SettingsStore {
  return {
    async get(key) {
      return (await sql.one<{ value: string }>(SELECT, [key]))?.value;
    },
    async getOrCreate(key, make) {
      // READ COMMITTED: the SELECT sees the row a concurrent INSERT committed.
      return sql.transaction(async (tx) => {
        await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO NOTHING', [key, make()]);
        return (await tx.one<{ value: string }>(SELECT, [key]))!.value;
      });
    },
    async delete(key) {
      await sql.run('DELETE FROM settings WHERE key = ?', [key]);
    },
  };
}
