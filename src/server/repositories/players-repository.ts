/**
 * Players over SQLite (PlayersStore): anonymous ids from the cookie, with an
 * optional nickname. The row is written with the player's first game (see
 * games-repository.ts), so a visit alone stores nothing.
 */
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { PlayerRow, PlayersStore } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    playersRepository: PlayersStore;
  }
}

export function createPlayersRepository(db: Database): PlayersStore {
  const byId = db.prepare<[string], PlayerRow>('SELECT id, nickname, created_at FROM players WHERE id = ?');
  const rename = db.prepare<[string | null, string]>('UPDATE players SET nickname = ? WHERE id = ?');
  return {
    async find(id) {
      return byId.get(id);
    },
    async setNickname(id, nickname) {
      return rename.run(nickname, id).changes === 1;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('playersRepository', createPlayersRepository(fastify.db));
  },
  { name: 'players-repository', dependencies: ['database'] },
);
