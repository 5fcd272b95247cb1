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
  const rename = db.prepare<[string | null, string | null, string]>('UPDATE players SET nickname = ?, nickname_key = ? WHERE id = ?');
  return {
    async find(id) {
      return byId.get(id);
    },
    async setNickname(id, nickname, key) {
      try {
        return rename.run(nickname, key, id).changes === 1 ? 'ok' : 'missing';
      } catch (error) {
        if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE') return 'taken'; // a lookalike of another's name
        throw error;
      }
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('playersRepository', createPlayersRepository(fastify.db));
  },
  { name: 'players-repository', dependencies: ['database'] },
);
