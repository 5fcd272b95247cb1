/** The SQLite backend: its six stores over one better-sqlite3 connection. */
import type { Database } from 'better-sqlite3';
import type { MeasuredCache } from '../../services/lru.ts';
import type { Stores } from '../types.ts';
import { createCustomLayoutsRepository } from './custom-layouts.ts';
import { createDealsRepository } from './deals.ts';
import { createGamesRepository } from './games.ts';
import { createPlayersRepository } from './players.ts';
import { createSettingsRepository } from './settings.ts';
import { createReplaysRepository } from './replays.ts';

export { keyOldNicknames } from './players.ts';

/** The stores over `db`; the deals store's shape cache joins `caches`. */
export function createSqliteStores(db: Database, caches: MeasuredCache[] = []): Stores {
  return {
    players: createPlayersRepository(db),
    deals: createDealsRepository(db, caches),
    games: createGamesRepository(db),
    customLayouts: createCustomLayoutsRepository(db),
    settings: createSettingsRepository(db),
    replays: createReplaysRepository(db),
  };
}
