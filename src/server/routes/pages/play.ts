/**
 * The play pages:
 * - GET /play/:layout[?mode=classic] → 302 to a new random seed, keeping the mode.
 * - GET /play/:layout/:seed[?mode=classic]: the board (docs/contract-board.md), the share link, the counters.
 *   The player's unfinished game of this deal, if any, is replayed and shown where they left it.
 * A GET has no side effect but the player cookie and storing the deal on first use.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availablePairs, geometryOfDeal, newGame, type Game } from '../../../engine/index.ts';
import { sendRefusal } from '../../errors.ts';
import type { Nav } from '../../plugins/view.ts';
import {
  dealKey,
  DealParamsSchema,
  LayoutParamsSchema,
  ModeQuerySchema,
  NewDealQuerySchema,
} from '../../schemas/common.ts';
import { dailyDayOf, dailySeed } from '../../services/daily.ts';
import { MAX_BAND_SEEDS, type ShownDeal, type ShownLookup } from '../../services/dealer.ts';
import type { Translator } from '../../services/i18n.ts';
import { ByteLru } from '../../services/lru.ts';
import { bufferBytes, CACHE_BUDGETS, flatString, HEAP, keyedRecordBytes, stringBytes } from '../../services/sizes.ts';
import { setStamp, takeStamp, type OwnRecord } from '../../services/views.ts';

const NO_RECORD: OwnRecord = { opened: 0, won: 0, best: [] };
import { clientLog } from '../../services/games.ts';
import { clientKey } from '../../services/limits.ts';
import { BANDS, type Band } from '../../../engine/index.ts';
import { randomSeed } from '../../services/seeds.ts';
import { dealUrl, formatTime, isCleanWin, newDealUrl } from '../../../shared/display.ts';
import type { Lang } from '../../../shared/i18n.ts';
import { isTutorialDone, parsePrefs, PREFS_COOKIE } from '../../../shared/prefs.ts';
import { boardView, dealData, type GameData } from '../../views/board.ts';
import { boardPreview, headLinks } from '../../views/head.ts';
import { themeOf, THEME_COOKIE } from '../../views/theme.ts';
import { sendMiss, sendRefusalOrMiss } from '../../services/misses.ts';

const RECORD_MARK = '<!--deal-record-->'; // where each response puts the player's part of a cached page

interface KeptPage {
  readonly head: Buffer; // the page up to RECORD_MARK
  readonly tail: Buffer; // and after it
  whole?: { readonly record: string; readonly bytes: Buffer }; // the page with the last record for visitors without a game
}

/** A kept page with the player's part (the deal's record) where RECORD_MARK was. */
function sendPage(reply: FastifyReply, page: KeptPage, record: string): FastifyReply {
  const bytes =
    page.whole?.record === record ? page.whole.bytes : Buffer.concat([page.head, Buffer.from(record), page.tail]);
  return reply.type('text/html; charset=utf-8').send(bytes);
}

