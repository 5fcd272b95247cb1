/**
 * Players: anonymous ids from the cookie, with an optional nickname. A row is
 * written on a player's first write (a game, a nickname), so a visit alone
 * stores nothing.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    playersRepository: ReturnType<typeof createPlayersRepository>;
  }
}

export interface PlayerRow {
  id: string;
  nickname: string | null;
  created_at: number; // ms epoch
}

export function createPlayersRepository(fastify: FastifyInstance) {
  const db = fastify.db;
  const insert = db.prepare<[string, number]>('INSERT OR IGNORE INTO players (id, created_at) VALUES (?, ?)');
  const byId = db.prepare<[string], PlayerRow>('SELECT id, nickname, created_at FROM players WHERE id = ?');
  const rename = db.prepare<[string | null, string]>('UPDATE players SET nickname = ? WHERE id = ?');
  return {
    /** Writes the player's row if it is not there yet. */
    ensure(id: string, now: number): void {
      insert.run(id, now);
    },
    find(id: string): PlayerRow | undefined {
      return byId.get(id);
    },
    setNickname(id: string, nickname: string | null): boolean {
      return rename.run(nickname, id).changes === 1;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('playersRepository', createPlayersRepository(fastify));
  },
  { name: 'players-repository', dependencies: ['database'] },
);
