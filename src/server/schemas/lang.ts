/** The language picker (views/partials/lang.eta), on every page. */
import { z } from 'zod';

export const LangBodySchema = z.object(
  {
    lang: z.string().max(64, 'lang is a language code such as de'), // not ours: ignored (routes/pages/lang.ts)
    back: z.string().max(512, 'back is a path of at most 512 characters').optional(), // the page the form was on
  },
  { error: 'send the language form: lang=en|de|fr|…' },
);
