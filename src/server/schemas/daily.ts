/** The nickname form (docs/http.md, "Schemas"). */
import { z } from 'zod';
import { isReservedName, isWholeScriptLookalike } from '../services/names.ts';

export const NICKNAME_MAX = 24;

/** Scripts whose letters look alike: a name uses one only. */
const CONFUSABLE_SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Cyrillic}/u, /\p{Script=Greek}/u];

const isSingleScript = (name: string): boolean => CONFUSABLE_SCRIPTS.filter((script) => script.test(name)).length <= 1;

/** Characters that render as nothing. */
const INVISIBLE = /\p{Default_Ignorable_Code_Point}/u;

/** 1–24 letters, digits, spaces and _ - . after NFKC and trimming. */
export const NicknameBodySchema = z.object(
  {
    name: z
      .string({ error: 'enter a name' })
      .max(200, `a name is at most ${NICKNAME_MAX} characters`) // bound the work before normalising
      .transform((s) => s.normalize('NFKC').trim().replace(/ +/g, ' '))
      .pipe(
        z
          .string()
          .min(1, 'enter a name')
          .max(NICKNAME_MAX, `a name is at most ${NICKNAME_MAX} characters`)
          .regex(/^[\p{L}\p{N} _.-]+$/u, 'a name uses letters, digits, spaces, _ - and . only')
          .regex(/[\p{L}\p{N}]/u, 'a name has at least one letter or digit')
          .refine((name) => !INVISIBLE.test(name), 'a name has no invisible characters')
          .refine(isSingleScript, 'a name uses Latin, Cyrillic or Greek letters, not a mix of them')
          .refine(
            (name) => !isWholeScriptLookalike(name),
            'a name in letters that pass for Latin ones must be written in Latin letters',
          )
          .refine((name) => !isReservedName(name), 'that name is reserved'),
      ),
  },
  { error: 'enter a name' },
);
