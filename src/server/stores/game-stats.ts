/**
 * The reads of games for stats, records and tables (games.ts has the writes). They read aggregates and indexes,
 * so the cost does not grow with a player's games (docs/storage.md, "Stats reads").
 */
import type { Sql } from '../db/sql.ts';
import { dayRow } from './bookkeeping.ts';
import type {
  BandTotals,
  BestTime,
  DailyResult,
  EarnedRow,
  GamesStore,
  GameSummary,
  LayoutTotals,
  StatsRows,
  WinRow,
} from './types.ts';

export const SUMMARY =
  'g.id, g.deal_id, g.status, g.result, g.move_count, g.tiles_left, g.hints, g.shuffles, g.undos, ' +
  'g.started_at, g.finished_at, g.shown_at, g.unranked, g.ranked_ms, g.daily, g.play_ms, g.own_ms, d.layout, d.seed, d.mode, g.band, g.play_on_from';
export const FULL = `${SUMMARY}, g.player_id, g.moves_json, g.boards, g.updated_at, g.paced_at, g.checks, g.checks_no`;

const CLEAN = 'CASE WHEN g.hints = 0 AND g.shuffles = 0 AND g.undos = 0 THEN 1 ELSE 0 END';

type StatsReads = Pick<
  GamesStore,
  | 'statsOf'
  | 'dealRecord'
  | 'bestTimes'
  | 'dailyRank'
  | 'dailyResults'
  | 'dailyStreak'
  | 'hasDailyWin'
  | 'layoutTotals'
  | 'achievementsOf'
>;

