/** Request and answer schemas of live races (docs/contracts.md, "Live races"). */
import { z } from 'zod';
import { RACER_STATUSES } from '../services/race-standings.ts';
import { DealKeySchema, ModeSchema } from './common.ts';

/** A new race's deal (form or JSON): a DealKey, relaxed unless it says classic (an empty mode too: a form's). */
export const CreateRaceBodySchema = z.strictObject({
  ...DealKeySchema.shape,
  mode: z
    .union([ModeSchema, z.literal('')])
    .default('relaxed')
    .transform((mode) => mode || 'relaxed'),
});

/** A race id as made by the server: 12 url-safe characters. */
export const RaceParamsSchema = z.object({
  id: z.string().regex(/^[A-Za-z0-9_-]{12}$/, 'a race id is 12 characters of A–Z, a–z, 0–9, _ and -'),
});

/** GET /api/races/:id: the room as its viewer sees it. */
export const RaceSchema = z.object({
  id: z.string(),
  layout: z.string(),
  seed: z.string(),
  mode: ModeSchema,
  url: z.string(), // the race page
  maxPlayers: z.number().int(),
  ended: z.boolean(),
  startsAt: z.number().nullable(), // ms epoch of the start everyone counts down to; null until its maker starts it
  players: z.array(
    z.object({
      player: z.string(), // "me" for the viewer, else the seat's number
      name: z.string().nullable(), // nickname, if set
      left: z.number().int(), // tiles left
      status: z.enum(RACER_STATUSES),
      place: z.number().int().nullable(), // 1 for the first to clear the board; null while not placed
      finishedAt: z.number().nullable(), // ms epoch, the server's clock at the win
    }),
  ),
  order: z.array(z.string()).nullable(), // the final order (`player` values), once the race ended
});
