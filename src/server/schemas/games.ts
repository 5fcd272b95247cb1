/** Games API requests (docs/contracts.md, "Moves"). */
import { z } from 'zod';
import { HEARD, MAX_TILES } from '../../engine/index.ts';
import { MAX_PLAY_MS } from '../../shared/api.ts';
import { MAX_LOG } from '../services/game-rows.ts';
import { DealKeySchema, GameIdSchema, ModeSchema } from './common.ts';

export const MAX_MOVES_PER_REQUEST = 500; // a turtle game is 72 matches
export const MAX_SHUFFLES_PER_REQUEST = 20; // each costs a few ms of search

const SlotIndex = z
  .number({ error: 'a tile index is a number' })
  .int('a tile index is a whole number')
  .min(0, 'a tile index is at least 0')
  .max(MAX_TILES - 1, `a tile index is below ${MAX_TILES}`);

export const MoveSchema = z.discriminatedUnion(
  'type',
  [
    z.strictObject({ type: z.literal('match'), a: SlotIndex, b: SlotIndex }),
    z.strictObject({ type: z.literal('shuffle') }),
    z.strictObject({ type: z.literal('undo') }),
    z.strictObject({ type: z.literal('redo') }),
    z.strictObject({ type: z.literal('hint') }),
    // Counted for `mahjong report` only.
    z.strictObject({ type: z.literal('check'), heard: z.enum(HEARD, { error: 'heard is yes, no or unknown' }) }),
  ],
  {
    error:
      'a move is {"type":"match","a":i,"b":j}, {"type":"shuffle"|"undo"|"redo"|"hint"} or {"type":"check","heard":"yes"|"no"|"unknown"}',
  },
);

/** `challenge`: the challenge it answers. */
export const CreateGameBodySchema = z.strictObject({
  ...DealKeySchema.shape,
  mode: ModeSchema.default('relaxed'),
  challenge: z
    .string({ error: 'challenge is the id of a challenge link' })
    .max(64, 'challenge is the id of a challenge link')
    .optional()
    .describe("The challenge link's id (/challenge/<id>) this game answers: the deal must be that challenge's"),
});

export const MovesBodySchema = z.strictObject({
  // Moves the sender believes the server has: makes a batch idempotent.
  at: z
    .number({ error: 'at is a move count' })
    .int('at is a whole number')
    .min(0, 'at is at least 0')
    .max(MAX_LOG, `at is at most ${MAX_LOG}`)
    .optional(),
  // the client's own clock, never ranked
  playMs: z
    .number({ error: 'playMs is a time in milliseconds' })
    .int('playMs is a whole number of milliseconds')
    .min(0, 'playMs is at least 0')
    .max(MAX_PLAY_MS, `playMs is at most ${MAX_PLAY_MS} (100 hours)`)
    .optional(),
  moves: z
    .array(MoveSchema)
    .min(1, 'send at least one move')
    .max(MAX_MOVES_PER_REQUEST, `send at most ${MAX_MOVES_PER_REQUEST} moves per request`)
    .refine(
      (moves) => moves.filter((m) => m.type === 'shuffle').length <= MAX_SHUFFLES_PER_REQUEST,
      `send at most ${MAX_SHUFFLES_PER_REQUEST} shuffles per request`,
    ),
});

export const GameParamsSchema = z.object({ id: GameIdSchema });

/** The address names the game: no body, or `{}`. */
export const ReplayBodySchema = z
  .strictObject({}, { error: 'send no body, or an empty object: the address names the game' })
  .nullish();

export const ChallengeBodySchema = ReplayBodySchema;

export const PlayOnBodySchema = z.strictObject({
  move: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LOG)
    .describe("How many of the game's moves to keep: the new game starts from the position after them"),
});
