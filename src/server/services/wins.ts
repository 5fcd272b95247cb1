/**
 * What the win panel shows beside a win's time: the best before it, its daily rank, where to go next, the
 * deal's record with the win counted (the page updates #deal-stats from it without a reload) and the
 * achievements the win earned.
 */
import type { FastifyInstance } from 'fastify';
import type { DealRecordAnswer, WinExtras } from '../../shared/api.ts';
import { isCleanWin, newDealUrl } from '../../shared/display.ts';
import type { GameRow, GamesStore, LayoutTotals } from '../stores/types.ts';
import { announced } from './achievements.ts';
import { dailyDayOf } from './daily.ts';
import { layoutInfos, type Namer } from './layouts.ts';

export const RECORD_SIZE = 5; // best ranked times shown in a deal's record

/** A deal's record as the API sends it: the counts and the best ranked time of each of the fastest players. */
export async function dealRecordOf(store: GamesStore, dealId: number, playerId: string): Promise<DealRecordAnswer> {
  const [counts, best] = await Promise.all([store.dealRecord(dealId), store.bestTimes(dealId, RECORD_SIZE)]);
  return {
    opened: counts.opened,
    won: counts.won,
    best: best.map((row) => ({
      name: row.nickname,
      timeMs: row.time_ms,
      clean: isCleanWin(row),
      you: row.player_id === playerId,
    })),
  };
}

export type NextLayout = NonNullable<WinExtras['next']>; // a layout to try next (shared/answers.ts)

/**
 * The first built-in layout (in picker order, after `current`) the player has not played, named in the
 * language of `i18n`; null when all are played.
 */
export function nextUnplayed(totals: readonly LayoutTotals[], i18n: Namer, current?: string): NextLayout | null {
  const played = new Set(totals.filter((t) => t.played > 0).map((t) => t.layout));
  const all = layoutInfos(i18n);
  const from = Math.max(0, all.findIndex((l) => l.id === current) + 1);
  const next = [...all.slice(from), ...all.slice(0, from)].find((l) => !played.has(l.id) && l.id !== current);
  return next ? { id: next.id, name: next.name, url: `/play/${next.id}` } : null;
}

/** The win panel's extras for a game just won (or a repeat of its winning batch); names in the language of `i18n`. */
export async function winExtras(
  fastify: FastifyInstance,
  playerId: string,
  row: GameRow,
  i18n: Namer,
): Promise<WinExtras> {
  const repo = fastify.gamesStore;
  const previousBestMs = await repo.bestWinTime(playerId, row.layout, row.mode, row.id);
  const day = dailyDayOf(row.layout, row.seed, row.mode);
  const dailyRank =
    row.daily === 1 && row.ranked_ms !== null ? await repo.dailyRank(row.deal_id, playerId, row.ranked_ms) : null;
  return {
    previousBestMs, // the player's best on this layout and mode before this win; null for a first win
    dailyDay: day, // a daily deal's day, else null
    dailyRank, // its place on that day's table, when it stands there
    next: nextUnplayed(await repo.layoutTotals(playerId), i18n, row.layout),
    again: newDealUrl(row.layout, row.mode), // a new deal of the same layout and mode
    record: await dealRecordOf(repo, row.deal_id, playerId), // the deal's record, this win counted
    achievements: announced(await repo.achievementsOf(playerId), row.id), // what this win earned (docs/server.md, "Achievements")
  };
}
