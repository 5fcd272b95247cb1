/** GET /healthz (routes/health.ts): its query and its answer. */
import { z } from 'zod';

export const HealthQuerySchema = z.object({
  detail: z.string().max(16).optional().describe('1: add the backend, database size, memory, sockets and limits'),
});

const Int = z.number().int();
const Mb = z.number().describe('MB, one decimal');
const Store = z.enum(['process', 'redis']);

export const HealthSchema = z.looseObject({
  ok: z.boolean(),
  error: z.string().optional().describe('why not ok'),
  backend: z.enum(['sqlite', 'postgres']).optional(),
  database: z
    .looseObject({
      bytes: Int.describe('the database: SQLite, its file; PostgreSQL, pg_database_size'),
      walBytes: Int.optional().describe("SQLite: the write-ahead log's file"),
      freeBytes: Int.optional().describe('SQLite: free pages inside the file'),
      pool: z
        .looseObject({ total: Int, idle: Int, waiting: Int })
        .optional()
        .describe("PostgreSQL: the pool's connections, idle ones, and queries waiting for one"),
    })
    .nullable()
    .optional()
    .describe('its size; null when it cannot be read'),
  writeFailures: z
    .looseObject({
      count: Int.describe('since start'),
      last: z.looseObject({ code: z.string(), at: Int.describe('ms epoch') }).nullable(),
    })
    .optional(),
  memory: z
    .looseObject({
      rssMb: Mb,
      heapUsedMb: Mb,
      heapLimitMb: Mb,
      cachesMb: Mb.describe('every cache together'),
      caches: z.record(z.string(), z.looseObject({ mb: Mb, maxMb: Mb, entries: Int })).describe('by name'),
    })
    .optional(),
  connections: z
    .looseObject({ open: Int, shed: Int.describe('since start'), refused: Int.describe('since start') })
    .optional()
    .describe('sockets'),
  draining: z.boolean().optional().describe('SIGTERM received: the balancer should take this process out'),
  limits: z
    .looseObject({
      store: Store.describe('where rate limits count now'),
      configured: Store.describe('where they should (REDIS_URL set)'),
      since: Int.nullable().describe('ms epoch of the last change'),
      problem: z.string().nullable().describe('why not Redis, when it should be'),
    })
    .optional(),
  degraded: z.array(z.string()).optional().describe('serving, with something missing (Redis away)'),
});
