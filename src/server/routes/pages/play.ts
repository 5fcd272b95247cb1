/**
 * The play pages:
 * - GET /play/:layout[?mode=classic] → 302 to a new random seed, keeping the mode.
 * - GET /play/:layout/:seed[?mode=classic]: the board (docs/contract-board.md), the share link, the counters.
 *   The player's unfinished game of this deal, if any, is replayed and shown where they left it.
 * A GET has no side effect but the player cookie and storing the deal on first use.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { availablePairs, newGame, type Game } from '../../../engine/index.ts';
import { sendRefusal, sendError } from '../../errors.ts';
import type { Nav } from '../../plugins/view.ts';
import { dealKey, DealParamsSchema, LayoutParamsSchema, ModeQuerySchema } from '../../schemas/common.ts';
import { dailyDayOf, dailySeed } from '../../services/daily.ts';
import type { StoredDeal } from '../../services/dealer.ts';
import { clientLog } from '../../services/games.ts';
import { clientKey } from '../../services/limits.ts';
import { RECORD_SIZE } from '../../services/wins.ts';
import { dealUrl, formatTime, isCleanWin, newDealUrl } from '../../../shared/display.ts';
import { boardView, dealData, type GameData } from '../../views/board.ts';
import { themeOf, THEME_COOKIE } from '../../views/theme.ts';

const SEED_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789'; // no - or _: a seed never looks like a flag
export const RANDOM_SEED_LENGTH = 8;
const RECORD_MARK = '<!--deal-record-->'; // where each response puts the player's part of a cached page

/**
 * The player's play-page preferences, kept by the page's script in the `mj_prefs` cookie (not signed:
 * it only changes how the page looks) and rendered by the server, so the page opens as it was left:
 * `timer-off` hides the clock, `paused` opens the board paused. Anything else in it is ignored.
 */
export const PREFS_COOKIE = 'mj_prefs';
export function playPrefs(raw: string | undefined): { timer: 'on' | 'off'; paused: boolean } {
  const words = new Set((raw ?? '').split('.'));
  return { timer: words.has('timer-off') ? 'off' : 'on', paused: words.has('paused') };
}

/** A random seed of 8 letters and digits (about 47 bits), from the crypto RNG. */
export function randomSeed(): string {
  let seed = '';
  while (seed.length < RANDOM_SEED_LENGTH) {
    for (const byte of randomBytes(16)) {
      if (byte < 248 && seed.length < RANDOM_SEED_LENGTH) seed += SEED_ALPHABET[byte % 62]; // 248 = 4 × 62: unbiased
    }
  }
  return seed;
}

