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
import { availablePairs, geometryOfDeal, newGame, type Game, type Mode } from '../../../engine/index.ts';
import { challengeUrl, ghostLeft } from '../../../shared/challenge.ts';
import { dealUrl, formatTime, newDealUrl } from '../../../shared/display.ts';
import { parsePrefs, PREFS_COOKIE } from '../../../shared/prefs.ts';
import { sendError, sendRefusal } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { GameIdSchema } from '../../schemas/common.ts';
import { clientGame } from '../../services/games.ts';
import { clientKey } from '../../services/limits.ts';
import { setStamp, takeStamp } from '../../services/first-shown.ts';
import { boardView, dealData } from '../../view-models/board.ts';
import { boardPreview, headLinks } from '../../view-models/head.ts';
import { themeOf, THEME_COOKIE } from '../../view-models/theme.ts';

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
      let game: Game;
      if (resumed) game = resumed.game;
      else {
        const start = newGame(stored.deal);
        if (!start.ok) throw new Error(`deal ${layout}/${seed}/${mode} is not playable: ${start.message}`);
        game = start.value;
      }
      const name = (await fastify.layouts.namer([layout], i18n))(layout);
      const path = challengeUrl(challenge.id);
      const deal = dealUrl(layout, seed, mode);
      const other: Mode = mode === 'classic' ? 'relaxed' : 'classic';
      const sender = open.nickname ?? i18n.t('challenge.friend');
      const time = formatTime(challenge.time_ms);
      const playMs = resumed?.row.play_ms ?? 0;
      const title = i18n.t('challenge.title', { name, seed });
      const preview = boardPreview(fastify.previews, fastify.publicOrigin, i18n, {
        title,
        path,
        layout,
        name,
        geom: geometryOfDeal(stored.deal),
        faces: stored.deal.tiles.map((t) => t.face),
        timeMs: challenge.time_ms,
      });
      reply.header('x-robots-tag', 'noindex'); // a friend's link: nothing to index
      reply.header('cache-control', 'no-store'); // the viewer's own game may be on it
      return reply.page('play', {
        title,
        head: headLinks(fastify.publicOrigin, path, request.hl),
        preview: { ...preview, description: i18n.t('challenge.previewDescription', { sender, time, name }) },
        nav: 'play',
        layout: { id: layout, name },
        seed,
        mode,
        daily: false,
        counters: { left: game.left, pairs: availablePairs(game).length },
        boardHtml: fastify.renderPartial('/partials/board', {
          i18n,
          board: boardView(game, i18n.t),
          layout: { id: layout },
          seed,
          mode,
        }),
        game: { hints: game.hints, shuffles: game.shuffles, playMs, time: formatTime(playMs) },
        resumed: Boolean(resumed),
        dealData: dealData(stored.json, resumed ? clientGame(resumed) : null),
        sharePath: deal,
        shareUrl: `${fastify.publicOrigin ?? ''}${deal}`,
        otherMode: { mode: other, url: dealUrl(layout, seed, other) },
        newUrl: newDealUrl(layout, mode),
        difficulty: {
          band: stored.deal.difficulty.band,
          score: stored.deal.difficulty.score,
          againUrl: newDealUrl(layout, mode, stored.deal.difficulty.band),
        },
        prefs: parsePrefs(request.cookies[PREFS_COOKIE], layout, seed, mode),
        tutorial: false,
        theme: themeOf(request.cookies[THEME_COOKIE]),
        tileSet: request.tiles,
        back: path,
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
