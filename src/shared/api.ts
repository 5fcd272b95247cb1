/**
 * The JSON the browser's scripts read from the API, typed once for the server's answers and the client
 * (docs/contracts.md, "JSON API"; docs/server.md, "Games and verification"). No DOM, no Node types; the types
 * only of shared/answers.ts, so the page's script carries no zod.
 */
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

/** The longest own time a page may report for a game: 100 hours of play (its clock stops while paused or hidden). */
export const MAX_PLAY_MS = 100 * 3_600_000;

/** Which deal a game is of: what `POST /api/games` takes. */
export interface DealKey {
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
}

/** Why a won game is not ranked (docs/fair-play.md): its pairs came faster than the pace rule, or it began before the rule. */
export type Unranked = NonNullable<GameAnswer['unranked']>;

// The answers' types, inferred from the schemas the routes declare (shared/answers.ts): one source for both.
export type RecordLine = z.infer<typeof RecordLineSchema>;
export type DealRecordAnswer = z.infer<typeof DealRecordSchema>;
export type EarnedAnswer = z.infer<typeof EarnedSchema>;
export type GameAnswer = z.infer<typeof GameAnswerSchema>;
export type WinExtras = z.infer<typeof WinExtrasSchema>;
export type MovesAnswer = z.infer<typeof MovesAnswerSchema>;
export type ReplayLinkAnswer = z.infer<typeof ReplayLinkSchema>;
export type ChallengeLinkAnswer = z.infer<typeof ChallengeLinkSchema>;
