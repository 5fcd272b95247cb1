/**
 * Live races (docs/contracts.md, "Live races"; services/races.ts):
 * - POST /races (form or JSON: layout, seed, mode) → 303 to /race/<id>, its maker seated as the first racer.
 * - GET /race/:id: the deal's board (the viewer's own game of the race, once they joined) and `#race`, the
 *   racers' progress; a viewer not racing yet gets a Join button while there is room.
 * - POST /race/:id/join → 303 back to /race/:id, seated with a new game of the deal.
 * - POST /race/:id/start → 303 back to /race/:id: its maker starts the race for everyone (a countdown's time ahead).
 * - GET /race/:id/events: the room's live stream (server-sent events: `race` with the standings' HTML).
 * - GET /api/races/:id: the room as JSON.
 */
import { viewerOf } from '../../services/custom-layouts.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { formatTime } from '../../../shared/display.ts';
import { errorResponses, sendRefusal } from '../../errors.ts';
import { playerKey } from '../../plugins/security.ts';
import { dealKey } from '../../schemas/common.ts';
import { CreateRaceBodySchema, RaceParamsSchema, RaceSchema } from '../../schemas/races.ts';
import type { Translator } from '../../services/i18n.ts';
import { clientKey } from '../../services/limits.ts';
import { sendRefusalOrMiss } from '../../services/misses.ts';
import type { RacerStatus, Standings } from '../../services/race-standings.ts';
import { playBoard, playPage } from '../../view-models/play.ts';

export const raceUrl = (id: string): string => `/race/${id}`;

/** The words of each racer's status (catalog keys). */
const STATUS_KEYS: Readonly<Record<RacerStatus, string>> = {
  playing: 'race.status.playing',
  won: 'race.status.won',
  stuck: 'race.status.stuck',
  gone: 'race.status.gone',
};

/** The standings as the partial shows them to one viewer. */
function viewOf(standings: Standings, playerId: string, i18n: Translator) {
  const startedAt = standings.startsAt ?? standings.meta.createdAt; // every racer's time runs from the room's start
  const named = (r: Standings['racers'][number]) => {
    const name = r.name ?? i18n.t('race.player', { n: r.n });
    return r.playerId === playerId ? i18n.t('race.you', { name }) : name;
  };
  const racers = standings.racers.map((r) => ({
    player: r.playerId === playerId ? 'me' : String(r.n),
    name: named(r),
    left: r.left,
    status: r.status,
    said:
      r.place !== null && r.status === 'won' ? i18n.t('race.place', { place: r.place }) : i18n.t(STATUS_KEYS[r.status]),
  }));
  const order = standings.order?.map((r) => ({
    player: r.playerId === playerId ? 'me' : String(r.n),
    name: named(r),
    status: r.status,
    left: r.left,
    result: r.finishedAt === null ? i18n.t(STATUS_KEYS[r.status]) : formatTime(r.finishedAt - startedAt),
  }));
  // Before the start: its maker's Start button (anyone's once the maker is gone), for the others whom they wait for.
  const me = standings.racers.find((r) => r.playerId === playerId);
  const host = standings.racers.find((r) => r.n === 1);
  const start =
    standings.startsAt !== null || standings.order !== null || !host
      ? null
      : {
          path: `${raceUrl(standings.meta.id)}/start`,
          can: me !== undefined && (me.n === 1 || host.status === 'gone'),
          waiting: i18n.t('race.waiting', { name: host.name ?? i18n.t('race.player', { n: 1 }) }),
        };
  const first = standings.racers.find((r) => r.place === 1 && r.status === 'won');
  const news = order
    ? i18n.t('race.newsOver', { name: order[0]!.name })
    : first
      ? i18n.t('race.newsFirst', { name: named(first) })
      : '';
  return { racers, order: order ?? null, news, start };
}

