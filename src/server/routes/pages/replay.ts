/**
 * Replays: GET /replay/:token (public, charged to the CPU budget), the script-free share form, and play-on
 * from a replay or one's own game (docs/server.md, "Replays").
 */
import { viewerOf } from '../../services/custom-layouts.ts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { availablePairs, statusOf, type Review } from '../../../engine/index.ts';
import { reasonText } from '../../../shared/coach.ts';
import { sendError, sendRefusal, type Refusal } from '../../errors.ts';
import { LIMITS } from '../../plugins/security.ts';
import { GameIdSchema } from '../../schemas/common.ts';
import { PlayOnBodySchema } from '../../schemas/games.ts';
import type { Mode } from '../../../engine/index.ts';
import { replayPageCostMs } from '../../services/costs.ts';
import { clientKey } from '../../services/limits.ts';
import { dealUrl } from '../../../shared/display.ts';
import { frameOf, frameText, isLostAt, replayUrl } from '../../../shared/replay.ts';
import { boardView } from '../../view-models/board.ts';
import { boardPreview } from '../../view-models/head.ts';
import { scriptJson } from '../../view-models/script-json.ts';

/** How long a page waits for the review before showing the replay without it. */
const REVIEW_WAIT_MS = 3000;

/** The position `move` asks for: `exact` when written as one, else the nearest. */
export function askedMove(raw: unknown, moves: number): { k: number; exact: boolean } {
  if (raw === undefined) return { k: 0, exact: true };
  const text = Array.isArray(raw) ? raw[0] : raw;
  if (typeof text === 'string' && /^\d{1,7}$/.test(text) && Number(text) <= moves)
    return { k: Number(text), exact: !Array.isArray(raw) };
  const n = typeof text === 'string' && text.trim() !== '' ? Number(text) : NaN;
  return { k: Number.isNaN(n) ? 0 : Math.min(moves, Math.max(0, Math.floor(n))), exact: false };
}

const share = (n: number, total: number): string => `${total === 0 ? 0 : ((100 * n) / total).toFixed(2)}%`;

const NO_REPLAY = 'there is no replay at this link; was it copied whole?';