export default async function pagesPlay(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  /**
   * The deal's own record (`#deal-stats`, SPEC §3.4): players shown it, players who won it, its best
   * ranked times; and `data-elapsed`, the ms since the server first showed this player the deal (the
   * page's clock starts there). Two indexed reads: cheap on every view.
   */
  async function renderRecord(dealId: number, elapsedMs: number, playerId: string): Promise<string> {
    const [counts, best] = await Promise.all([
      fastify.gamesRepository.dealRecord(dealId),
      fastify.gamesRepository.bestTimes(dealId, RECORD_SIZE),
    ]);
    return fastify.renderPartial('/partials/deal-stats', {
      ...counts,
      elapsedMs,
      best: best.map((row, i) => ({
        rank: i + 1,
        name: row.nickname,
        time: formatTime(row.time_ms),
        clean: isCleanWin(row),
        you: row.player_id === playerId,
      })),
    });
  }

  /** The board partial for a position. */
  const renderBoard = (game: Game, layout: string, seed: string, mode: string): string =>
    fastify.renderPartial('/partials/board', { board: boardView(game), layout: { id: layout }, seed, mode });

  // A fresh board is the same for every visitor of a deal: its markup and #deal-data are made once per
  // stored deal (the dealer's cache holds the deal; this map lets go with it). So is the whole page for
  // everyone without a game of that deal: nothing on it is about the player, so it is kept too, per
  // nav state, prefs and theme (at most PAGES_PER_DEAL).
  // Anything player-specific on the play page must go through the resumed-game path.
  const PAGES_PER_DEAL = 8;
  const freshBoards = new WeakMap<
    StoredDeal,
    { game: Game; pairs: number; html: string; data: string; pages: Map<string, string> }
  >();
  function freshBoard(stored: StoredDeal, layout: string, seed: string, mode: string) {
    let fresh = freshBoards.get(stored);
    if (!fresh) {
      const start = newGame(stored.deal);
      if (!start.ok) throw new Error(`stored deal ${stored.id} is not playable: ${start.message}`);
      fresh = {
        game: start.value,
        pairs: availablePairs(start.value).length,
        html: renderBoard(start.value, layout, seed, mode),
        data: dealData(stored.json, null),
        pages: new Map(),
      };
      freshBoards.set(stored, fresh);
    }
    return fresh;
  }

  app.get(
    '/play/:layout',
    { schema: { params: LayoutParamsSchema, querystring: ModeQuerySchema } },
    async (request, reply) => {
      const { layout } = request.params;
      if (!(await fastify.layouts.info(layout)))
        return sendError(request, reply, 'ERR_UNKNOWN_LAYOUT', `there is no layout called ${layout}`);
      const key = dealKey(layout, randomSeed(), request.query.mode);
      fastify.dealer.markChosen(key); // its deal pays from the server's own pool
      return reply.redirect(dealUrl(key.layout, key.seed, key.mode), 302);
    },
  );

  app.get(
    '/play/:layout/:seed',
    { schema: { params: DealParamsSchema, querystring: ModeQuerySchema } },
    async (request, reply) => {
      const { layout, seed } = request.params;
      const { mode } = request.query;
      const found = await fastify.dealer.get({ layout, seed, mode }, clientKey(request.ip));
      if (!found.ok) return sendRefusal(request, reply, found);
      const stored = found.value;
      const now = fastify.now();
      const shownAt = await fastify.gamesRepository.recordView(request.playerId, stored.id, now); // the start of this player's time on it
      const record = await renderRecord(stored.id, now - shownAt, request.playerId);
      const resumed = request.isNewPlayer ? undefined : await fastify.games.unfinished(request.playerId, stored);
      const fresh = resumed ? undefined : freshBoard(stored, layout, seed, mode);
      const path = dealUrl(layout, seed, mode);
      // Never from the Host header (the client's to choose): PUBLIC_ORIGIN, else the path (the script adds the page's origin).
      const shareUrl = `${fastify.publicOrigin ?? ''}${path}`;
      const daily = dailyDayOf(layout, seed, mode) !== null; // the deal of its day (the layout of that day)
      const nav: Nav = daily && seed === dailySeed(fastify.now()) ? 'daily' : 'play';
      const prefs = playPrefs(request.cookies[PREFS_COOKIE]);
      const theme = themeOf(request.cookies[THEME_COOKIE]);
      const cacheKey = `${nav} ${shareUrl} ${prefs.timer} ${prefs.paused} ${theme.name} ${theme.auto}`;
      const cached = fresh?.pages.get(cacheKey);
      if (cached) return reply.type('text/html; charset=utf-8').send(cached.replace(RECORD_MARK, record));

      const playMs = resumed?.row.play_ms ?? 0;
      let game: Game;
      let pairs: number;
      let boardHtml: string;
      let data: string;
      if (resumed) {
        game = resumed.game;
        pairs = availablePairs(game).length;
        boardHtml = renderBoard(game, layout, seed, mode);
        const gameData: GameData = {
          id: resumed.row.id,
          log: clientLog(game, resumed.row.move_count, resumed.row),
          startedAt: resumed.row.started_at,
          status: resumed.row.status,
          playMs: resumed.row.play_ms,
        };
        data = dealData(stored.json, gameData);
      } else {
        ({ game, pairs, html: boardHtml, data } = fresh!);
      }
      const name = (await fastify.layouts.namer([layout]))(layout);
      const other = mode === 'classic' ? 'relaxed' : 'classic';
      const page = {
        title: `${name} ${seed}`,
        nav,
        layout: { id: layout, name },
        seed,
        mode,
        daily,
        counters: { left: game.left, pairs },
        boardHtml,
        // Your time (the clock the page shows: from the first move, stopped while paused), as last heard.
        game: { hints: game.hints, shuffles: game.shuffles, playMs, time: formatTime(playMs) },
        resumed: Boolean(resumed),
        dealData: data,
        sharePath: path,
        shareUrl,
        otherMode: { mode: other, url: dealUrl(layout, seed, other) },
        newUrl: newDealUrl(layout, mode),
        prefs,
        theme,
        back: path, // the theme form comes back to the deal's own link (one page per cache key)
      };
      if (!fresh) return reply.page('play', { ...page, record });
      // Cached without the player's part: the deal's record and the time since the player first saw it.
      const html = fastify.renderPartial('play', {
        ...page,
        record: RECORD_MARK,
      });
      if (fresh.pages.size < PAGES_PER_DEAL) fresh.pages.set(cacheKey, html);
      return reply.type('text/html; charset=utf-8').send(html.replace(RECORD_MARK, record));
    },
  );
}
