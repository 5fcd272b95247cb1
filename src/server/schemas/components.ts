/** Schemas the API description names as components; our own registry, not zod's global one. */
import { z } from 'zod';
import { ApiErrorSchema, MovesRefusalSchema } from '../errors.ts';
import { HealthSchema } from './health.ts';
import { DealSchema } from '../../shared/answers.ts';

export const COMPONENTS = z.registry<{ id: string; description?: string }>();

COMPONENTS.add(ApiErrorSchema, {
  id: 'ApiError',
  description: 'Every refusal of the API: a message for a person and a stable code for a program',
});
COMPONENTS.add(MovesRefusalSchema, {
  id: 'MovesRefusal',
  description: 'A refused move batch: the error, and where the server stands (its move count and log)',
});
COMPONENTS.add(DealSchema, {
  id: 'Deal',
  description: "A deal: the layout's slots in order with their faces, and a solution as index pairs",
});
COMPONENTS.add(HealthSchema, {
  id: 'Health',
  description: 'Whether this process can serve (ok), why not (error), and with ?detail=1 what it holds',
});
