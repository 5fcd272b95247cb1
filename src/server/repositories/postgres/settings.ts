/** Server settings over PostgreSQL (SettingsStore); see ../sqlite/settings.ts for SQLite's. */
import type pg from 'pg';
import { transaction } from '../../db/postgres.ts';
import type { SettingsStore } from '../types.ts';

export function createPgSettingsRepository(pool: pg.Pool): SettingsStore {
  const select = async (q: pg.Pool | pg.PoolClient, key: string): Promise<string | undefined> =>
    (await q.query<{ value: string }>('SELECT value FROM settings WHERE key = $1', [key])).rows[0]?.value;
  return {
    async get(key) {
      return select(pool, key);
    },
    async getOrCreate(key, make) {
      // READ COMMITTED: the SELECT sees a row another process committed while the INSERT waited on it.
      return transaction(pool, async (client) => {
        await client.query('INSERT INTO settings (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [
          key,
          make(),
        ]);
        return (await select(client, key))!;
      });
    },
    async delete(key) {
      await pool.query('DELETE FROM settings WHERE key = $1', [key]);
    },
  };
}
