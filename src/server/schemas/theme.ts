/** The theme form (views/partials/theme.eta), on every page. */
import { z } from 'zod';
import { THEME_CHOICES } from '../view-models/theme.ts';

export const ThemeBodySchema = z.object(
  {
    theme: z.enum(THEME_CHOICES, { error: 'theme is auto, light, dark or contrast' }),
    back: z.string().max(512, 'back is a path of at most 512 characters').optional(),
  },
  { error: 'send the theme form: theme=auto|light|dark|contrast' },
);
