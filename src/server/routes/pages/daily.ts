/**
 * The daily deal:
 * - GET /daily: today's deal (UTC date; turtle, seed daily-YYYY-MM-DD, relaxed), the same for
 *   everyone, with the day's best verified times.
 * - POST /daily/name (form: name): a player who has won today's daily deal (this deal, on its own
 *   day; issue 9: a win on any `daily-…` seed used to do) sets the name shown beside their times.
 *   Invalid, reserved and lookalike names (services/names.ts) re-show the page with the reason
 *   (400; 409 when another player's name looks the same); nothing is stored.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sendDealFailure, sendError } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { NICKNAME_MAX, NicknameBodySchema } from '../../schemas/daily.ts';
import { DAILY_BOARD_SIZE, DAILY_LAYOUT, DAILY_MODE, dailySeed, utcDate } from '../../services/daily.ts';
import { nameKey } from '../../services/names.ts';
import { layoutInfo } from '../../services/layouts.ts';
import { dealUrl } from '../../services/stats.ts';
import { formatDate, formatTime } from '../../views/format.ts';

interface FormState {
  error?: string; // why the name was refused
  value?: string; // what was typed, shown back (escaped) with the error
}

async function renderDaily(fastify: FastifyInstance, request: FastifyRequest, reply: FastifyReply, form: FormState = {}) {
  const now = fastify.now();
  const seed = dailySeed(now);
  const found = await fastify.dealer.get(DAILY_LAYOUT, seed, DAILY_MODE);
  if (!found.ok) return sendDealFailure(request, reply, found); // today's deal is everyone's: no client pays for it
  const playerId = request.playerId;
  const known = !request.isNewPlayer;
  const best = (await fastify.gamesRepository.bestTimes(found.value.id, DAILY_BOARD_SIZE)).map((row, i) => ({
    rank: i + 1,
    name: row.nickname,
    you: row.player_id === playerId,
    time: formatTime(row.time_ms),
    clean: row.hints === 0 && row.shuffles === 0 && row.undos === 0,
  }));
  const unfinished = known ? await fastify.gamesRepository.unfinishedOfDeal(playerId, found.value.id) : undefined;
  const wonToday = known && (await fastify.gamesRepository.hasWon(playerId, found.value.id));
  return reply.page('daily', {
    title: 'Daily deal',
    nav: 'daily',
    date: formatDate(now),
    isoDate: utcDate(now),
    layout: layoutInfo(DAILY_LAYOUT),
    url: dealUrl(DAILY_LAYOUT, seed, DAILY_MODE),
    best,
    wonToday,
    unfinished: Boolean(unfinished),
    canName: wonToday, // only a real win of today's daily deal names a player
    nickname: known ? ((await fastify.playersRepository.find(playerId))?.nickname ?? '') : '',
    nicknameMax: NICKNAME_MAX,
    form,
  });
}

/** Has the player won today's daily deal (the daily layout, mode and today's seed)? */
async function wonTodaysDeal(fastify: FastifyInstance, playerId: string): Promise<boolean> {
  const row = await fastify.dealsRepository.find(DAILY_LAYOUT, dailySeed(fastify.now()), DAILY_MODE);
  return row !== undefined && (await fastify.gamesRepository.hasWon(playerId, row.id));
}

export default async function pagesDaily(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get('/daily', async (request, reply) => renderDaily(fastify, request, reply));

  app.post(
    '/daily/name',
    { schema: { body: NicknameBodySchema }, attachValidation: true, config: { rateLimit: LIMITS.nickname } },
    async (request, reply) => {
      if (request.validationError) {
        const issue = (request.validationError.validation ?? [])[0];
        const raw = (request.body as { name?: unknown } | undefined)?.name;
        reply.code(400);
        return renderDaily(fastify, request, reply, {
          error: issue?.message ?? 'enter a name',
          value: typeof raw === 'string' ? raw.slice(0, 100) : '',
        });
      }
      if (request.isNewPlayer || !(await wonTodaysDeal(fastify, request.playerId)))
        return sendError(request, reply, 403, "win today's daily deal first; then your name can stand beside your time");
      const saved = await fastify.playersRepository.setNickname(request.playerId, request.body.name, nameKey(request.body.name));
      if (saved === 'taken') {
        reply.code(409);
        return renderDaily(fastify, request, reply, { error: 'another player has that name, or one that looks the same', value: request.body.name });
      }
      return reply.redirect('/daily', 303);
    },
  );
}
