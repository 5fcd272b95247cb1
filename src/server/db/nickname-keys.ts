/** Keys names set before SQLite migration 005 (services/names.ts); a name whose key is taken gets none. */
import type { Database } from 'better-sqlite3';
import { nameKey } from '../services/names.ts';

export function keyOldNicknames(db: Database): number {
  const rows = db
    .prepare<[], { id: string; nickname: string }>(
      'SELECT id, nickname FROM players WHERE nickname IS NOT NULL AND nickname_key IS NULL ORDER BY created_at',
    )
    .all();
  const set = db.prepare<[string, string]>('UPDATE OR IGNORE players SET nickname_key = ? WHERE id = ?');
  let keyed = 0;
  db.transaction(() => {
    for (const row of rows) keyed += set.run(nameKey(row.nickname), row.id).changes;
  })();
  return keyed;
}
