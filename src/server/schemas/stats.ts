/** The stats routes' query: `?page=N` of the history (and `moved=1` after a transfer). */
import { z } from 'zod';
import { MAX_HISTORY_PAGE } from '../services/stats.ts';

export const StatsQuerySchema = z.object({
  page: z.coerce
    .number({ error: 'page is a number' })
    .int('page is a whole number')
    .min(1, 'pages start at 1')
    .max(MAX_HISTORY_PAGE, `page is at most ${MAX_HISTORY_PAGE}`)
    .default(1),
  moved: z.coerce.number().int().min(0).max(1).optional(), // after a transfer link was used: say so
});