export default async function pagesPlay(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /**
   * The deal's own record (`#deal-stats`, docs/contracts.md, "The play page"): players shown it, players who won it,
   * its best ranked times; and `data-elapsed`, the ms since the server first showed this player the deal (the page's
   * clock starts there). Two indexed reads: cheap on every view.
   */
  // The record as a visitor without a game sees it (no "you", no time yet) is the same for all of them while
  // the record is: rendered once per kept record (services/views.ts keeps one a second).
  const anonymous = new WeakMap<OwnRecord, Map<Lang, string>>();
  async function renderRecord(
    dealId: number | null,
    elapsedMs: number,
    playerId: string | null,
    i18n: Translator,
  ): Promise<string> {
    // A deal not stored yet has no record: nobody played it.
    const record = dealId === null ? NO_RECORD : await fastify.views.record(dealId);
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

  /** The board partial for a position. */
  const renderBoard = (game: Game, layout: string, seed: string, mode: string, i18n: Translator): string =>
    fastify.renderPartial('/partials/board', {
      i18n,
      board: boardView(game, i18n.t),
      layout: { id: layout },
      seed,
      mode,
    });

  // A fresh board is the same for every visitor of a deal: its markup and #deal-data are made once per
  // deal (stored, or shown unstored to visitors without a cookie). So is the whole page for everyone
  // without a game of that deal: nothing on it is about the player, so it is kept too, per nav state,
  // prefs, theme and tile set (at most PAGES_PER_DEAL), as bytes split where the player's part goes. All of it is
  // bounded by bytes (issue 24: a 1,000-tile deal's page is ~250 KB; eight of them per deal, for 500
  // deals, once took a gigabyte). Anything player-specific on the play page must go through the
  // resumed-game path.
  const PAGES_PER_DEAL = 8;
  interface Fresh {
    readonly left: number;
    readonly pairs: number;
    readonly html: string; // the board partial
    readonly data: string; // #deal-data
    readonly pages: Map<string, KeptPage>; // cache key → the page around RECORD_MARK
  }
  const freshBoards = new ByteLru<string, Fresh>('play pages', CACHE_BUDGETS.pages);
  fastify.caches.push(freshBoards);
  // The board's markup names its tiles, so a fresh board is kept per language.
  const freshKey = (shown: ShownDeal, lang: Lang): string =>
    `${shown.id ?? 'new'} ${shown.deal.layout}/${shown.deal.seed}/${shown.deal.mode} ${lang}`;
  function freshBoard(shown: ShownDeal, layout: string, seed: string, mode: string, i18n: Translator): Fresh {
    const key = freshKey(shown, i18n.lang);
    let fresh = freshBoards.get(key);
    if (!fresh) {
      const start = newGame(shown.deal);
      if (!start.ok) throw new Error(`deal ${key} is not playable: ${start.message}`);
      fresh = {
        left: start.value.left,
        pairs: availablePairs(start.value).length,
        html: flatString(renderBoard(start.value, layout, seed, mode, i18n)),
        data: flatString(dealData(shown.json, null)),
        pages: new Map(),
      };
      freshBoards.set(
        key,
        fresh,
        HEAP.object * 2 + keyedRecordBytes(key) + stringBytes(fresh.html) + stringBytes(fresh.data),
      );
    }
    return fresh;
  }
  /** Keeps a rendered page of a fresh board (split at RECORD_MARK), if the deal has room for one more. */
  function keepPage(shown: ShownDeal, lang: Lang, fresh: Fresh, cacheKey: string, html: string): KeptPage {
    const at = html.indexOf(RECORD_MARK);
    const page = { head: Buffer.from(html.slice(0, at)), tail: Buffer.from(html.slice(at + RECORD_MARK.length)) };
    if (fresh.pages.size >= PAGES_PER_DEAL) return page;
    fresh.pages.set(cacheKey, page);
    // The page, and once more whole with the record of visitors without a game (keepWhole), ~4 KB of record.
    const bytes = keyedRecordBytes(cacheKey) + 2 * (bufferBytes(page.head) + bufferBytes(page.tail)) + 4096;
    freshBoards.resize(freshKey(shown, lang), bytes);
    return page;
  }

  /**
   * Keeps a kept page whole with `record`, the record every visitor without a game gets while it is kept
   * (services/views.ts): those visitors are then sent the same bytes, no copy made (issue 24).
   */
  function keepWhole(page: KeptPage, record: string): void {
    if (page.whole?.record !== record)
      page.whole = { record, bytes: Buffer.concat([page.head, Buffer.from(record), page.tail]) };
  }

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
      // A fresh seed whose deal is in the band, searched within a bound (services/dealer.ts findInBand).
      const found = await fastify.dealer.findInBand(layout, mode, difficulty, clientKey(request.ip));
      if (found.ok) {
        fastify.dealer.markChosen(found.value); // should the kept deal be gone by the next request
        return reply.redirect(dealUrl(found.value.layout, found.value.seed, mode), 302);
      }
      if (found.code !== 'ERR_NO_DEAL_IN_BAND' || !found.seen) return sendRefusal(request, reply, found);
      const { i18n } = request;
      const name = (await fastify.layouts.namer([layout], i18n))(layout);
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

  app.get(
    '/play/:layout/:seed',
    { schema: { params: DealParamsSchema, querystring: ModeQuerySchema } },
    async (request, reply) => {
      const { layout, seed } = request.params;
      const { mode } = request.query;
      const key = { layout, seed, mode };
      const client = clientKey(request.ip);
      const known = !request.isNewPlayer;
      // A player seen before is shown the stored deal (stored now if new, paid from their day of growth);
      // a visitor without a cookie, or a client whose day of growth is spent, gets it with no write (issue 24).
      let found: ShownLookup = known ? await fastify.dealer.get(key, client) : await fastify.dealer.show(key, client);
      if (!found.ok && found.code === 'ERR_GROWTH') found = await fastify.dealer.show(key, client);
      if (!found.ok) return sendRefusalOrMiss(request, reply, found);
      const shown = found.value;
      const now = fastify.now();
      let shownAt = now; // the start of this player's time on it
      if (!known)
        setStamp(fastify, request, reply, key, now); // proved at their next request (services/views.ts)
      else if (shown.id !== null) {
        const stamped = takeStamp(fastify, request, reply, request.playerId, key);
        shownAt = await fastify.views.show(request.playerId, client, shown, now, stamped);
      }
      const i18n = request.i18n;
      const record = await renderRecord(shown.id, now - shownAt, known ? request.playerId : null, i18n);
      const resumed = known && shown.id !== null ? await fastify.games.unfinished(request.playerId, shown) : undefined;
      const fresh = resumed ? undefined : freshBoard(shown, layout, seed, mode, i18n);
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
        (!known || !(await fastify.playersRepository.find(request.playerId)));
      const cacheKey = `${nav} ${shareUrl} ${request.hl ?? ''} ${prefs.timer} ${prefs.highlight} ${prefs.paused} ${theme.name} ${theme.auto} ${request.tiles} ${tutorial}`;
      const cached = fresh?.pages.get(cacheKey);
      if (cached && !known) keepWhole(cached, record);
      if (cached) return sendPage(reply, cached, record);

      const playMs = resumed?.row.play_ms ?? 0;
      let counts: { left: number; pairs: number; hints: number; shuffles: number };
      let boardHtml: string;
      let data: string;
      if (resumed) {
        const game = resumed.game;
        counts = { left: game.left, pairs: availablePairs(game).length, hints: game.hints, shuffles: game.shuffles };
        boardHtml = renderBoard(game, layout, seed, mode, i18n);
        const gameData: GameData = {
          id: resumed.row.id,
          log: clientLog(game, resumed.row.move_count, resumed.row),
          startedAt: resumed.row.started_at,
          status: resumed.row.status,
          playMs: resumed.row.play_ms,
        };
        data = dealData(shown.json, gameData);
      } else {
        counts = { left: fresh!.left, pairs: fresh!.pairs, hints: 0, shuffles: 0 };
        ({ html: boardHtml, data } = fresh!);
      }
      const name = (await fastify.layouts.namer([layout], i18n))(layout);
      const other = mode === 'classic' ? 'relaxed' : 'classic';
      const title = `${name} ${seed}`;
      // A link's preview shows the deal as dealt, whoever opens it and however far they played.
      const preview = boardPreview(fastify.previews, fastify.publicOrigin, i18n, {
        title,
        path,
        layout,
        name,
        geom: geometryOfDeal(shown.deal),
        faces: shown.deal.tiles.map((t) => t.face),
      });
      const page = {
        title,
        head: headLinks(fastify.publicOrigin, path, request.hl),
        preview,
        nav,
        layout: { id: layout, name },
        seed,
        mode,
        daily,
        counters: { left: counts.left, pairs: counts.pairs },
        boardHtml,
        // Your time (the clock the page shows: from the first move, stopped while paused), as last heard.
        game: { hints: counts.hints, shuffles: counts.shuffles, playMs, time: formatTime(playMs) },
        resumed: Boolean(resumed),
        dealData: data,
        sharePath: path,
        shareUrl,
        otherMode: { mode: other, url: dealUrl(layout, seed, other) },
        newUrl: newDealUrl(layout, mode),
        // The deal's difficulty as dealt (stored with it), and a new deal of the same band.
        difficulty: {
          band: shown.deal.difficulty.band,
          score: shown.deal.difficulty.score,
          againUrl: newDealUrl(layout, mode, shown.deal.difficulty.band),
        },
        prefs,
        tutorial,
        theme,
        tileSet: request.tiles,
        back: path, // the theme and tiles forms come back to the deal's own link (one page per cache key)
      };
      if (!fresh) return reply.page('play', { ...page, record });
      // Cached without the player's part: the deal's record and the time since the player first saw it.
      const html = fastify.renderPartial('play', {
        ...page,
        i18n,
        record: RECORD_MARK,
      });
      return sendPage(reply, keepPage(shown, i18n.lang, fresh, cacheKey, html), record);
    },
  );
}
