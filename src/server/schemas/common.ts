/** Shared pieces of the request schemas (the demo's IdSchema). Every string is bounded. */
import { z } from 'zod';
import { BANDS, MODES, SEED_PATTERN, type Mode } from '../../engine/index.ts';

/** A seed: 1–32 characters of [A-Za-z0-9_-] (docs/contracts.md, "Deal JSON"). */
export const SeedSchema = z
  .string()
  .max(32, 'a seed is at most 32 characters')
  .regex(SEED_PATTERN, 'a seed is 1–32 characters of A–Z, a–z, 0–9, _ and -');

/** A layout id: lowercase letters, digits and dashes. Whether it exists is the route's question (404). */
export const LayoutIdSchema = z
  .string()
  .max(40, 'a layout id is at most 40 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a layout id is lowercase letters, digits and dashes');

export const ModeSchema = z.enum(MODES, { error: 'mode is relaxed or classic' });

/** A game id as made by the server: 16 url-safe characters. */
export const GameIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16}$/, 'a game id is 16 characters of A–Z, a–z, 0–9, _ and -');

/**
 * A deal's key: which layout, which seed, which mode. Its layout id and seed are branded, so only a value
 * that went through this schema (a route's params or body, or `dealKey`) is one: the dealer, the deal
 * workers' tasks, the services and the deals store pass DealKeys, never three loose strings.
 */
export const DealKeySchema = z.object({
  layout: LayoutIdSchema.brand<'LayoutId'>(),
  seed: SeedSchema.brand<'Seed'>(),
  mode: ModeSchema,
});
export type DealKey = z.infer<typeof DealKeySchema>;

/** A DealKey from values the server chose itself (the daily deal, a random seed); throws on a bad one: our bug. */
export const dealKey = (layout: string, seed: string, mode: Mode): DealKey =>
  DealKeySchema.parse({ layout, seed, mode });

export const DealParamsSchema = DealKeySchema.pick({ layout: true, seed: true });
export const LayoutParamsSchema = z.object({ layout: LayoutIdSchema });

/** `?mode=classic`; anything else but relaxed is an error, an absent mode is relaxed. */
export const ModeQuerySchema = z.object({ mode: ModeSchema.default('relaxed') });

/** A difficulty band (docs/study.md, "Measured difficulty"). */
export const BandSchema = z.enum(BANDS, { error: 'difficulty is easy, medium, hard or expert' });

/**
 * A new deal's query: the mode, and `?difficulty=BAND` for a deal in that band (empty or absent: any deal,
 * so a form's "any" choice needs no script).
 */
export const NewDealQuerySchema = ModeQuerySchema.extend({
  difficulty: z
    .union([BandSchema, z.literal('')], { error: 'difficulty is easy, medium, hard or expert' })
    .optional()
    .transform((band) => band || undefined),
});
