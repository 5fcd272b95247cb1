/**
 * The play pages:
 * - GET /play/:layout[?mode=classic] → 302 to a new random seed, keeping the mode.
 * - GET /play/:layout/:seed[?mode=classic]: the board (docs/contract-board.md), the share link, the counters.
 *   The player's unfinished game of this deal, if any, is replayed and shown where they left it.
 * A GET has no side effect but the player cookie and storing the deal on first use.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { BANDS, type Band } from '../../../engine/index.ts';
import { dealUrl, formatTime, isCleanWin, newDealUrl } from '../../../shared/display.ts';
import type { Lang } from '../../../shared/i18n.ts';
import { isTutorialDone, parsePrefs, PREFS_COOKIE } from '../../../shared/prefs.ts';
import { sendRefusal } from '../../errors.ts';
import type { Nav } from '../../plugins/view.ts';
import {
  dealKey,
  DealParamsSchema,
  LayoutParamsSchema,
  ModeQuerySchema,
  NewDealQuerySchema,
  type DealKey,
} from '../../schemas/common.ts';
import { dailyDayOf, dailySeed } from '../../services/daily.ts';
import { MAX_BAND_SEEDS, type ShownDeal, type ShownLookup } from '../../services/dealer.ts';
import type { Translator } from '../../services/i18n.ts';
import { clientKey } from '../../services/limits.ts';
import { sendMiss, sendRefusalOrMiss } from '../../services/misses.ts';
import { randomSeed } from '../../services/seeds.ts';
import { setStamp, takeStamp, type OwnRecord } from '../../services/first-shown.ts';
import { viewerOf } from '../../services/custom-layouts.ts';
import { keepWhole, PlayPages, RECORD_MARK, sendPage, type FreshBoard } from '../../view-models/play-pages.ts';
import { playBoard, playPage, renderBoard, type PlayBoard } from '../../view-models/play.ts';
import { themeOf, THEME_COOKIE } from '../../view-models/theme.ts';

const NO_RECORD: OwnRecord = { opened: 0, won: 0, best: [] };

/** The player's unfinished game of the deal, replayed (services/games.ts unfinished). */
type Unfinished = NonNullable<Awaited<ReturnType<FastifyInstance['games']['unfinished']>>>;

/** Where the player stands on a deal: the deal shown, since when (their first view), and whether they are known. */
interface Viewing {
  readonly shown: ShownDeal;
  readonly now: number;
  readonly shownAt: number; // the start of this player's time on it
  readonly known: boolean; // a player seen before (not a visitor without a cookie)
}

