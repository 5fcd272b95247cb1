/** What views/play.eta renders for a deal: the play, race and challenge pages each add their own part. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { availablePairs, geometryOfDeal, newGame, type Deal, type Game, type Mode } from '../../engine/index.ts';
import { dealUrl, formatTime, newDealUrl } from '../../shared/display.ts';
import { parsePrefs, PREFS_COOKIE, type PlayPrefs } from '../../shared/prefs.ts';
import type { Nav } from '../plugins/view.ts';
import type { ShownDeal } from '../services/dealer.ts';
import { clientGame } from '../services/game-rows.ts';
import type { GameRow } from '../stores/types.ts';
import type { Translator } from '../services/i18n.ts';
import { boardView, dealData } from './board.ts';
import { lessonTiles } from './lesson.ts';
import { boardPreview, headLinks } from './head.ts';
import { themeOf, THEME_COOKIE, type Theme } from './theme.ts';

export interface DealAt {
  readonly layout: string;
  readonly seed: string;
  readonly mode: Mode;
}

/** A position's board partial, its counters and #deal-data. */
export interface PlayBoard {
  readonly counts: { readonly left: number; readonly pairs: number; readonly hints: number; readonly shuffles: number };
  readonly html: string;
  readonly data: string; // #deal-data
}

export interface OwnGame {
  readonly game: Game;
  readonly row: GameRow;
}

/** The deal as dealt; throws for a deal that cannot start (our bug). */
export function startOf(deal: Deal): Game {
  const start = newGame(deal);
  if (!start.ok) throw new Error(`deal ${deal.layout}/${deal.seed}/${deal.mode} is not playable: ${start.message}`);
  return start.value;
}

export const renderBoard = (fastify: FastifyInstance, game: Game, key: DealAt, i18n: Translator): string =>
  fastify.renderPartial('/partials/board', {
    i18n,
    board: boardView(game, i18n.t),
    layout: { id: key.layout },
    seed: key.seed,
    mode: key.mode,
  });

/** The board of `own`, the player's game, where they left it; else the deal as dealt. */
export function playBoard(
  fastify: FastifyInstance,
  key: DealAt,
  i18n: Translator,
  shown: Pick<ShownDeal, 'deal' | 'json'>,
  own: OwnGame | undefined,
): PlayBoard {
  const game = own?.game ?? startOf(shown.deal);
  return {
    counts: { left: game.left, pairs: availablePairs(game).length, hints: game.hints, shuffles: game.shuffles },
    html: renderBoard(fastify, game, key, i18n),
    data: dealData(shown.json, own ? clientGame(own) : null),
  };
}

/** A board page. */
export interface PlayPageInput {
  readonly key: DealAt;
  readonly deal: Deal;
  readonly name: string;
  readonly title: string;
  readonly path: string;
  readonly preview: {
    readonly title: string; // never a player's own name
    readonly name: string;
    readonly timeMs?: number;
    readonly description?: string;
  };
  readonly board: PlayBoard;
  readonly playMs: number;
  readonly resumed: boolean;
  readonly nav?: Nav;
  readonly daily?: boolean;
  readonly tutorial?: boolean;
  readonly prefs?: PlayPrefs; // else from the cookie
  readonly theme?: Theme;
}

/** What views/play.eta renders, but the page's own part. */
export function playPage(fastify: FastifyInstance, request: FastifyRequest, input: PlayPageInput) {
  const { key, deal, path, board, playMs } = input;
  const { layout, seed, mode } = key;
  const { counts } = board;
  const sharePath = dealUrl(layout, seed, mode);
  const other: Mode = mode === 'classic' ? 'relaxed' : 'classic';
  const preview = boardPreview(fastify.previews, fastify.publicOrigin, request.i18n, {
    title: input.preview.title,
    path,
    layout,
    name: input.preview.name,
    geom: geometryOfDeal(deal),
    faces: deal.tiles.map((t) => t.face),
    ...(input.preview.timeMs === undefined ? {} : { timeMs: input.preview.timeMs }),
  });
  return {
    title: input.title,
    head: headLinks(fastify.publicOrigin, path, request.hl),
    preview: input.preview.description === undefined ? preview : { ...preview, description: input.preview.description },
    nav: input.nav ?? 'play',
    layout: { id: layout, name: input.name },
    seed,
    mode,
    daily: input.daily ?? false,
    counters: { left: counts.left, pairs: counts.pairs },
    boardHtml: board.html,
    game: { hints: counts.hints, shuffles: counts.shuffles, playMs, time: formatTime(playMs) },
    resumed: input.resumed,
    dealData: board.data,
    // Never from the Host header (the client's to choose).
    sharePath,
    shareUrl: `${fastify.publicOrigin ?? ''}${sharePath}`,
    otherMode: { mode: other, url: dealUrl(layout, seed, other) },
    newUrl: newDealUrl(layout, mode),
    difficulty: {
      band: deal.difficulty.band,
      score: deal.difficulty.score,
      againUrl: newDealUrl(layout, mode, deal.difficulty.band),
    },
    prefs: input.prefs ?? parsePrefs(request.cookies[PREFS_COOKIE], layout, seed, mode),
    tutorial: input.tutorial ?? false,
    lesson: input.tutorial ? lessonTiles(request.i18n) : null, // drawn open on a first visit
    theme: input.theme ?? themeOf(request.cookies[THEME_COOKIE]),
    tileSet: request.tiles,
    back: path,
  };
}
