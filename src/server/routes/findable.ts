/** robots.txt, sitemap.xml, favicon.ico and /og/*.png (docs/contracts.md, "Finding the site and link previews"). */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { LAYOUTS } from '../../engine/index.ts';
import { TILE_SETS } from '../../shared/tilesets.ts';
import { sendRefusal } from '../errors.ts';
import { faviconIco } from '../services/favicon.ts';
import { MAX_BADGE_S } from '../services/preview-image.ts';
import { clientKey } from '../services/limits.ts';
import { FIRST_DAILY, utcDate } from '../services/daily.ts';
import { LayoutIdSchema } from '../schemas/common.ts';

const DAY = 86_400_000;
const SITEMAP_DAYS = 366; // the last year's, today included

const OgParamsSchema = z.object({
  file: z.string().regex(/^[0-9a-f]{16}\.png$/, 'an image is /og/<16 hex digits>.png'),
});
const OgQuerySchema = z.object({
  layout: LayoutIdSchema,
  faces: z.string().regex(/^[a-zA-P-]{1,1000}$/, 'faces is one letter a-z, A-P or - per slot, 1,000 at most'),
  time: z.coerce.number().int().min(0).max(MAX_BADGE_S).optional(),
});

const xmlEscape = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function sitemapPaths(now: number): string[] {
  const paths = ['/', '/daily'];
  for (const layout of LAYOUTS) paths.push(`/play/${layout.id}/1`);
  const today = utcDate(now);
  for (let i = 0; i < SITEMAP_DAYS; i++) {
    const day = utcDate(Date.parse(`${today}T00:00:00Z`) - i * DAY);
    if (day < FIRST_DAILY) break;
    paths.push(`/daily/${day}`);
  }
  for (const set of TILE_SETS) paths.push(`/tiles/${set}`);
  return paths;
}

export default async function findableRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const origin = fastify.publicOrigin ?? '';

  app.get('/robots.txt', { config: { player: false } }, async (_request, reply) =>
    reply
      .type('text/plain; charset=utf-8')
      .header('cache-control', 'public, max-age=86400')
      .send(
        [
          'User-agent: *',
          'Disallow: /api/',
          'Disallow: /stats',
          'Disallow: /transfer/',
          'Disallow: /offline',
          'Allow: /',
          '',
          `Sitemap: ${origin}/sitemap.xml`,
          '',
        ].join('\n'),
      ),
  );

  app.get('/sitemap.xml', { config: { player: false } }, async (_request, reply) => {
    const urls = sitemapPaths(fastify.now()).map((path) => `<url><loc>${xmlEscape(`${origin}${path}`)}</loc></url>`);
    return reply
      .type('application/xml; charset=utf-8')
      .header('cache-control', 'public, max-age=3600')
      .send(
        `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`,
      );
  });

  app.get('/favicon.ico', { config: { player: false } }, async (_request, reply) =>
    reply
      .type('image/x-icon')
      .header('cache-control', 'public, max-age=604800')
      .send(await faviconIco()),
  );

  app.get(
    '/og/:file',
    { schema: { params: OgParamsSchema, querystring: OgQuerySchema }, config: { player: false } },
    async (request, reply) => {
      const hash = request.params.file.slice(0, 16);
      const { layout, faces, time } = request.query;
      const drawn = await fastify.previews.draw(hash, layout, faces, clientKey(request.ip), time);
      if (!drawn.ok) return sendRefusal(request, reply, drawn);
      return reply.type('image/png').header('cache-control', 'public, max-age=31536000, immutable').send(drawn.png);
    },
  );
}
