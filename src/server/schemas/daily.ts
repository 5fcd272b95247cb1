/** The nickname form of the daily page. */
import { z } from 'zod';

export const NICKNAME_MAX = 24; // characters

/**
 * 1–24 letters, digits, spaces, _ - and . after trimming. Letters and digits are
 * Unicode ones (names are not only English), but marks, controls and direction
 * overrides are not letters, so they are refused. NFC first, so a name looks
 * like what it counts as.
 */
export const NicknameBodySchema = z.object(
  {
    name: z
      .string({ error: 'enter a name' })
      .max(200, `a name is at most ${NICKNAME_MAX} characters`) // bound the work before normalising
      .transform((s) => s.normalize('NFC').trim().replace(/ +/g, ' '))
      .pipe(
        z
          .string()
          .min(1, 'enter a name')
          .max(NICKNAME_MAX, `a name is at most ${NICKNAME_MAX} characters`)
          .regex(/^[\p{L}\p{N} _.-]+$/u, 'a name uses letters, digits, spaces, _ - and . only'),
      ),
  },
  { error: 'enter a name' }, // no form at all
);
