/** Shared pieces of the request schemas (the demo's IdSchema). Every string is bounded. */
import { z } from 'zod';
import { MODES, SEED_PATTERN } from '../../engine/index.ts';

/** A seed: 1–32 characters of [A-Za-z0-9_-] (SPEC §3.3). */
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

export const DealParamsSchema = z.object({ layout: LayoutIdSchema, seed: SeedSchema });
export const LayoutParamsSchema = z.object({ layout: LayoutIdSchema });

/** `?mode=classic`; anything else but relaxed is an error, an absent mode is relaxed. */
export const ModeQuerySchema = z.object({ mode: ModeSchema.default('relaxed') });
