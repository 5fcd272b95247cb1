/** The SQLite backend: its six stores over one better-sqlite3 connection. */
import type { Database } from 'better-sqlite3';
import type { MeasuredCache } from '../../services/lru.ts';
import type { Stores } from '../types.ts';
import { sqliteSql } from '../../db/sql.ts';
import { createCustomLayoutsStore } from '../custom-layouts.ts';
import { createReplaysStore } from '../replays.ts';
import { createSettingsStore } from '../settings.ts';
import { createDealsRepository } from './deals.ts';
import { createGamesRepository } from './games.ts';
import { createPlayersRepository } from './players.ts';

export { keyOldNicknames } from './players.ts';

/** The stores over `db`; the deals store's shape cache joins `caches`. */
export function createSqliteStores(db: Database, caches: MeasuredCache[] = []): Stores {
  const sql = sqliteSql(db);
  return {
    players: createPlayersRepository(db),
    deals: createDealsRepository(db, caches),
    games: createGamesRepository(db),
    customLayouts: createCustomLayoutsStore(sql),
    settings: createSettingsStore(sql),
    replays: createReplaysStore(sql),
  };
}
