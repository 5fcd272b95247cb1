/** The play page's kept bytes, bounded by bytes (docs/server.md, "Kept play pages"). */
import type { FastifyReply } from 'fastify';
import { availablePairs, type Game } from '../../engine/index.ts';
import type { Lang } from '../../shared/i18n.ts';
import type { ShownDeal } from '../services/dealer.ts';
import { ByteLru, type MeasuredCache } from '../utils/lru.ts';
import { bufferBytes, CACHE_BUDGETS, flatString, HEAP, keyedRecordBytes, stringBytes } from '../utils/sizes.ts';
import { dealData } from './board.ts';
import { startOf } from './play.ts';

export const RECORD_MARK = '<!--deal-record-->'; // where the player's part goes
const PAGES_PER_DEAL = 8;

export interface KeptPage {
  readonly head: Buffer;
  readonly tail: Buffer;
  whole?: { readonly record: string; readonly bytes: Buffer }; // for visitors without a game
}

export interface FreshBoard {
  readonly left: number;
  readonly pairs: number;
  readonly html: string;
  readonly data: string;
  readonly pages: Map<string, KeptPage>;
}

/** A kept page with `record` at RECORD_MARK. */
export function sendPage(reply: FastifyReply, page: KeptPage, record: string): FastifyReply {
  const bytes =
    page.whole?.record === record ? page.whole.bytes : Buffer.concat([page.head, Buffer.from(record), page.tail]);
  return reply.type('text/html; charset=utf-8').send(bytes);
}

export class PlayPages {
  private readonly boards = new ByteLru<string, FreshBoard>('play pages', CACHE_BUDGETS.pages);

  get cache(): MeasuredCache {
    return this.boards;
  }

  /** The deal's fresh board in `lang`, made on first use. */
  fresh(shown: ShownDeal, lang: Lang, render: (game: Game) => string): FreshBoard {
    const key = boardKey(shown, lang);
    let fresh = this.boards.get(key);
    if (!fresh) {
      const start = startOf(shown.deal);
      fresh = {
        left: start.left,
        pairs: availablePairs(start).length,
        html: flatString(render(start)),
        data: flatString(dealData(shown.json, null)),
        pages: new Map(),
      };
      this.boards.set(
        key,
        fresh,
        HEAP.object * 2 + keyedRecordBytes(key) + stringBytes(fresh.html) + stringBytes(fresh.data),
      );
    }
    return fresh;
  }

  /** Keeps a rendered page of a fresh board, if the deal has room. */
  keep(shown: ShownDeal, lang: Lang, fresh: FreshBoard, pageKey: string, html: string): KeptPage {
    const at = html.indexOf(RECORD_MARK);
    const page = { head: Buffer.from(html.slice(0, at)), tail: Buffer.from(html.slice(at + RECORD_MARK.length)) };
    if (fresh.pages.size >= PAGES_PER_DEAL) return page;
    fresh.pages.set(pageKey, page);
    const bytes = keyedRecordBytes(pageKey) + 2 * (bufferBytes(page.head) + bufferBytes(page.tail)) + 4096;
    this.boards.resize(boardKey(shown, lang), bytes);
    return page;
  }
}

// The board's markup names its tiles, so a fresh board is kept per language.
const boardKey = (shown: ShownDeal, lang: Lang): string =>
  `${shown.id ?? 'new'} ${shown.deal.layout}/${shown.deal.seed}/${shown.deal.mode} ${lang}`;

/** Keeps a page whole with the record of visitors without a game, who then share its bytes. */
export function keepWhole(page: KeptPage, record: string): void {
  if (page.whole?.record !== record)
    page.whole = { record, bytes: Buffer.concat([page.head, Buffer.from(record), page.tail]) };
}
