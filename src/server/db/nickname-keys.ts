/**
 * Gives names set before SQLite's migration 005 their lookalike key (services/names.ts), so new names are
 * compared with them too; PostgreSQL began with keys. A name whose key another name holds already keeps no
 * key (it stays shown; nobody new can take a lookalike of the first). Returns how many got one.
 */
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
