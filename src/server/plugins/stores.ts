/**
 * The stores (repositories/types.ts) as `fastify.gamesRepository`, `playersRepository`, `dealsRepository`,
 * `customLayoutsRepository`, `settingsRepository`, `replaysRepository` and `challengesRepository`: the backend is picked once, here, from the database
 * plugin registered before (plugins/database.ts for SQLite, plugins/postgres.ts with DATABASE_URL).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { keyOldNicknames } from '../db/nickname-keys.ts';
import { createPgStores, createSqliteStores } from '../repositories/index.ts';
import type {
  ChallengesStore,
  CustomLayoutsStore,
  DealsStore,
  GamesStore,
  PlayersStore,
  ReplaysStore,
  SettingsStore,
  Stores,
} from '../repositories/types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gamesRepository: GamesStore;
    playersRepository: PlayersStore;
    dealsRepository: DealsStore;
    customLayoutsRepository: CustomLayoutsStore;
    settingsRepository: SettingsStore;
    replaysRepository: ReplaysStore;
    challengesRepository: ChallengesStore;
  }
}

/** The stores of the backend the database plugin opened. */
function storesOf(fastify: FastifyInstance): Stores {
  if (fastify.backend === 'postgres') return createPgStores(fastify.pg!, fastify.caches);
  const db = fastify.db!;
  const keyed = keyOldNicknames(db); // PostgreSQL began with keys (migrations/postgres/001)
  if (keyed > 0) fastify.log.info({ keyed }, 'gave older nicknames their lookalike key');
  return createSqliteStores(db, fastify.caches);
}

export default fp(
  async (fastify: FastifyInstance) => {
    const stores = storesOf(fastify);
    fastify.decorate('gamesRepository', stores.games);
    fastify.decorate('playersRepository', stores.players);
    fastify.decorate('dealsRepository', stores.deals);
    fastify.decorate('customLayoutsRepository', stores.customLayouts);
    fastify.decorate('settingsRepository', stores.settings);
    fastify.decorate('replaysRepository', stores.replays);
    fastify.decorate('challengesRepository', stores.challenges);
  },
  { name: 'stores', dependencies: ['database'] },
);
