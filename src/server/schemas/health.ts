/** GET /healthz (routes/health.ts): its query and its answer. */
import { z } from 'zod';

/** `?detail=1` asks for the details; any other value (or none) for the plain answer. */
export const HealthQuerySchema = z.object({
  detail: z.string().max(16).optional().describe('1: add the backend, database size, memory, sockets and limits'),
});

/** What /healthz answers, 200 or 503; the details only with `?detail=1`. */
export const HealthSchema = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional().describe('why not ok'),
  backend: z.enum(['sqlite', 'postgres']).optional(),
  database: z.looseObject({}).nullable().optional().describe('its size (and PostgreSQL: the pool)'),
  writeFailures: z.looseObject({ count: z.number().int() }).optional(),
  memory: z.looseObject({}).optional().describe('RSS, heap, and what each cache holds, in MB'),
  connections: z.looseObject({}).optional().describe('sockets open, shed and refused'),
  draining: z.boolean().optional().describe('SIGTERM received: the balancer should take this process out'),
  limits: z.looseObject({}).optional().describe('where rate limits count: Redis or this process'),
  degraded: z.array(z.string()).optional().describe('serving, with something missing (Redis away)'),
});
