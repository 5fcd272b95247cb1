/** Server settings over SQLite (SettingsStore), such as the generated cookie secret. */
import type { Database } from 'better-sqlite3';
import type { SettingsStore } from '../types.ts';

export function createSettingsRepository(db: Database): SettingsStore {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
  const remove = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  return {
    async get(key) {
      return select.get(key)?.value;
    },
    async getOrCreate(key, make) {
      insert.run(key, make());
      return select.get(key)!.value;
    },
    async delete(key) {
      remove.run(key);
    },
  };
}
