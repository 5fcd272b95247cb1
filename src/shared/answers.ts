/**
 * The JSON API's success answers, the one source of their shapes (docs/http.md, "The API description"). The
 * client imports types only: zod stays out of the page.
 */
import { z } from 'zod';
import { BANDS, FACES, HEARD, MODES, REASONS, STATUSES } from '../engine/index.ts';
import { ACHIEVEMENT_KEYS, PROGRESS_KEYS } from './achievements.ts';
import { CHALLENGE_OUTCOMES } from './challenge.ts';

const Coord = z.number().int();
const Int = z.number().int();
const MsEpoch = z.number().int().describe('ms since the epoch, server clock');

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

/** A move as the server logs it (docs/contracts.md, "Moves"). */
export const LoggedMoveSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('match'), a: Int, b: Int }),
  z.object({ type: z.literal('shuffle') }),
  z.object({ type: z.literal('undo') }),
  z.object({ type: z.literal('redo') }),
  z.object({ type: z.literal('hint') }),
  z.object({ type: z.literal('check'), heard: z.enum(HEARD) }),
]);

/** A player's best ranked time on a deal. */
export const RecordLineSchema = z.looseObject({
  name: z.string().nullable().describe("the player's name on tables; null: anonymous"),
  timeMs: Int.describe('the ranked time, server clock'),
  clean: z.boolean().describe('won without hints, shuffles or undos'),
  you: z.boolean().describe("the asking player's own line"),
});

/** A deal's own record. */
export const DealRecordSchema = z.looseObject({
  opened: Int,
  won: Int,
  best: z.array(RecordLineSchema).readonly(),
});

/** An achievement a win just earned (docs/server.md, "Achievements"). */
export const EarnedSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  rule: z.string().describe('what earns it, in a sentence'),
});

/** The position and counters after a batch (services/game-rows.ts gameAnswer). */
export const GameAnswerSchema = z.looseObject({
  status: z.enum(STATUSES),
  faces: z.array(z.enum(FACES).nullable()).readonly().describe("each slot's face; null: the tile is gone"),
  left: Int.describe('tiles on the board'),
  hints: Int,
  shuffles: Int,
  undos: Int,
  moves: Int.describe('moves the server has of this game, hints included'),
  startedAt: MsEpoch,
  shownAt: MsEpoch.describe("the player's first view of the deal: the ranked clock runs from here"),
  finishedAt: MsEpoch.nullable(),
  timeMs: Int.nullable().describe("the win's ranked-clock time, from shownAt; null until won"),
  playMs: Int.nullable().describe("the player's own time as their page last sent it; null: never sent"),
  ranked: z.boolean().nullable().describe('with a win: its time may stand on tables (docs/fair-play.md)'),
  unranked: z
    .enum(['fast', 'legacy', 'play-on'])
    .nullable()
    .describe('why a win may not stand on tables; null while it may'),
});

export const NextLayoutSchema = z.looseObject({ id: z.string(), name: z.string(), url: z.string() });

/** The win panel's extras (services/wins.ts winExtras). */
export const WinExtrasSchema = z.looseObject({
  previousBestMs: Int.nullable().describe("the player's best own time on this layout and mode before this win"),
  dailyDay: z.string().nullable().describe("a daily deal's day (YYYY-MM-DD), else null"),
  dailyRank: Int.nullable().describe("its place on that day's table, when it stands there"),
  next: NextLayoutSchema.nullable().describe('a built-in layout not played yet; null when all are'),
  again: z.string().describe('a new deal of the same layout and mode'),
  record: DealRecordSchema.describe("the deal's record now, this win counted"),
  achievements: z.array(EarnedSchema).readonly().describe('what this win earned'),
});

/** POST /api/games/:id/moves. */
export const MovesAnswerSchema = GameAnswerSchema.extend({
  log: z.array(LoggedMoveSchema).readonly().optional().describe("the server's log, when it had moves past the batch"),
  ...WinExtrasSchema.partial().shape,
});

/** GET /api/layouts (as the CLI's `layouts`). */
export const LayoutListSchema = z.array(
  z.looseObject({ id: z.string(), name: z.string(), tiles: z.number().int(), family: z.string() }),
);

/** GET /api/layouts/:id. */
export const LayoutSlotsSchema = z.looseObject({
  id: z.string(),
  name: z.string(),
  tiles: z.number().int(),
  slots: z.array(z.tuple([Coord, Coord, Coord])),
});

export const AchievementSchema = z.looseObject({
  id: z.enum(Object.keys(ACHIEVEMENT_KEYS) as [keyof typeof ACHIEVEMENT_KEYS]),
  name: z.string(),
  rule: z.string(),
  earned: z.boolean(),
  earnedAt: z.number().int().nullable(),
  game: z
    .looseObject({ id: z.string(), layout: z.string(), seed: z.string(), mode: z.enum(MODES), url: z.string() })
    .nullable(),
  progress: z
    .looseObject({
      done: z.number().int(),
      goal: z.number().int(),
      unit: z.enum(Object.keys(PROGRESS_KEYS) as [keyof typeof PROGRESS_KEYS]),
    })
    .nullable(),
});

