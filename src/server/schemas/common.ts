/** Shared request schema pieces; every string is bounded. */
import { z } from 'zod';
import { BANDS, MODES, SEED_PATTERN, type Mode } from '../../engine/index.ts';

export const SeedSchema = z
  .string()
  .max(32, 'a seed is at most 32 characters')
  .regex(SEED_PATTERN, 'a seed is 1–32 characters of A–Z, a–z, 0–9, _ and -');

/** Whether it exists is the route's question (404). */
export const LayoutIdSchema = z
  .string()
  .max(40, 'a layout id is at most 40 characters')
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'a layout id is lowercase letters, digits and dashes');

export const ModeSchema = z.enum(MODES, { error: 'mode is relaxed or classic' });

export const GameIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{16}$/, 'a game id is 16 characters of A–Z, a–z, 0–9, _ and -');

/** A deal's key, branded (docs/http.md, "Schemas"). */
export const DealKeySchema = z.object({
  layout: LayoutIdSchema.brand<'LayoutId'>(),
  seed: SeedSchema.brand<'Seed'>(),
  mode: ModeSchema,
});
export type DealKey = z.infer<typeof DealKeySchema>;

/** Throws on a bad value: our bug. */
export const dealKey = (layout: string, seed: string, mode: Mode): DealKey =>
  DealKeySchema.parse({ layout, seed, mode });

export const DealParamsSchema = DealKeySchema.pick({ layout: true, seed: true });
export const LayoutParamsSchema = z.object({ layout: LayoutIdSchema });

export const ModeQuerySchema = z.object({ mode: ModeSchema.default('relaxed') });

export const BandSchema = z.enum(BANDS, { error: 'difficulty is easy, medium, hard or expert' });

/** A new deal's query; an empty `difficulty` is any deal. */
export const NewDealQuerySchema = ModeQuerySchema.extend({
  difficulty: z
    .union([BandSchema, z.literal('')], { error: 'difficulty is easy, medium, hard or expert' })
    .optional()
    .transform((band) => band || undefined),
});
