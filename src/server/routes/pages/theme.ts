/**
 * POST /theme (the theme form on every page, without script): sets the `theme` cookie, or clears it
 * for `auto`, and goes back to the page the form was on (303). Same-origin and player-cookie checks
 * are the player plugin's, as for every POST (plugins/player.ts): a cross-site form is 403.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ThemeBodySchema } from '../../schemas/theme.ts';
import { backPath, THEME_COOKIE, THEME_MAX_AGE } from '../../view-models/theme.ts';

export default async function pagesTheme(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/theme', { schema: { body: ThemeBodySchema } }, async (request, reply) => {
    const { theme, back } = request.body;
    // Not HttpOnly: the theme script sets the same cookie when it switches without a reload.
    const options = { path: '/', sameSite: 'lax', secure: request.protocol === 'https' } as const;
    if (theme === 'auto') reply.clearCookie(THEME_COOKIE, options);
    else reply.setCookie(THEME_COOKIE, theme, { ...options, maxAge: THEME_MAX_AGE });
    return reply.redirect(backPath(back), 303);
  });
}