export function createGameStats(sql: Sql): StatsReads {
  const d = sql.dialect;
  const achievements = `SELECT a.achievement, a.game_id, a.earned_at, d.layout, d.seed, d.mode
    FROM achievements a JOIN games g ON g.id = a.game_id JOIN deals d ON d.id = g.deal_id
    WHERE a.player_id = ? ORDER BY a.earned_at, a.achievement${d.binary}`;
  const totals = (q: Sql, playerId: string) =>
    q.all<Omit<LayoutTotals, 'median_ms'>>(
      `SELECT layout, played, won, clean_wins, best_ms FROM player_layouts WHERE player_id = ? ORDER BY layout${d.binary}`,
      [playerId],
    );
  /** The run of days that still counts: one ending today or yesterday. */
  const currentRun = async (q: Sql, playerId: string, today: string, yesterday: string, kind: 'run' | 'daily_run') =>
    (await dayRow(q, playerId, today))?.[kind] || (await dayRow(q, playerId, yesterday))?.[kind] || 0;

  return {
    async statsOf(playerId, query): Promise<StatsRows> {
      return sql.transaction(async (tx) => {
        const layouts: LayoutTotals[] = [];
        for (const t of await totals(tx, playerId)) {
          if (t.won === 0) {
            layouts.push({ ...t, median_ms: null });
            continue;
          }
          const mid = (
            await tx.all<{ t: number }>(
              `SELECT own_ms AS t FROM games WHERE player_id = ? AND layout = ? AND result = 'won'
               ORDER BY own_ms LIMIT ? OFFSET ?`,
              [playerId, t.layout, t.won % 2 === 1 ? 1 : 2, (t.won - 1) >> 1],
            )
          ).map((row) => row.t);
          // No row at the offset (wins whose games are gone): no median.
          layouts.push({ ...t, median_ms: mid.length ? mid.reduce((a, b) => a + b, 0) / mid.length : null });
        }
        const best = await tx.one<{ best_streak: number; best_daily_streak: number }>(
          'SELECT best_streak, best_daily_streak FROM players WHERE id = ?',
          [playerId],
        );
        return {
          layouts,
          bands: await tx.all<BandTotals>(
            `SELECT band, played, won, clean_wins FROM player_bands WHERE player_id = ?
             ORDER BY CASE band WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 WHEN 'hard' THEN 2 ELSE 3 END`,
            [playerId],
          ),
          streak: await currentRun(tx, playerId, query.today, query.yesterday, 'run'),
          bestStreak: best?.best_streak ?? 0,
          dailyStreak: await currentRun(tx, playerId, query.today, query.yesterday, 'daily_run'),
          history: await tx.all<GameSummary>(
            `SELECT ${SUMMARY} FROM games g JOIN deals d ON d.id = g.deal_id
             WHERE g.player_id = ? ORDER BY g.started_at DESC, g.${d.rowid} DESC LIMIT ? OFFSET ?`,
            [playerId, query.historyLimit, query.historyOffset],
          ),
          wins: await tx.all<WinRow>(
            `SELECT g.layout, g.finished_at, g.own_ms AS time_ms, ${CLEAN} AS clean
             FROM games g WHERE g.player_id = ? AND g.result = 'won' ORDER BY g.finished_at DESC LIMIT ?`,
            [playerId, query.winsLimit],
          ),
          achievements: await tx.all<EarnedRow>(achievements, [playerId]),
          bestDailyStreak: best?.best_daily_streak ?? 0,
        };
      }, 'snapshot');
    },
    async dealRecord(dealId) {
      return (
        (await sql.one<{ opened: number; won: number }>('SELECT opened, won FROM deal_records WHERE deal_id = ?', [
          dealId,
        ])) ?? { opened: 0, won: 0 }
      );
    },
    async bestTimes(dealId, limit, dailyOnly = false) {
      // Fastest first, one per player: ranked wins read in pages until `limit` players are found.
      const best: BestTime[] = [];
      const seen = new Set<string>();
      const page = limit * 4;
      for (let offset = 0; best.length < limit; offset += page) {
        const rows = await sql.all<BestTime>(
          `SELECT g.player_id, p.nickname, g.ranked_ms AS time_ms, g.hints, g.shuffles, g.undos, g.finished_at
           FROM games g JOIN players p ON p.id = g.player_id
           WHERE g.deal_id = ? AND g.ranked_ms IS NOT NULL AND g.daily >= ?
           ORDER BY g.ranked_ms, g.finished_at, g.${d.rowid} LIMIT ? OFFSET ?`,
          [dealId, dailyOnly ? 1 : 0, page, offset],
        );
        for (const row of rows) {
          if (seen.has(row.player_id)) continue;
          seen.add(row.player_id);
          best.push(row);
          if (best.length === limit) break;
        }
        if (rows.length < page) break;
      }
      return best;
    },
    async dailyRank(dealId, playerId, timeMs) {
      const row = await sql.one<{ n: number }>(
        `SELECT COUNT(DISTINCT player_id) AS n FROM games
         WHERE deal_id = ? AND ranked_ms IS NOT NULL AND daily = 1 AND player_id <> ? AND ranked_ms < ?
           AND ranked_ms < COALESCE((SELECT MIN(ranked_ms) FROM games WHERE deal_id = ? AND daily = 1 AND player_id = ?), ?)`,
        [dealId, playerId, timeMs, dealId, playerId, timeMs],
      );
      return row!.n + 1;
    },
    async dailyResults(playerId, mode, fromSeed, toSeed) {
      // On its day: started on the UTC day the seed names.
      const rows = await sql.all<{ layout: string; seed: string; on_day: number; clean: number }>(
        `SELECT d.layout, d.seed,
                MAX(CASE WHEN ${d.utcDay('g.started_at')} = substr(d.seed, 7) THEN 1 ELSE 0 END) AS on_day,
                MAX(${CLEAN}) AS clean
         FROM deals d JOIN games g ON g.deal_id = d.id AND g.player_id = ?
         WHERE d.mode = ? AND d.seed${d.binary} >= ? AND d.seed${d.binary} <= ? AND g.result = 'won'
         GROUP BY d.layout, d.seed ORDER BY d.seed${d.binary}, d.layout${d.binary}`,
        [playerId, mode, fromSeed, toSeed],
      );
      return rows.map((row): DailyResult => ({
        layout: row.layout,
        day: row.seed.slice(-10),
        onDay: row.on_day === 1,
        clean: row.clean === 1,
      }));
    },
    async dailyStreak(playerId, today, yesterday) {
      return currentRun(sql, playerId, today, yesterday, 'daily_run');
    },
    async hasDailyWin(playerId) {
      return (
        (await sql.one('SELECT 1 AS won FROM games WHERE player_id = ? AND daily = 1 LIMIT 1', [playerId])) !==
        undefined
      );
    },
    async layoutTotals(playerId) {
      return (await totals(sql, playerId)).map((t) => ({ ...t, median_ms: null }));
    },
    async achievementsOf(playerId) {
      return sql.all<EarnedRow>(achievements, [playerId]);
    },
  };
}
