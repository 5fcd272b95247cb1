/** The language picker form. */
import { z } from 'zod';

export const LangBodySchema = z.object(
  {
    lang: z.string().max(64, 'lang is a language code such as de'), // unknown codes are ignored
    back: z.string().max(512, 'back is a path of at most 512 characters').optional(),
  },
  { error: 'send the language form: lang=en|de|fr|…' },
);
