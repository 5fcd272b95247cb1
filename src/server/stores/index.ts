/** The stores, written once over a `Sql` of either backend (docs/storage.md, "Stores"). */
import type { Database } from 'better-sqlite3';
import type pg from 'pg';
import { postgresSql, sqliteSql, type Sql } from '../db/sql.ts';
import type { MeasuredCache } from '../utils/lru.ts';
import { createChallengesStore } from './challenges.ts';
import { createCustomLayoutsStore } from './custom-layouts.ts';
import { createDealsStore } from './deals.ts';
import { createGamesStore } from './games.ts';
import { createPlayersStore } from './players.ts';
import { createReplaysStore } from './replays.ts';
import { createSettingsStore } from './settings.ts';
import type { Stores } from './types.ts';

/** The stores over `sql`; the deals store's shape cache joins `caches`. */
export function createStores(sql: Sql, caches: MeasuredCache[] = []): Stores {
  return {
    players: createPlayersStore(sql),
    deals: createDealsStore(sql, caches),
    games: createGamesStore(sql),
    customLayouts: createCustomLayoutsStore(sql),
    settings: createSettingsStore(sql),
    replays: createReplaysStore(sql),
    challenges: createChallengesStore(sql),
  };
}

export const createSqliteStores = (db: Database, caches: MeasuredCache[] = []): Stores =>
  createStores(sqliteSql(db), caches);

export const createPgStores = (pool: pg.Pool, caches: MeasuredCache[] = []): Stores =>
  createStores(postgresSql(pool), caches);
