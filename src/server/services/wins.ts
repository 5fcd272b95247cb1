/** What the win panel shows beside a win's time (docs/server.md, "A deal's own record"). */
import type { FastifyInstance } from 'fastify';
import type { DealRecordAnswer, WinExtras } from '../../shared/api.ts';
import { isCleanWin, newDealUrl } from '../../shared/display.ts';
import type { GameRow, GamesStore, LayoutTotals } from '../stores/types.ts';
import { announced } from './achievements.ts';
import { dailyDayOf } from './daily.ts';
import { layoutInfos, type Namer } from './layouts.ts';

export const RECORD_SIZE = 5; // best ranked times shown in a deal's record

/** The counts and the best ranked time of each of the fastest players. */
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

export type NextLayout = NonNullable<WinExtras['next']>;

/** The first built-in layout after `current` in picker order the player has not played; null when none. */
export function nextUnplayed(totals: readonly LayoutTotals[], i18n: Namer, current?: string): NextLayout | null {
  const played = new Set(totals.filter((t) => t.played > 0).map((t) => t.layout));
  const all = layoutInfos(i18n);
  const from = Math.max(0, all.findIndex((l) => l.id === current) + 1);
  const next = [...all.slice(from), ...all.slice(0, from)].find((l) => !played.has(l.id) && l.id !== current);
  return next ? { id: next.id, name: next.name, url: `/play/${next.id}` } : null;
}

/** For a game just won, or a repeat of its winning batch. */
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
    previousBestMs, // on this layout and mode; null for a first win
    dailyDay: day,
    dailyRank, // when it stands on the day's table
    next: nextUnplayed(await repo.layoutTotals(playerId), i18n, row.layout),
    again: newDealUrl(row.layout, row.mode),
    record: await dealRecordOf(repo, row.deal_id, playerId), // this win counted
    achievements: announced(await repo.achievementsOf(playerId), row.id),
  };
}
