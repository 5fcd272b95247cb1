/** The API's JSON types for server and client (docs/contracts.md, "JSON API"); types only, so no zod in the page. */
import type { z } from 'zod';
import type { Mode } from '../engine/index.ts';
import type {
  ChallengeLinkSchema,
  DealRecordSchema,
  EarnedSchema,
  GameAnswerSchema,
  MovesAnswerSchema,
  RecordLineSchema,
  ReplayLinkSchema,
  WinExtrasSchema,
} from './answers.ts';

/** The longest own time a page may report for a game. */
export const MAX_PLAY_MS = 100 * 3_600_000;

/** Which deal a game is of: what `POST /api/games` takes. */
export interface DealKey {
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
}

/** Why a won game is not ranked (docs/fair-play.md). */
export type Unranked = NonNullable<GameAnswer['unranked']>;

// Inferred from shared/answers.ts.
export type RecordLine = z.infer<typeof RecordLineSchema>;
export type DealRecordAnswer = z.infer<typeof DealRecordSchema>;
export type EarnedAnswer = z.infer<typeof EarnedSchema>;
export type GameAnswer = z.infer<typeof GameAnswerSchema>;
export type WinExtras = z.infer<typeof WinExtrasSchema>;
export type MovesAnswer = z.infer<typeof MovesAnswerSchema>;
export type ReplayLinkAnswer = z.infer<typeof ReplayLinkSchema>;
export type ChallengeLinkAnswer = z.infer<typeof ChallengeLinkSchema>;
