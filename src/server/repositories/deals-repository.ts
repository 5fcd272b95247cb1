/**
 * Stored deals: the first deal served for a (layout, seed, mode) is kept with the
 * generator version that made it, and served as stored from then on.
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Mode } from '../../engine/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    dealsRepository: ReturnType<typeof createDealsRepository>;
  }
}

export interface DealRow {
  id: number;
  layout: string;
  seed: string;
  mode: Mode;
  generator: string;
  deal_json: string; // the deal JSON of SPEC §3.3
}

export function createDealsRepository(fastify: FastifyInstance) {
  const db = fastify.db;
  const columns = 'id, layout, seed, mode, generator, deal_json';
  const byKey = db.prepare<[string, string, string], DealRow>(
    `SELECT ${columns} FROM deals WHERE layout = ? AND seed = ? AND mode = ?`,
  );
  const byId = db.prepare<[number], DealRow>(`SELECT ${columns} FROM deals WHERE id = ?`);
  const insert = db.prepare<[string, string, string, string, string, number]>(
    'INSERT OR IGNORE INTO deals (layout, seed, mode, generator, deal_json, created_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  return {
    find(layout: string, seed: string, mode: Mode): DealRow | undefined {
      return byKey.get(layout, seed, mode);
    },
    findById(id: number): DealRow | undefined {
      return byId.get(id);
    },
    /** Stores a deal unless one is stored for its key already; returns the stored one (first writer wins). */
    store(layout: string, seed: string, mode: Mode, generator: string, dealJson: string, now: number): DealRow {
      insert.run(layout, seed, mode, generator, dealJson, now);
      return byKey.get(layout, seed, mode)!;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('dealsRepository', createDealsRepository(fastify));
  },
  { name: 'deals-repository', dependencies: ['database'] },
);
