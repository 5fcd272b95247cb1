/**
 * The games API (docs/contracts.md, "JSON API" and "Moves"; docs/server.md, "Games and verification"):
 * POST /api/games, and /api/games/:id/moves, /replay, /challenge and /play-on.
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Move } from '../../../engine/index.ts';
import { errorResponses, MovesRefusalSchema, sendRefusal } from '../../errors.ts';
import {
  ChallengeLinkSchema,
  CreatedGameSchema,
  MovesAnswerSchema,
  PlayOnSchema,
  ReplayLinkSchema,
} from '../../../shared/answers.ts';
import { preSerialized } from '../../schemas/responses.ts';
import { dealUrl } from '../../../shared/display.ts';
import type { Mode } from '../../../engine/index.ts';
import { FLOOD_LIMITS, LIMITS } from '../../plugins/security.ts';
import {
  ChallengeBodySchema,
  CreateGameBodySchema,
  GameParamsSchema,
  MovesBodySchema,
  PlayOnBodySchema,
  ReplayBodySchema,
} from '../../schemas/games.ts';
import { gameAnswer } from '../../services/game-rows.ts';
import { winExtras } from '../../services/wins.ts';
import { clientKey } from '../../services/limits.ts';
import { stampedAt } from '../../services/first-shown.ts';
import { sendRefusalOrMiss } from '../../services/misses.ts';

export default async function apiGames(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.post(
    '/api/games',
    {
      schema: {
        body: CreateGameBodySchema,
        response: { 201: CreatedGameSchema, ...errorResponses(403, 404, 409, 413, 415, 503) },
      },
      onRequest: fastify.floodGuard(FLOOD_LIMITS.createGame),
      config: { rateLimit: LIMITS.createGame },
    },
    async (request, reply) => {
      const client = clientKey(request.ip);
      const { challenge, ...key } = request.body;
      // A refused challenge link makes no game.
      const answering =
        challenge === undefined ? undefined : await fastify.challenges.check(request.playerId, challenge, key);
      if (answering && 'ok' in answering) return sendRefusal(request, reply, answering);
      const found = await fastify.dealer.get(key, client);
      if (!found.ok) return sendRefusalOrMiss(request, reply, found);
      const stamped = stampedAt(fastify, request, request.playerId, key);
      const created = await fastify.games.create(request.playerId, found.value, { client, stamped });
      if ('ok' in created) return sendRefusal(request, reply, created);
      const { id } = created;
      if (challenge !== undefined && answering?.answers) await fastify.challenges.answer(challenge, id);
      // {"id", ...deal}: the id spliced into the stored JSON.
      return reply
        .code(201)
        .type('application/json; charset=utf-8')
        .send(preSerialized(`{"id":${JSON.stringify(id)},${found.value.json.slice(1)}`));
    },
  );

  app.post(
    '/api/games/:id/moves',
    {
      schema: {
        params: GameParamsSchema,
        body: MovesBodySchema,
        response: { 200: MovesAnswerSchema, ...errorResponses(403, 413, 415), 409: MovesRefusalSchema },
      },
      onRequest: fastify.floodGuard(FLOOD_LIMITS.moves),
      config: { rateLimit: LIMITS.moves },
    },
    async (request, reply) => {
      const { moves, at, playMs } = request.body;
      const racing = await fastify.races.gate(request.params.id); // a race's moves wait for its start
      if (racing && 'ok' in racing) return sendRefusal(request, reply, racing);
      const played = await fastify.games.play(
        request.playerId,
        request.params.id,
        moves as Move[],
        at,
        playMs,
        clientKey(request.ip),
      );
      if (!played.ok) {
        const { ok: _, code: _code, message: _message, retryAfterS: _retry, ...extra } = played;
        return sendRefusal(request, reply, played, extra);
      }
      // A racer's progress, as verified.
      if (racing && !played.log)
        await fastify.races.moved(racing, request.params.id, played.game.left, played.status, played.finishedAt);
      const answer = gameAnswer(played.game, played.moves, played.row, played.finishedAt);
      if (played.log) return { ...answer, log: played.log };
      if (played.finishedAt === null) return answer;
      return { ...answer, ...(await winExtras(fastify, request.playerId, played.row, request.i18n)) };
    },
  );

  app.post(
    '/api/games/:id/replay',
    {
      schema: {
        params: GameParamsSchema,
        body: ReplayBodySchema,
        response: { 200: ReplayLinkSchema, ...errorResponses(403, 413, 415) },
      },
      config: { rateLimit: LIMITS.shareReplay },
    },
    async (request, reply) => {
      const shared = await fastify.replays.share(request.playerId, request.params.id, clientKey(request.ip));
      if ('ok' in shared) return sendRefusal(request, reply, shared);
      return shared;
    },
  );

  app.post(
    '/api/games/:id/challenge',
    {
      schema: {
        summary: "A won game's challenge link: its deal with the time to beat",
        params: GameParamsSchema,
        body: ChallengeBodySchema,
        response: { 200: ChallengeLinkSchema, ...errorResponses(403, 404, 409, 413, 415) },
      },
      config: { rateLimit: LIMITS.shareReplay },
    },
    async (request, reply) => {
      const made = await fastify.challenges.make(request.playerId, request.params.id, clientKey(request.ip));
      if ('ok' in made) return sendRefusal(request, reply, made);
      return made;
    },
  );

  app.post(
    '/api/games/:id/play-on',
    {
      schema: {
        params: GameParamsSchema,
        body: PlayOnBodySchema,
        response: { 201: PlayOnSchema, ...errorResponses(403, 409, 413, 415) },
      },
      onRequest: fastify.floodGuard(FLOOD_LIMITS.createGame),
      config: { rateLimit: LIMITS.createGame },
    },
    async (request, reply) => {
      const made = await fastify.games.playOn(request.playerId, request.params.id, request.body.move, {
        client: clientKey(request.ip),
      });
      if ('ok' in made) return sendRefusal(request, reply, made);
      return reply.code(201).send({ id: made.id, url: dealUrl(made.layout, made.seed, made.mode as Mode) });
    },
  );
}
