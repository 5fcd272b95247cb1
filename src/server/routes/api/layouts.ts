/** GET /api/layouts: the built-in layouts, as the CLI's `layouts` (SPEC §3.1). */
import type { FastifyInstance } from 'fastify';
import { layoutList } from '../../services/layouts.ts';

export default async function apiLayouts(fastify: FastifyInstance): Promise<void> {
  const body = JSON.stringify(layoutList());
  fastify.get('/api/layouts', { config: { player: false } }, async (_request, reply) =>
    reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body),
  );
}
