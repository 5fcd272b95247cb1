/** The PostgreSQL backend: its six stores over one pool. */
import type pg from 'pg';
import type { MeasuredCache } from '../../services/lru.ts';
import type { Stores } from '../types.ts';
import { postgresSql } from '../../db/sql.ts';
import { createCustomLayoutsStore } from '../custom-layouts.ts';
import { createReplaysStore } from '../replays.ts';
import { createSettingsStore } from '../settings.ts';
import { createPgDealsRepository } from './deals.ts';
import { createPgGamesRepository } from './games.ts';
import { createPgPlayersRepository } from './players.ts';

/** The stores over `pool`; the deals store's shape cache joins `caches`. */
export function createPgStores(pool: pg.Pool, caches: MeasuredCache[] = []): Stores {
  const sql = postgresSql(pool);
  return {
    players: createPgPlayersRepository(pool),
    deals: createPgDealsRepository(pool, caches),
    games: createPgGamesRepository(pool),
    customLayouts: createCustomLayoutsStore(sql),
    settings: createSettingsStore(sql),
    replays: createReplaysStore(sql),
  };
}
