/**
 * The success answers of the JSON API, declared beside each route's error answers (errors.ts
 * errorResponses), so every route lists all it may answer and the serializer follows the code. They name
 * the keys docs/contracts.md promises ("JSON API", "Deal JSON") and let the others through: the deal API sends its
 * stored JSON as it is, and answers that gained keys since (the win panel's) keep them.
 */
import { z } from 'zod';
import { BANDS, MODES } from '../../engine/index.ts';

const Coord = z.number().int();

/**
 * A body that is JSON already (a stored deal as it is stored): fastify sends a string as it is, never
 * through the serializer, so the route's success schema only documents it. Typed to pass the reply's type.
 */
export const preSerialized = (json: string): never => json as never;

/** A deal (docs/contracts.md, "Deal JSON"). */
export const DealSchema = z.looseObject({
  layout: z.string(),
  seed: z.string(),
  mode: z.enum(MODES),
  generator: z.string(),
  difficulty: z.looseObject({ band: z.enum(BANDS), score: z.number() }),
  tiles: z.array(z.looseObject({ x: Coord, y: Coord, z: Coord, face: z.string() })),
  solution: z.array(z.tuple([z.number().int(), z.number().int()])),
});

/** POST /api/games: the new game's id and its deal. */
export const CreatedGameSchema = DealSchema.extend({ id: z.string() });

/** POST /api/games/:id/moves: the position after the batch (services/games.ts gameAnswer, services/wins.ts). */
export const MovesAnswerSchema = z.looseObject({
  status: z.enum(['playing', 'won', 'stuck']),
  faces: z.array(z.string().nullable()).readonly(),
});

/** GET /api/layouts (as the CLI's `layouts`). */
export const LayoutListSchema = z.array(
  z.looseObject({ id: z.string(), name: z.string(), tiles: z.number().int(), family: z.string() }),
);

/** GET /api/layouts/:id: what a browser needs to deal any seed of the layout itself. */
export const LayoutSlotsSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  tiles: z.number().int(),
  slots: z.array(z.tuple([Coord, Coord, Coord])),
});

/** One achievement, held or open (services/achievements.ts AchievementView). */
export const AchievementSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  rule: z.string(),
  earned: z.boolean(),
  earnedAt: z.number().int().nullable(),
  game: z
    .looseObject({ id: z.string(), layout: z.string(), seed: z.string(), mode: z.enum(MODES), url: z.string() })
    .nullable(),
  progress: z.looseObject({ done: z.number().int(), goal: z.number().int(), unit: z.string() }).nullable(),
});

/** GET /api/stats (docs/contracts.md, "JSON API"; services/stats.ts Stats). */
export const StatsSchema = z.looseObject({
  played: z.number().int(),
  won: z.number().int(),
  cleanWins: z.number().int(),
  streak: z.number().int(),
  bestStreak: z.number().int(),
  byLayout: z.record(z.string(), z.unknown()),
  byBand: z.record(
    z.enum(BANDS),
    z.object({ played: z.number().int(), won: z.number().int(), cleanWins: z.number().int() }),
  ),
  history: z.array(z.unknown()),
  achievements: z.array(AchievementSchema),
});

/** POST /api/games/:id/replay (docs/server.md, "Replays"): the replay page's address. */
export const PlayOnSchema = z.object({
  id: z.string().describe('The new game'),
  url: z.string().describe("Its play page: the deal's page, which opens the player's latest unfinished game of it"),
});

export const ReplayLinkSchema = z.object({
  url: z
    .string()
    .regex(/^\/replay\/[A-Za-z0-9_-]+$/)
    .describe('The replay page, /replay/<token>: public, the same every time'),
});