export default async function pagesPlay(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /**
   * The deal's own record (`#deal-stats`, docs/contracts.md, "The play page"): players shown it, players who won it,
   * its best ranked times; and `data-elapsed`, the ms since the server first showed this player the deal (the page's
   * clock starts there). Two indexed reads: cheap on every view.
   */
  // The record as a visitor without a game sees it (no "you", no time yet) is the same for all of them while
  // the record is: rendered once per kept record (services/first-shown.ts keeps one a second).
  const anonymous = new WeakMap<OwnRecord, Map<Lang, string>>();
  async function renderRecord(
    dealId: number | null,
    elapsedMs: number,
    playerId: string | null,
    i18n: Translator,
  ): Promise<string> {
    // A deal not stored yet has no record: nobody played it.
    const record = dealId === null ? NO_RECORD : await fastify.firstShown.record(dealId);
    const kept = playerId === null && elapsedMs === 0 ? anonymous.get(record)?.get(i18n.lang) : undefined;
    if (kept !== undefined) return kept;
    const html = fastify.renderPartial('/partials/deal-stats', {
      i18n,
      opened: record.opened,
      won: record.won,
      elapsedMs,
      best: record.best.map((row, i) => ({
        rank: i + 1,
        name: row.nickname,
        time: formatTime(row.time_ms),
        clean: isCleanWin(row),
        you: row.player_id === playerId,
      })),
    });
    if (playerId === null && elapsedMs === 0) {
      const byLang = anonymous.get(record) ?? new Map<Lang, string>();
      anonymous.set(record, byLang.set(i18n.lang, html));
    }
    return html;
  }

  const pages = new PlayPages();
  fastify.caches.push(pages.cache);

  app.get(
    '/play/:layout',
    { schema: { params: LayoutParamsSchema, querystring: NewDealQuerySchema } },
    async (request, reply) => {
      const { layout } = request.params;
      const { mode, difficulty } = request.query;
      if (!(await fastify.layouts.exists(layout)))
        return sendMiss(request, reply, 'ERR_UNKNOWN_LAYOUT', `there is no layout called ${layout}`);
      if (difficulty === undefined) {
        const key = dealKey(layout, randomSeed(), mode);
        fastify.dealer.markChosen(key); // its deal pays from the server's own pool
        return reply.redirect(dealUrl(key.layout, key.seed, key.mode), 302);
      }
      // A fresh seed whose deal is in the band, searched within a bound (services/band-search.ts findInBand).
      const found = await fastify.dealer.findInBand(layout, mode, difficulty, clientKey(request.ip));
      if (found.ok) {
        fastify.dealer.markChosen(found.value); // should the kept deal be gone by the next request
        return reply.redirect(dealUrl(found.value.layout, found.value.seed, mode), 302);
      }
      if (found.code !== 'ERR_NO_DEAL_IN_BAND' || !found.seen) return sendRefusal(request, reply, found);
      const { i18n } = request;
      const { name } = await fastify.layouts.viewerName(layout, i18n, viewerOf(request));
      const level = (band: Band): string => i18n.t('band.name', { band });
      const seen = BANDS.filter((b) => found.seen![b] > 0);
      return reply.code(404).page('error', {
        title: i18n.t('band.noneTitle', { level: level(difficulty) }),
        status: 404,
        message: i18n.t('band.noneMessage', {
          tried: MAX_BAND_SEEDS,
          mode,
          name,
          found: i18n.list(seen.map((b) => i18n.t('band.count', { level: level(b), n: found.seen![b] }))),
        }),
        detail: null,
        links: [
          ...seen.map((b) => ({
            href: newDealUrl(layout, mode, b),
            label: i18n.t('band.newDeal', { name, level: level(b) }),
          })),
          { href: newDealUrl(layout, mode), label: i18n.t('band.anyDeal', { name }) },
        ],
      });
    },
  );

  /**
   * Looks the deal up for this request and stamps the player's first view of it. A player seen before is shown
   * the stored deal (stored now if new, paid from their day of growth); a visitor without a cookie, or a client
   * whose day of growth is spent, gets it with no write. Sends the refusal and returns undefined when none.
   */
  async function view(request: FastifyRequest, reply: FastifyReply, key: DealKey): Promise<Viewing | undefined> {
    const client = clientKey(request.ip);
    const known = !request.isNewPlayer;
    let found: ShownLookup = known ? await fastify.dealer.get(key, client) : await fastify.dealer.show(key, client);
    if (!found.ok && found.code === 'ERR_GROWTH') found = await fastify.dealer.show(key, client);
    if (!found.ok) {
      await sendRefusalOrMiss(request, reply, found);
      return undefined;
    }
    const shown = found.value;
    const now = fastify.now();
    let shownAt = now;
    if (!known)
      setStamp(fastify, request, reply, key, now); // proved at their next request (services/first-shown.ts)
    else if (shown.id !== null) {
      const stamped = takeStamp(fastify, request, reply, request.playerId, key);
      shownAt = await fastify.firstShown.show(request.playerId, client, shown, now, stamped);
    }
    return { shown, now, shownAt, known };
  }

  /** A deal's fresh board as the page shows it: no hint nor shuffle yet. */
  const freshBoard = ({ left, pairs, html, data }: FreshBoard): PlayBoard => ({
    counts: { left, pairs, hints: 0, shuffles: 0 },
    html,
    data,
  });

  app.get(
    '/play/:layout/:seed',
    { schema: { params: DealParamsSchema, querystring: ModeQuerySchema } },
    async (request, reply) => {
      const key = { ...request.params, mode: request.query.mode };
      const viewing = await view(request, reply, key);
      if (!viewing) return reply;
      const { shown, known } = viewing;
      const { i18n } = request;
      const record = await renderRecord(shown.id, viewing.now - viewing.shownAt, known ? request.playerId : null, i18n);
      const resumed = known && shown.id !== null ? await fastify.games.unfinished(request.playerId, shown) : undefined;
      const fresh = resumed
        ? undefined
        : pages.fresh(shown, i18n.lang, (game) => renderBoard(fastify, game, key, i18n));
      const look = await lookOf(request, key, known, Boolean(resumed));
      const kept = fresh?.pages.get(look.pageKey);
      if (kept && !known) keepWhole(kept, record);
      if (kept) return sendPage(reply, kept, record);
      const board = fresh ? freshBoard(fresh) : playBoard(fastify, key, i18n, shown, resumed);
      const page = await pageOf(request, key, shown, look, board, resumed);
      if (!fresh) return reply.page('play', { ...page, record });
      // Kept without the player's part: the deal's record and the time since the player first saw it.
      const html = fastify.renderPartial('play', { ...page, i18n, record: RECORD_MARK });
      return sendPage(reply, pages.keep(shown, i18n.lang, fresh, look.pageKey, html), record);
    },
  );

  /**
   * How the page looks for this request, apart from the game: nav, share link, prefs, theme, tile set and
   * whether the first game's lesson opens by itself; `pageKey` names the kept page for exactly that.
   */
  async function lookOf(request: FastifyRequest, key: DealKey, known: boolean, resumed: boolean) {
    const { layout, seed, mode } = key;
    const path = dealUrl(layout, seed, mode);
    // Never from the Host header (the client's to choose): PUBLIC_ORIGIN, else the path (the script adds the page's origin).
    const shareUrl = `${fastify.publicOrigin ?? ''}${path}`;
    const daily = dailyDayOf(layout, seed, mode) !== null; // the deal of its day (the layout of that day)
    const nav: Nav = daily && seed === dailySeed(fastify.now()) ? 'daily' : 'play';
    const prefs = parsePrefs(request.cookies[PREFS_COOKIE], layout, seed, mode);
    const theme = themeOf(request.cookies[THEME_COOKIE]);
    // The first game's lesson opens by itself for a browser that never finished or skipped it, on the page of
    // a player with no game yet (no row: a visit writes none); a returning player never meets it unasked.
    const tutorial =
      fastify.tutorial &&
      !resumed &&
      !isTutorialDone(request.cookies[PREFS_COOKIE]) &&
      (!known || !(await fastify.playersStore.find(request.playerId)));
    // The player's own name of their custom layout titles the page: pages are kept per name.
    const own = known ? await fastify.layouts.ownName(request.playerId, layout) : undefined;
    const pageKey = `${nav} ${shareUrl} ${request.hl ?? ''} ${prefs.timer} ${prefs.highlight} ${prefs.paused} ${theme.name} ${theme.auto} ${request.tiles} ${tutorial}${own === undefined ? '' : ` own:${own}`}`;
    return { path, shareUrl, daily, nav, prefs, theme, tutorial, pageKey };
  }

  /** What views/play.eta renders, but the record. */
  async function pageOf(
    request: FastifyRequest,
    key: DealKey,
    shown: ShownDeal,
    look: Awaited<ReturnType<typeof lookOf>>,
    board: PlayBoard,
    resumed: Unfinished | undefined,
  ) {
    const { name, neutral } = await fastify.layouts.viewerName(key.layout, request.i18n, viewerOf(request)); // the viewer's own name of their layout
    return playPage(fastify, request, {
      key,
      deal: shown.deal,
      name,
      title: `${name} ${key.seed}`,
      path: look.path,
      // A link's preview shows the deal as dealt, whoever opens it and however far they played.
      preview: { title: `${neutral} ${key.seed}`, name: neutral },
      board,
      playMs: resumed?.row.play_ms ?? 0,
      resumed: Boolean(resumed),
      nav: look.nav,
      daily: look.daily,
      tutorial: look.tutorial,
      prefs: look.prefs,
      theme: look.theme,
    });
  }
}
