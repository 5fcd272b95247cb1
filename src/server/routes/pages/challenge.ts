/**
 * Challenge links (docs/server.md, "Challenges"; services/challenges.ts):
 * - GET /challenge/:id: the sender's deal as an ordinary verified game (the viewer's own unfinished game of the
 *   challenge resumed where they left it), with `#challenge`: "N cleared this in 3:41 — can you beat it?", the
 *   time to beat in `data-ms`, and the sender's ghost (tiles left along their log, shared/challenge.ts) for the
 *   page's script. 404 for an id that is no challenge.
 * - POST /challenge (form field `game`): the stats page's "Challenge a friend" without script: 303 to the
 *   game's challenge page (its own player only, a won game, as the API's POST /api/games/:id/challenge).
 */
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { challengeUrl, ghostLeft } from '../../../shared/challenge.ts';
import { formatTime } from '../../../shared/display.ts';
import { sendError, sendRefusal } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { GameIdSchema } from '../../schemas/common.ts';
import { clientKey } from '../../services/limits.ts';
import { setStamp, takeStamp } from '../../services/first-shown.ts';
import { playBoard, playPage } from '../../view-models/play.ts';

const NO_CHALLENGE = 'there is no challenge at this link; was it copied whole?';

export default async function pagesChallenge(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    '/challenge/:id',
    { schema: { params: z.object({ id: z.string() }) }, config: { rateLimit: LIMITS.replay } }, // any id: not one is a 404
    async (request, reply) => {
      const open = await fastify.challenges.open(request.params.id);
      if (!open) return sendError(request, reply, 'ERR_NO_CHALLENGE', NO_CHALLENGE);
      const { challenge, stored } = open;
      const { layout, seed, mode } = open.row;
      const key = { layout, seed, mode };
      const i18n = request.i18n;
      const client = clientKey(request.ip);
      const now = fastify.now();
      const known = !request.isNewPlayer;
      // The viewer's time on the deal starts at their first view of it, as on its play page.
      if (!known) setStamp(fastify, request, reply, key, now);
      else
        await fastify.firstShown.show(
          request.playerId,
          client,
          stored,
          now,
          takeStamp(fastify, request, reply, request.playerId, key),
        );
      const answer = known ? await fastify.challenges.answerOf(request.playerId, challenge.id) : undefined;
      const mine = answer ? await fastify.games.mine(request.playerId, answer) : undefined;
      const resumed = mine && mine.row.result === null ? mine : undefined;
      const name = (await fastify.layouts.namer([layout], i18n))(layout);
      const path = challengeUrl(challenge.id);
      const sender = open.nickname ?? i18n.t('challenge.friend');
      const time = formatTime(challenge.time_ms);
      const playMs = resumed?.row.play_ms ?? 0;
      const title = i18n.t('challenge.title', { name, seed });
      reply.header('x-robots-tag', 'noindex'); // a friend's link: nothing to index
      reply.header('cache-control', 'no-store'); // the viewer's own game may be on it
      return reply.page('play', {
        ...playPage(fastify, request, {
          key,
          deal: stored.deal,
          name,
          title,
          path,
          preview: {
            title,
            name,
            timeMs: challenge.time_ms,
            description: i18n.t('challenge.previewDescription', { sender, time, name }),
          },
          board: playBoard(fastify, key, i18n, stored, resumed),
          playMs,
          resumed: Boolean(resumed),
        }),
        record: '',
        challenge: {
          id: challenge.id,
          ms: challenge.time_ms,
          time,
          sender,
          own: known && challenge.player_id === request.playerId, // the sender looking at their own link
          left: open.left.join(' '),
          ghost: i18n.t('client.challenge.ghost', {
            name: sender,
            time: formatTime(playMs),
            n: ghostLeft(open.left, challenge.time_ms, playMs),
          }),
        },
      });
    },
  );

  app.post(
    '/challenge',
    { schema: { body: z.object({ game: GameIdSchema }) }, config: { rateLimit: LIMITS.shareReplay } },
    async (request, reply) => {
      const made = await fastify.challenges.make(request.playerId, request.body.game, clientKey(request.ip));
      if ('ok' in made) return sendRefusal(request, reply, made);
      return reply.redirect(made.url, 303);
    },
  );
}