export default async function pagesReplay(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /** The review, if it comes in time (else null). */
  async function reviewSoon(
    open: Parameters<typeof fastify.replays.review>[0],
    client: string,
  ): Promise<Review | null | Refusal> {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), REVIEW_WAIT_MS)));
    try {
      return await Promise.race([fastify.replays.review(open, client), late]);
    } finally {
      clearTimeout(timer);
    }
  }

  app.get(
    '/replay/:token',
    {
      schema: { params: z.object({ token: z.string().max(64) }), querystring: z.looseObject({}) },
      config: { player: false, rateLimit: LIMITS.replay },
    },
    async (request, reply) => {
      const { token } = request.params;
      const open = await fastify.replays.open(token);
      if (!open) return sendError(request, reply, 'ERR_NO_REPLAY', NO_REPLAY);
      const moves = open.log.length;
      const asked = askedMove((request.query as Record<string, unknown>).move, moves);
      if (!asked.exact) return reply.redirect(replayUrl(token, asked.k), 302);
      const k = asked.k;
      const client = clientKey(request.ip);
      const tiles = open.stored.deal.tiles.length;
      const charged = await fastify.cpuBudget.charge(client, replayPageCostMs(tiles, k), 'replay');
      if (charged) return sendRefusal(request, reply, charged);
      const reviewed = await reviewSoon(open, client);
      if (reviewed && 'code' in reviewed) return sendRefusal(request, reply, reviewed);
      const review = reviewed;
      const game = fastify.replays.positionAt(open, k);
      const frame = frameOf(game, open.log, k);
      const { layout, seed, mode } = open.row;
      const i18n = request.i18n;
      const { name, neutral } = await fastify.layouts.viewerName(layout, i18n, viewerOf(request));
      const loss = review ? fastify.replays.lossAt(open, review) : null;
      const lossHere = loss !== null && loss.at === k;
      const board = boardView(game, i18n.t, { ...frame, reasonTiles: lossHere ? loss.tiles : [] });
      const lost = review?.lost ?? [];
      const finished = open.row.result === 'won';
      const step = (to: number): string | null => (to === k || to < 0 || to > moves ? null : replayUrl(token, to));
      reply.header('x-robots-tag', 'noindex');
      const title = i18n.t('replay.title', { name, seed });
      return reply.page('replay', {
        title,
        // The preview shows this step's board (a cleared board: its deal).
        preview: boardPreview(fastify.previews, fastify.publicOrigin, i18n, {
          title: i18n.t('replay.title', { name: neutral, seed }),
          path: k === 0 ? `/replay/${encodeURIComponent(token)}` : replayUrl(token, k),
          layout,
          name: neutral,
          geom: game.geom,
          faces: game.left > 0 ? game.faces : open.stored.deal.tiles.map((t) => t.face),
        }),
        replayPage: true,
        layout: { id: layout, name },
        seed,
        mode,
        k,
        moves,
        frame,
        frameText: frameText(i18n.t, frame),
        board,
        boardHtml: fastify.renderPartial('/partials/board', {
          i18n,
          board,
          layout: { id: layout },
          seed,
          mode,
          inert: true,
        }),
        counters: { left: game.left, pairs: availablePairs(game).length },
        status: statusOf(game),
        outcome: finished ? 'won' : open.row.status === 'stuck' ? 'stuck' : 'playing',
        help: { hints: open.row.hints, shuffles: open.row.shuffles, undos: open.row.undos },
        links: {
          first: step(0),
          prev: step(k - 1),
          next: step(k + 1),
          last: step(moves),
        },
        loss: loss && {
          reason: loss.reason,
          here: lossHere,
          text: reasonText(i18n.t, loss.words),
          playOn: loss.at - 1,
          playOnUrl: `/replay/${token}/play-on`,
        },
        review: review && {
          firstLost: review.firstLost,
          firstLostUrl: review.firstLost === null ? null : replayUrl(token, review.firstLost),
          lostHere: isLostAt(lost, k),
          complete: review.complete,
          settled: review.settled,
          spans: lost.map((s) => ({
            from: s.from,
            to: s.to,
            left: share(s.from, moves),
            width: moves === 0 ? '100%' : share(Math.max(s.to - s.from, moves / 150), moves),
            url: replayUrl(token, s.from),
          })),
        },
        at: share(k, moves),
        dealLink: dealUrl(layout, seed, mode),
        replayData: scriptJson(
          `{"token":${JSON.stringify(token)},"move":${k},"log":${JSON.stringify(open.log)},` +
            `"boards":${JSON.stringify(open.boards)},"lost":${JSON.stringify(lost)},` +
            `"loss":${JSON.stringify(loss && { at: loss.at, reason: loss.reason, tiles: loss.tiles })},` +
            `"deal":${open.stored.json}}`,
        ),
      });
    },
  );

  app.post(
    '/replay',
    {
      schema: { body: z.object({ game: GameIdSchema, move: PlayOnBodySchema.shape.move.optional() }) },
      config: { rateLimit: LIMITS.shareReplay },
    },
    async (request, reply) => {
      const shared = await fastify.replays.share(request.playerId, request.body.game, clientKey(request.ip));
      if ('ok' in shared) return sendRefusal(request, reply, shared);
      const { move } = request.body;
      return reply.redirect(move === undefined ? shared.url : `${shared.url}?move=${move}`, 303);
    },
  );

  app.post(
    '/replay/:token/play-on',
    {
      schema: { params: z.object({ token: z.string().max(64) }), body: PlayOnBodySchema },
      config: { rateLimit: LIMITS.createGame },
    },
    async (request, reply) => {
      const open = await fastify.replays.open(request.params.token);
      if (!open) return sendError(request, reply, 'ERR_NO_REPLAY', NO_REPLAY);
      const made = await fastify.games.playOn(request.playerId, open.row.id, request.body.move, {
        client: clientKey(request.ip),
        open: true, // the replay is public: anyone may play on from it
      });
      if ('ok' in made) return sendRefusal(request, reply, made);
      return reply.redirect(dealUrl(made.layout, made.seed, made.mode as Mode), 303);
    },
  );

  app.post(
    '/play-on',
    {
      schema: { body: PlayOnBodySchema.extend({ game: GameIdSchema }) },
      config: { rateLimit: LIMITS.createGame },
    },
    async (request, reply) => {
      const made = await fastify.games.playOn(request.playerId, request.body.game, request.body.move, {
        client: clientKey(request.ip),
      });
      if ('ok' in made) return sendRefusal(request, reply, made);
      return reply.redirect(dealUrl(made.layout, made.seed, made.mode as Mode), 303);
    },
  );
}
