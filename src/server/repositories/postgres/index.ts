/** The PostgreSQL backend: its six stores over one pool. */
import type pg from 'pg';
import type { MeasuredCache } from '../../services/lru.ts';
import type { Stores } from '../types.ts';
import { createPgCustomLayoutsRepository } from './custom-layouts.ts';
import { createPgDealsRepository } from './deals.ts';
import { createPgGamesRepository } from './games.ts';
import { createPgPlayersRepository } from './players.ts';
import { createPgSettingsRepository } from './settings.ts';
import { createPgReplaysRepository } from './replays.ts';

/** The stores over `pool`; the deals store's shape cache joins `caches`. */
export function createPgStores(pool: pg.Pool, caches: MeasuredCache[] = []): Stores {
  return {
    players: createPgPlayersRepository(pool),
    deals: createPgDealsRepository(pool, caches),
    games: createPgGamesRepository(pool),
    customLayouts: createPgCustomLayoutsRepository(pool),
    settings: createPgSettingsRepository(pool),
    replays: createPgReplaysRepository(pool),
  };
}