export default async function pagesRace(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  const max = fastify.races.limits.playersPerRoom;
  fastify.races.setView((standings, playerId, i18n) =>
    fastify.renderPartial('/partials/race-live', { i18n, max, ...viewOf(standings, playerId, i18n) }),
  );

  /** Refuses a player past their race requests this second. */
  async function charged(request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply | undefined> {
    const refused = await fastify.races.charge(playerKey(request));
    return refused ? sendRefusal(request, reply, refused) : undefined;
  }

  app.post('/races', { schema: { body: CreateRaceBodySchema } }, async (request, reply) => {
    const stop = await charged(request, reply);
    if (stop) return stop;
    const { layout, seed, mode } = request.body;
    const made = await fastify.races.create(request.playerId, clientKey(request.ip), dealKey(layout, seed, mode));
    if ('ok' in made) return sendRefusalOrMiss(request, reply, made);
    return reply.redirect(raceUrl(made.id), 303);
  });

  app.post('/race/:id/join', { schema: { params: RaceParamsSchema } }, async (request, reply) => {
    const stop = await charged(request, reply);
    if (stop) return stop;
    const joined = await fastify.races.join(request.playerId, clientKey(request.ip), request.params.id);
    if ('ok' in joined) return sendRefusal(request, reply, joined);
    return reply.redirect(raceUrl(request.params.id), 303);
  });

  app.post('/race/:id/start', { schema: { params: RaceParamsSchema } }, async (request, reply) => {
    const stop = await charged(request, reply);
    if (stop) return stop;
    const started = await fastify.races.start(request.playerId, request.params.id);
    if ('ok' in started) return sendRefusal(request, reply, started);
    return reply.redirect(raceUrl(request.params.id), 303);
  });

  app.get('/race/:id/events', { schema: { params: RaceParamsSchema } }, async (request, reply) => {
    const stop = await charged(request, reply);
    if (stop) return stop;
    const found = await fastify.races.find(request.params.id, request.playerId);
    if (!found)
      return sendRefusal(request, reply, { ok: false, code: 'ERR_NO_RACE', message: 'there is no such race' });
    await fastify.races.mend(found.room);
    const full = await fastify.races.stream(request, reply, found.room);
    if (full) return sendRefusal(request, reply, full);
    return reply;
  });

  app.get(
    '/api/races/:id',
    {
      schema: {
        summary: 'A live race: its deal, its players with their progress, and the order once it ended',
        params: RaceParamsSchema,
        response: { 200: RaceSchema, ...errorResponses(404, 429) },
      },
    },
    async (request, reply) => {
      const stop = await charged(request, reply);
      if (stop) return stop;
      const found = await fastify.races.find(request.params.id, request.playerId);
      if (!found)
        return sendRefusal(request, reply, { ok: false, code: 'ERR_NO_RACE', message: 'there is no such race' });
      const { standings } = found;
      const player = (r: Standings['racers'][number]): string => (r.playerId === request.playerId ? 'me' : String(r.n));
      return {
        id: standings.meta.id,
        layout: standings.meta.layout,
        seed: standings.meta.seed,
        mode: standings.meta.mode,
        url: raceUrl(standings.meta.id),
        maxPlayers: fastify.races.limits.playersPerRoom,
        ended: standings.order !== null,
        startsAt: standings.startsAt,
        players: standings.racers.map((r) => ({
          player: player(r),
          name: r.name,
          left: r.left,
          status: r.status,
          place: r.place,
          finishedAt: r.finishedAt,
        })),
        order: standings.order?.map(player) ?? null,
      };
    },
  );

  app.get('/race/:id', { schema: { params: RaceParamsSchema } }, async (request, reply) => {
    const found = await fastify.races.find(request.params.id, request.playerId);
    if (!found)
      return sendRefusal(request, reply, {
        ok: false,
        code: 'ERR_NO_RACE',
        message: `there is no such race: races close after ${Math.round(fastify.races.limits.idleMs / 1000)} s without a move`,
      });
    const { room, seat, standings } = found;
    const { layout, seed, mode } = room.meta;
    const key = dealKey(layout, seed, mode);
    const i18n = request.i18n;
    const mine = seat ? await fastify.games.mine(request.playerId, seat.gameId) : undefined;
    const shownDeal = mine?.stored ?? (await fastify.dealer.show(key, clientKey(request.ip)));
    if ('ok' in shownDeal && !shownDeal.ok) return sendRefusalOrMiss(request, reply, shownDeal);
    const shown = 'ok' in shownDeal ? shownDeal.value : shownDeal;
    const { name, neutral } = await fastify.layouts.viewerName(layout, i18n, viewerOf(request)); // the viewer's own name of their layout
    const path = raceUrl(room.meta.id);
    const shareUrl = `${fastify.publicOrigin ?? ''}${path}`;
    const view = viewOf(standings, request.playerId, i18n);
    reply.header('x-robots-tag', 'noindex'); // a room lives half an hour without moves: nothing to index
    reply.header('cache-control', 'no-store');
    return reply.page('play', {
      ...playPage(fastify, request, {
        key,
        deal: shown.deal,
        name,
        title: i18n.t('race.title', { name, seed }),
        path,
        preview: { title: i18n.t('race.title', { name: neutral, seed }), name: neutral },
        board: playBoard(fastify, key, i18n, shown, mine),
        playMs: mine?.row.play_ms ?? 0,
        resumed: false,
      }),
      record: '',
      race: {
        id: room.meta.id,
        path,
        shareUrl,
        seated: seat !== undefined,
        joinable: !seat && standings.order === null && room.seats.length < fastify.races.limits.playersPerRoom,
        full: !seat && room.seats.length >= fastify.races.limits.playersPerRoom,
        max: fastify.races.limits.playersPerRoom,
        count: room.seats.length,
        live: fastify.renderPartial('/partials/race-live', { i18n, max, ...view }),
        news: view.news,
        startsAt: standings.startsAt,
        startsIn: standings.startsAt === null ? null : standings.startsAt - fastify.races.now(),
        late: standings.startsAt !== null && standings.startsAt <= fastify.races.now(),
      },
    });
  });
}
