/**
 * Stored deals over SQLite (DealsStore): the first deal served for a (layout,
 * seed, mode) is kept with the generator version that made it, and served as
 * stored from then on.
 */
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { DealRow, DealsStore } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    dealsRepository: DealsStore;
  }
}

export function createDealsRepository(db: Database): DealsStore {
  const columns = 'id, layout, seed, mode, generator, deal_json';
  const byKey = db.prepare<[string, string, string], DealRow>(
    `SELECT ${columns} FROM deals WHERE layout = ? AND seed = ? AND mode = ?`,
  );
  const byId = db.prepare<[number], DealRow>(`SELECT ${columns} FROM deals WHERE id = ?`);
  const insert = db.prepare<[string, string, string, string, string, number]>(
    'INSERT OR IGNORE INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  return {
    async find(layout, seed, mode) {
      return byKey.get(layout, seed, mode);
    },
    async findById(id) {
      return byId.get(id);
    },
    async store(layout, seed, mode, generator, dealJson, now) {
      insert.run(layout, seed, mode, generator, dealJson, now);
      return byKey.get(layout, seed, mode)!;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('dealsRepository', createDealsRepository(fastify.db));
  },
  { name: 'deals-repository', dependencies: ['database'] },
);
