/**
 * Stats that follow the player: POST /stats/transfer makes a one-time link (15 minutes, only its sha256 kept),
 * GET /transfer/:token says what will happen, POST uses it; games are never merged (docs/contracts.md, "Pages").
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sendError, sendRefusal } from '../../errors.ts';
import { setPlayerCookie } from '../../plugins/player.ts';
import { LIMITS } from '../../plugins/security.ts';
import type { TransferState } from '../../stores/types.ts';
import { ROW_BYTES } from '../../services/growth.ts';
import { clientKey } from '../../services/limits.ts';
import { sendMiss } from '../../services/misses.ts';

export const TRANSFER_TTL_MS = 15 * 60 * 1000;
const TOKEN = /^[A-Za-z0-9_-]{32}$/; // 24 random bytes, base64url

const hashOf = (token: string): string => createHash('sha256').update(token).digest('hex');

const TokenParamsSchema = z.object({ token: z.string().max(64) });

export default async function pagesTransfer(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const players = fastify.playersStore;
  // PUBLIC_ORIGIN, else a path: never the client's Host header.
  const origin = (): string => fastify.publicOrigin ?? '';
  const https = (request: FastifyRequest): boolean =>
    (fastify.publicOrigin?.startsWith('https://') ?? false) || request.protocol === 'https';

  /** Games this browser's player has. */
  async function gamesOf(request: FastifyRequest): Promise<number> {
    if (request.isNewPlayer) return 0;
    const totals = await fastify.gamesStore.layoutTotals(request.playerId);
    return totals.reduce((n, t) => n + t.played, 0);
  }

  /** 404 for a link we never made, 410 for one expired or used. */
  function refuse(
    request: FastifyRequest,
    reply: FastifyReply,
    state: Exclude<TransferState['state'], 'valid'>,
  ): FastifyReply | Promise<FastifyReply> {
    if (state === 'missing')
      return sendMiss(
        request,
        reply,
        'ERR_NOT_FOUND',
        'this is not a transfer link (check that it was copied whole), or it was used or expired long ago',
      );
    reply.code(410);
    const { t } = request.i18n;
    return reply.page('error', {
      title: state === 'used' ? t('transfer.usedTitle') : t('transfer.expiredTitle'),
      status: 410,
      message: state === 'used' ? t('transfer.used') : t('transfer.expired'),
      detail: null,
    });
  }

  app.post('/stats/transfer', { config: { rateLimit: LIMITS.transfer } }, async (request, reply) => {
    if (request.isNewPlayer || !(await players.find(request.playerId)))
      return sendError(
        request,
        reply,
        'ERR_NOTHING_TO_MOVE',
        'there is nothing to move yet: play a game first, then make the link',
      );
    const refused = await fastify.growth.take(clientKey(request.ip), ROW_BYTES.transfer);
    if (refused) return sendRefusal(request, reply, refused);
    const token = randomBytes(24).toString('base64url');
    const now = fastify.now();
    await players.createTransfer(hashOf(token), request.playerId, now, now + TRANSFER_TTL_MS);
    reply.header('cache-control', 'no-store');
    return reply.page('transfer', {
      title: request.i18n.t('transfer.madeTitle'),
      nav: 'stats',
      step: 'made',
      link: `${origin()}/transfer/${token}`,
      minutes: TRANSFER_TTL_MS / 60_000,
      expires: request.i18n.date(now + TRANSFER_TTL_MS, 'time'),
    });
  });

  app.get('/transfer/:token', { schema: { params: TokenParamsSchema } }, async (request, reply) => {
    const { token } = request.params;
    const state = TOKEN.test(token)
      ? await players.findTransfer(hashOf(token), fastify.now())
      : ({ state: 'missing' } as const);
    if (state.state !== 'valid') return refuse(request, reply, state.state);
    reply.header('cache-control', 'no-store');
    return reply.page('transfer', {
      title: request.i18n.t('transfer.confirmTitle'),
      nav: 'stats',
      step: 'confirm',
      action: `/transfer/${token}`,
      same: state.playerId === request.playerId,
      games: await gamesOf(request),
      minutesLeft: Math.max(1, Math.round((state.expiresAt - fastify.now()) / 60_000)),
    });
  });

  app.post(
    '/transfer/:token',
    { schema: { params: TokenParamsSchema }, config: { rateLimit: LIMITS.transfer } },
    async (request, reply) => {
      const { token } = request.params;
      const state = TOKEN.test(token)
        ? await players.takeTransfer(hashOf(token), fastify.now())
        : ({ state: 'missing' } as const);
      if (state.state !== 'valid') return refuse(request, reply, state.state);
      setPlayerCookie(reply, state.playerId, https(request));
      return reply.redirect('/stats?moved=1', 303);
    },
  );
}
