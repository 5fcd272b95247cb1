/** Server settings kept in the database, such as the generated cookie secret. */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

declare module 'fastify' {
  interface FastifyInstance {
    settingsRepository: ReturnType<typeof createSettingsRepository>;
  }
}

export function createSettingsRepository(fastify: FastifyInstance) {
  const db = fastify.db;
  const select = db.prepare<[string], { value: string }>('SELECT value FROM settings WHERE key = ?');
  const insert = db.prepare<[string, string]>('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)');
  return {
    get(key: string): string | undefined {
      return select.get(key)?.value;
    },
    /** The stored value, or `make()` stored now; two servers starting together agree on one. */
    getOrCreate(key: string, make: () => string): string {
      insert.run(key, make());
      return select.get(key)!.value;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('settingsRepository', createSettingsRepository(fastify));
  },
  { name: 'settings-repository', dependencies: ['database'] },
);
