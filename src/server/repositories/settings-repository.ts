/** Server settings over SQLite (SettingsStore), such as the generated cookie secret. */
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { createPgSettingsRepository } from './postgres/settings.ts';
import type { SettingsStore } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    settingsRepository: SettingsStore;
  }
}

export function createSettingsRepository(db: Database): SettingsStore {
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
  const remove = db.prepare<[string]>('DELETE FROM settings WHERE key = ?');
  return {
    async get(key) {
      return select.get(key)?.value;
    },
    async getOrCreate(key, make) {
      insert.run(key, make());
      return select.get(key)!.value;
    },
    async delete(key) {
      remove.run(key);
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate(
      'settingsRepository',
      fastify.backend === 'postgres' ? createPgSettingsRepository(fastify.pg) : createSettingsRepository(fastify.db),
    );
  },
  { name: 'settings-repository', dependencies: ['database'] },
);
