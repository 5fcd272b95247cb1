/** The stores (stores/types.ts) as `fastify.*Store`, over the backend the database plugin opened. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { keyOldNicknames } from '../db/nickname-keys.ts';
import { createPgStores, createSqliteStores } from '../stores/index.ts';
import type {
  ChallengesStore,
  CustomLayoutsStore,
  DealsStore,
  GamesStore,
  PlayersStore,
  ReplaysStore,
  SettingsStore,
  Stores,
} from '../stores/types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gamesStore: GamesStore;
    playersStore: PlayersStore;
    dealsStore: DealsStore;
    customLayoutsStore: CustomLayoutsStore;
    settingsStore: SettingsStore;
    replaysStore: ReplaysStore;
    challengesStore: ChallengesStore;
  }
}

function storesOf(fastify: FastifyInstance): Stores {
  if (fastify.backend === 'postgres') return createPgStores(fastify.pg!, fastify.caches);
  const db = fastify.db!;
  const keyed = keyOldNicknames(db); // PostgreSQL began with keys
  if (keyed > 0) fastify.log.info({ keyed }, 'gave older nicknames their lookalike key');
  return createSqliteStores(db, fastify.caches);
}

export default fp(
  async (fastify: FastifyInstance) => {
    const stores = storesOf(fastify);
    fastify.decorate('gamesStore', stores.games);
    fastify.decorate('playersStore', stores.players);
    fastify.decorate('dealsStore', stores.deals);
    fastify.decorate('customLayoutsStore', stores.customLayouts);
    fastify.decorate('settingsStore', stores.settings);
    fastify.decorate('replaysStore', stores.replays);
    fastify.decorate('challengesStore', stores.challenges);
  },
  { name: 'stores', dependencies: ['database'] },
);