/** Why a lost game's win was lost (docs/coach.md). */
export const LossSchema = z.object({
  reason: z.enum(REASONS).describe("the reason's code (docs/coach.md); none: lost, with no short reason proved"),
  move: Int.describe('the losing move: the board after it (move K of the stored log) could no longer be cleared'),
  tiles: z.array(Int).describe("the reason's tiles, as slot indexes of the deal"),
});

/** A game of the stats' history (services/stats.ts HistoryEntry). */
export const HistoryEntrySchema = z.looseObject({
  id: z.string(),
  layout: z.string(),
  seed: z.string(),
  mode: z.enum(MODES),
  band: z.enum(BANDS).nullable().describe("the deal's band when the game began; null before deals had one"),
  status: z.enum(STATUSES),
  result: z.literal('won').nullable(),
  startedAt: MsEpoch,
  finishedAt: MsEpoch.nullable(),
  timeMs: Int.nullable().describe("the player's own time"),
  rankedMs: Int.nullable().describe("the server's ranked time, for a ranked win"),
  moves: Int,
  hints: Int,
  shuffles: Int,
  undos: Int,
  clean: z.boolean(),
  ranked: z.boolean(),
  url: z.string().describe("the deal's link"),
  playedOnFrom: Int.nullable().describe('a game played on from another: the move it began after (its first moves)'),
  loss: LossSchema.nullable().describe(
    'a lost game (stuck, or left after hearing "no"): why; null for any other, or while its review is not made yet',
  ),
});

/** A sent challenge link and how it went. */
export const SentChallengeSchema = z.looseObject({
  id: z.string().describe("the challenge's id"),
  url: z
    .string()
    .regex(/^\/challenge\/[A-Za-z0-9_-]{22}$/)
    .describe('the link the player sends: the challenge page, /challenge/<id>'),
  layout: z.string(),
  name: z.string().describe("the layout's name"),
  seed: z.string(),
  mode: z.enum(MODES),
  sentAt: MsEpoch.describe('when the link was first made'),
  timeMs: Int.describe("the time to beat: the server's time of the sender's win"),
  players: Int.describe('friends who started a game of it'),
  games: Int.describe("the friends' games of it"),
  ended: Int.describe('of those, the games won or stuck'),
  bestMs: Int.nullable().describe("the fastest friend's win, server time; null before one"),
  outcome: z
    .enum(CHALLENGE_OUTCOMES)
    .describe(
      'beaten: a friend won faster; held: a friend finished, none faster; open: no friend finished yet (whole seconds)',
    ),
});

/** GET /api/stats (docs/contracts.md, "JSON API"; services/stats.ts Stats). */
export const StatsSchema = z.looseObject({
  played: Int,
  won: Int,
  winRate: z.number().describe('0–1'),
  cleanWins: Int,
  streak: Int.describe('days in a row with a win, ending today or yesterday (UTC)'),
  bestStreak: Int,
  dailyStreak: Int.describe('days in a row whose daily deal was won on its day'),
  bestDailyStreak: Int,
  byLayout: z.record(
    z.string(),
    z.looseObject({
      name: z.string(),
      played: Int,
      won: Int,
      bestMs: Int.nullable(),
      medianMs: z.number().nullable().describe('of the won games; ms'),
    }),
  ),
  byBand: z.record(z.enum(BANDS), z.looseObject({ played: Int, won: Int, cleanWins: Int })),
  history: z.array(HistoryEntrySchema).describe('one page, newest first'),
  historyPage: Int.describe('1-based'),
  historyPages: Int.describe('at least 1'),
  wins: z
    .array(z.looseObject({ layout: z.string(), finishedAt: MsEpoch, timeMs: Int, clean: z.boolean() }))
    .describe("the latest wins, oldest first: the chart's data"),
  achievements: z.array(AchievementSchema),
  challenges: z.array(SentChallengeSchema).describe("the player's newest challenge links (20 at most), newest first"),
});

/** POST /api/games/:id/replay (docs/server.md, "Replays"). */
export const PlayOnSchema = z.object({
  id: z.string().describe('The new game'),
  url: z.string().describe("Its play page: the deal's page, which opens the player's latest unfinished game of it"),
});

export const ChallengeLinkSchema = z.object({
  url: z
    .string()
    .regex(/^\/challenge\/[A-Za-z0-9_-]{22}$/)
    .describe('The challenge page, /challenge/<id>: the deal with the time to beat, the same every time'),
});

export const ReplayLinkSchema = z.object({
  url: z
    .string()
    .regex(/^\/replay\/[A-Za-z0-9_-]+$/)
    .describe('The replay page, /replay/<token>: public, the same every time'),
});
