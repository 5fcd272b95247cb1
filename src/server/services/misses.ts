/**
 * Answers that an id or token does not exist are rate limited like the 404 handler: an attacker could otherwise
 * search for valid ids (docs/operations.md, "Security").
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendError, sendRefusal, type ErrorCode, type Refusal } from '../errors.ts';
import { LIMITS } from '../plugins/security.ts';
import type { Counters } from './counters.ts';
import { clientKey, WindowBudget } from './limits.ts';

const budgets = new WeakMap<Counters, WindowBudget>(); // one per app

/** Sends the miss's error, charged to the address; 429 once it has missed too often. */
export async function sendMiss(
  request: FastifyRequest,
  reply: FastifyReply,
  code: ErrorCode,
  message: string,
): Promise<FastifyReply> {
  const counters = request.server.counters;
  let budget = budgets.get(counters);
  if (!budget) budgets.set(counters, (budget = new WindowBudget('misses', LIMITS.notFound.max, 60_000, counters)));
  const wait = await budget.take(clientKey(request.ip));
  if (wait === undefined) return sendError(request, reply, code, message);
  reply.header('retry-after', String(wait));
  return sendError(request, reply, 'ERR_RATE_LIMITED', `too many addresses that lead nowhere; try again in ${wait} s`);
}

/** An unknown layout is a miss. */
export function sendRefusalOrMiss(
  request: FastifyRequest,
  reply: FastifyReply,
  refusal: Refusal,
): FastifyReply | Promise<FastifyReply> {
  if (refusal.code === 'ERR_UNKNOWN_LAYOUT') return sendMiss(request, reply, refusal.code, refusal.message);
  return sendRefusal(request, reply, refusal);
}
