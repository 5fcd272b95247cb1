/** GET /api/layouts: the built-in layouts, as the CLI's `layouts` (docs/contracts.md, "Command line"). */
import type { FastifyInstance } from 'fastify';
import { errorResponses } from '../../errors.ts';
import { LayoutListSchema } from '../../../shared/answers.ts';
import { layoutSummaries } from '../../../engine/builtins.ts';

export default async function apiLayouts(fastify: FastifyInstance): Promise<void> {
  const body = JSON.stringify(layoutSummaries());
  fastify.get(
    '/api/layouts',
    { schema: { response: { 200: LayoutListSchema, ...errorResponses() } }, config: { player: false } },
    async (_request, reply) =>
      reply.type('application/json; charset=utf-8').header('cache-control', 'public, max-age=300').send(body),
  );
}
