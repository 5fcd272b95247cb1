/**
 * POST /lang (the language picker on every page, without script): sets the `lang` cookie and goes back
 * to the page the form was on (303), now in that language. A value that is not one of ours changes
 * nothing and goes back all the same (docs/i18n.md): the picker only offers ours, so only a hand-made
 * request sends another. Same-origin and player-cookie checks are the player plugin's, as for every POST.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { langOf } from '../../../shared/i18n.ts';
import { setLangCookie } from '../../plugins/i18n.ts';
import { LangBodySchema } from '../../schemas/lang.ts';
import { backPath } from '../../view-models/theme.ts';

export default async function pagesLang(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.post('/lang', { schema: { body: LangBodySchema } }, async (request, reply) => {
    const { lang, back } = request.body;
    const chosen = langOf(lang);
    if (chosen) setLangCookie(request, reply, chosen);
    return reply.redirect(backPath(back), 303);
  });
}
