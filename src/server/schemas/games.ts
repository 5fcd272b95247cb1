/** Request schemas of the games API (docs/contracts.md, "JSON API" and "Moves"). */
import { z } from 'zod';
import { HEARD, MAX_TILES } from '../../engine/index.ts';
import { MAX_PLAY_MS } from '../../shared/api.ts';
import { MAX_LOG } from '../services/games.ts';
import { DealKeySchema, GameIdSchema, ModeSchema } from './common.ts';

export const MAX_MOVES_PER_REQUEST = 500; // a whole turtle game is 72 matches; room for undos and hints
export const MAX_SHUFFLES_PER_REQUEST = 20; // a shuffle costs up to a few ms of search on the server

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
    // "Can this still be won?" and what the player heard: counted for `mahjong report`, changes nothing on the board.
    z.strictObject({ type: z.literal('check'), heard: z.enum(HEARD, { error: 'heard is yes, no or unknown' }) }),
  ],
  {
    error:
      'a move is {"type":"match","a":i,"b":j}, {"type":"shuffle"|"undo"|"redo"|"hint"} or {"type":"check","heard":"yes"|"no"|"unknown"}',
  },
);

/** A new game's deal: a DealKey, relaxed unless it says classic; `challenge`: the challenge it answers. */
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
  // Where the batch starts: how many moves of this game the sender believes the server has. With it a
  // batch is idempotent (services/games.ts); without it the moves are appended (as the API was first written).
  at: z
    .number({ error: 'at is a move count' })
    .int('at is a whole number')
    .min(0, 'at is at least 0')
    .max(MAX_LOG, `at is at most ${MAX_LOG}`)
    .optional(),
  // The player's own clock after these moves (docs/fair-play.md, "Two clocks"): the client's word, shown in
  // the player's own stats only, never ranked. Optional: older pages and scripts send none.
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

/** POST /api/games/:id/replay: the address names the game, so no body, or an empty object; anything more is a 400. */
export const ReplayBodySchema = z
  .strictObject({}, { error: 'send no body, or an empty object: the address names the game' })
  .nullish();

/** POST /api/games/:id/challenge: the address names the game, so no body, or an empty object. */
export const ChallengeBodySchema = ReplayBodySchema;

/** POST /api/games/:id/play-on and the forms: the move to play on from (board moves; hints and checks not counted). */
export const PlayOnBodySchema = z.strictObject({
  move: z.coerce
    .number()
    .int()
    .min(0)
    .max(MAX_LOG)
    .describe("How many of the game's moves to keep: the new game starts from the position after them"),
});
