/**
 * Games and their move logs over PostgreSQL (GamesStore); see ../sqlite/games.ts for SQLite's, whose
 * aggregates (player_layouts, player_bands, player_days runs, players.best_streak, deal_records) this keeps the same way
 * in the same transactions.
 *
 * Implementation notes: `saveMoves` is one transaction whose first statement is the conditional UPDATE
 * (`move_count` is the version): of two processes writing one game, the second finds no row and writes
 * nothing. A win then locks its player's row before it touches the player's days and achievements, so two wins
 * of one player on two processes keep the runs of days right and award each achievement once, none lost. Reads that need one snapshot (statsOf) run in a
 * REPEATABLE READ transaction. `seq` stands in for SQLite's rowid (export pages, start order).
 */
import type pg from 'pg';
import { isCleanWin } from '../../../shared/display.ts';
import { transaction } from '../../db/postgres.ts';
import type { Band } from '../../../engine/index.ts';
import { earnedBy, needsLayouts } from '../achievements.ts';
import { shiftDay } from '../days.ts';
import type {
  BandTotals,
  BestTime,
  DailyResult,
  EarnedRow,
  ExportRow,
  GameRow,
  GamesStore,
  GameSummary,
  LayoutTotals,
  NewGame,
  SavedMoves,
  StatsRows,
  WinRow,
} from '../types.ts';

type Q = pg.Pool | pg.PoolClient;

const SUMMARY =
  'g.id, g.deal_id, g.status, g.result, g.move_count, g.tiles_left, g.hints, g.shuffles, g.undos, ' +
  'g.started_at, g.finished_at, g.shown_at, g.unranked, g.ranked_ms, g.daily, g.play_ms, g.own_ms, d.layout, d.seed, d.mode, g.band';
const FULL = `${SUMMARY}, g.player_id, g.moves_json, g.boards, g.updated_at, g.paced_at, g.checks, g.checks_no`;
const ACHIEVEMENTS = `SELECT a.achievement, a.game_id, a.earned_at, d.layout, d.seed, d.mode
  FROM achievements a JOIN games g ON g.id = a.game_id JOIN deals d ON d.id = g.deal_id
  WHERE a.player_id = $1 ORDER BY a.earned_at, a.achievement COLLATE "C"`;

interface DayRow {
  wins: number;
  run: number;
  daily: number;
  daily_run: number;
}

const one = async <T extends pg.QueryResultRow>(q: Q, sql: string, params: unknown[]): Promise<T | undefined> =>
  (await q.query<T>(sql, params)).rows[0];
const all = async <T extends pg.QueryResultRow>(q: Q, sql: string, params: unknown[]): Promise<T[]> =>
  (await q.query<T>(sql, params)).rows;

export function createPgGamesRepository(pool: pg.Pool): GamesStore {
  const dayRow = (q: Q, player: string, day: string) =>
    one<DayRow>(q, 'SELECT wins, run, daily, daily_run FROM player_days WHERE player_id = $1 AND day = $2', [
      player,
      day,
    ]);
  const totals = (q: Q, playerId: string) =>
    all<Omit<LayoutTotals, 'median_ms'>>(
      q,
      'SELECT layout, played, won, clean_wins, best_ms FROM player_layouts WHERE player_id = $1 ORDER BY layout COLLATE "C"',
      [playerId],
    );
  const winsOfDeal = async (q: Q, playerId: string, dealId: number): Promise<number> =>
    (await one<{ n: number }>(
      q,
      `SELECT COUNT(*) AS n FROM games WHERE player_id = $1 AND deal_id = $2 AND result = 'won'`,
      [playerId, dealId],
    ))!.n;

  /** As SQLite's markDay: marks runs of days in a row ending on `day` and the days after it; returns the last run set. */
  async function markDay(q: Q, player: string, day: string, kind: 'run' | 'daily_run'): Promise<number> {
    const on = (row: DayRow | undefined): boolean =>
      row !== undefined && (kind === 'run' ? row.wins > 0 : row.daily === 1);
    const before = await dayRow(q, player, shiftDay(day, -1));
    let run = on(before) ? before![kind] + 1 : 1;
    for (let d = day; ; d = shiftDay(d, 1)) {
      await q.query(`UPDATE player_days SET ${kind} = $1 WHERE player_id = $2 AND day = $3`, [run, player, d]);
      const next = await dayRow(q, player, shiftDay(d, 1));
      if (!on(next) || next![kind] === run + 1) break;
      run += 1;
    }
    return run;
  }

  /**
   * The achievements a win earns (repositories/achievements.ts), read and written in the win's transaction
   * after its player's row is locked: a second win of the player on another process waits and then sees these.
   */
  async function awardAchievements(q: Q, saved: SavedMoves, player: string, clean: boolean): Promise<void> {
    const held = new Set(
      (
        await all<{ achievement: string }>(q, 'SELECT achievement FROM achievements WHERE player_id = $1', [player])
      ).map((row) => row.achievement),
    );
    const facts = (await one<{
      mode: 'relaxed' | 'classic';
      band: Band | null;
      wins: number;
      clean: number;
      best_streak: number;
      best_daily_streak: number;
    }>(
      q,
      `SELECT (SELECT d.mode FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = $2) AS mode,
              (SELECT band FROM games WHERE id = $2) AS band,
              (SELECT COALESCE(SUM(won), 0) FROM player_layouts WHERE player_id = $1)::integer AS wins,
              (SELECT COALESCE(SUM(clean_wins), 0) FROM player_layouts WHERE player_id = $1)::integer AS clean,
              best_streak, best_daily_streak
       FROM players WHERE id = $1`,
      [player, saved.id],
    ))!;
    const layoutsWon = needsLayouts(held)
      ? (
          await all<{ layout: string }>(
            q,
            `SELECT layout FROM player_layouts WHERE player_id = $1 AND won > 0 AND layout NOT LIKE 'c-%'`,
            [player],
          )
        ).map((row) => row.layout)
      : [];
    const earned = earnedBy(
      held,
      { mode: facts.mode, hints: saved.hints, clean, band: facts.band },
      {
        wins: facts.wins,
        cleanWins: facts.clean,
        layoutsWon,
        bestStreak: facts.best_streak,
        bestDailyStreak: facts.best_daily_streak,
      },
    );
    for (const id of earned)
      await q.query(
        `INSERT INTO achievements (player_id, achievement, game_id, earned_at) VALUES ($1, $2, $3, $4)
         ON CONFLICT DO NOTHING`,
        [player, id, saved.id, saved.now],
      );
  }

  const currentRun = async (q: Q, playerId: string, today: string, yesterday: string, kind: 'run' | 'daily_run') =>
    (await dayRow(q, playerId, today))?.[kind] || (await dayRow(q, playerId, yesterday))?.[kind] || 0;

  return {
    async create(game: NewGame) {
      await transaction(pool, async (client) => {
        await client.query('INSERT INTO players (id, created_at) VALUES ($1, $2) ON CONFLICT (id) DO NOTHING', [
          game.playerId,
          game.now,
        ]);
        await client.query(
          `INSERT INTO games (id, player_id, deal_id, layout, status, tiles_left, started_at, updated_at, shown_at, paced_at, band)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $7, $8, $9, $10)`,
          [
            game.id,
            game.playerId,
            game.dealId,
            game.layout,
            game.status,
            game.tilesLeft,
            game.now,
            game.shownAt,
            game.pacedAt,
            game.band,
          ],
        );
        if (game.band !== null)
          await client.query(
            `INSERT INTO player_bands (player_id, band, played) VALUES ($1, $2, 1)
             ON CONFLICT (player_id, band) DO UPDATE SET played = player_bands.played + 1`,
            [game.playerId, game.band],
          );
        await client.query(
          `INSERT INTO player_layouts (player_id, layout, played) VALUES ($1, $2, 1)
           ON CONFLICT (player_id, layout) DO UPDATE SET played = player_layouts.played + 1`,
          [game.playerId, game.layout],
        );
      });
    },
    async findById(id) {
      return one<GameRow>(pool, `SELECT ${FULL} FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = $1`, [id]);
    },
    async saveMoves(saved: SavedMoves) {
      return transaction(pool, async (client) => {
        const key = await one<{
          player_id: string;
          deal_id: number;
          layout: string;
          own_ms: number;
          band: string | null;
        }>(
          client,
          `UPDATE games SET moves_json = $2, boards = $3, move_count = $4, status = $5, tiles_left = $6,
             hints = $7, shuffles = $8, undos = $9, updated_at = $10, paced_at = $11, unranked = $12,
             result = CASE WHEN $13::boolean THEN 'won' END, finished_at = CASE WHEN $13::boolean THEN $10::bigint END,
             ranked_ms = $14, daily = $15, checks = $17, checks_no = $18,
             play_ms = CASE WHEN $19::bigint IS NULL THEN play_ms ELSE GREATEST(COALESCE(play_ms, 0), $19::bigint) END
           WHERE id = $1 AND move_count = $16 AND result IS NULL
           RETURNING player_id, deal_id, layout, own_ms, band`,
          [
            saved.id,
            saved.movesJson,
            saved.boards,
            saved.moveCount,
            saved.status,
            saved.tilesLeft,
            saved.hints,
            saved.shuffles,
            saved.undos,
            saved.now,
            saved.pacedAt,
            saved.unranked,
            saved.won,
            saved.rankedMs,
            saved.onTable ? 1 : 0,
            saved.expectedCount,
            saved.checks,
            saved.checksNo,
            saved.playMs,
          ],
        );
        if (!key) return false;
        if (saved.won) {
          const player = key.player_id;
          await client.query('SELECT 1 FROM players WHERE id = $1 FOR UPDATE', [player]); // one win of a player at a time
          const clean = isCleanWin(saved) ? 1 : 0;
          await client.query(
            `UPDATE player_layouts SET won = won + 1, clean_wins = clean_wins + $3,
               best_ms = CASE WHEN best_ms IS NULL OR $4 < best_ms THEN $4 ELSE best_ms END
             WHERE player_id = $1 AND layout = $2`,
            [player, key.layout, clean, key.own_ms],
          );
          if (key.band !== null)
            await client.query(
              'UPDATE player_bands SET won = won + 1, clean_wins = clean_wins + $3 WHERE player_id = $1 AND band = $2',
              [player, key.band, clean],
            ); // a game begun with a band
          if ((await winsOfDeal(client, player, key.deal_id)) === 1)
            await client.query(
              `INSERT INTO deal_records (deal_id, won) VALUES ($1, 1)
               ON CONFLICT (deal_id) DO UPDATE SET won = deal_records.won + 1`,
              [key.deal_id],
            ); // the player's first win of it
          const today = new Date(saved.now).toISOString().slice(0, 10);
          const first = ((await dayRow(client, player, today))?.wins ?? 0) === 0;
          await client.query(
            `INSERT INTO player_days (player_id, day, wins) VALUES ($1, $2, 1)
             ON CONFLICT (player_id, day) DO UPDATE SET wins = player_days.wins + 1`,
            [player, today],
          );
          if (first)
            await client.query('UPDATE players SET best_streak = GREATEST(best_streak, $1) WHERE id = $2', [
              await markDay(client, player, today, 'run'),
              player,
            ]);
          if (saved.dailyDay !== null && (await dayRow(client, player, saved.dailyDay))?.daily !== 1) {
            await client.query(
              `INSERT INTO player_days (player_id, day, daily) VALUES ($1, $2, 1)
               ON CONFLICT (player_id, day) DO UPDATE SET daily = 1`,
              [player, saved.dailyDay],
            );
            await client.query('UPDATE players SET best_daily_streak = GREATEST(best_daily_streak, $1) WHERE id = $2', [
              await markDay(client, player, saved.dailyDay, 'daily_run'),
              player,
            ]);
          }
          await awardAchievements(client, saved, player, clean === 1);
        }
        return true;
      });
    },
    async countStartedSince(playerId, since) {
      return (await one<{ n: number }>(
        pool,
        'SELECT COUNT(*) AS n FROM games WHERE player_id = $1 AND started_at >= $2',
        [playerId, since],
      ))!.n;
    },
    async latestUnfinished(playerId) {
      return one<GameSummary>(
        pool,
        `SELECT ${SUMMARY} FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = $1 AND g.result IS NULL ORDER BY g.started_at DESC, g.seq DESC LIMIT 1`,
        [playerId],
      );
    },
    async unfinishedOfDeal(playerId, dealId) {
      return one<GameRow>(
        pool,
        `SELECT ${FULL} FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = $1 AND g.deal_id = $2 AND g.result IS NULL ORDER BY g.started_at DESC, g.seq DESC LIMIT 1`,
        [playerId, dealId],
      );
    },
    async statsOf(playerId, q): Promise<StatsRows> {
      return transaction(
        pool,
        async (client) => {
          const layouts: LayoutTotals[] = [];
          for (const t of await totals(client, playerId)) {
            if (t.won === 0) {
              layouts.push({ ...t, median_ms: null });
              continue;
            }
            const mid = (
              await all<{ t: number }>(
                client,
                `SELECT own_ms AS t FROM games WHERE player_id = $1 AND layout = $2 AND result = 'won'
                 ORDER BY own_ms LIMIT $3 OFFSET $4`,
                [playerId, t.layout, t.won % 2 === 1 ? 1 : 2, (t.won - 1) >> 1],
              )
            ).map((row) => row.t);
            layouts.push({ ...t, median_ms: mid.reduce((a, b) => a + b, 0) / mid.length });
          }
          const best = await one<{ best_streak: number; best_daily_streak: number }>(
            client,
            'SELECT best_streak, best_daily_streak FROM players WHERE id = $1',
            [playerId],
          );
          return {
            layouts,
            bands: await all<BandTotals>(
              client,
              `SELECT band, played, won, clean_wins FROM player_bands WHERE player_id = $1
               ORDER BY CASE band WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 WHEN 'hard' THEN 2 ELSE 3 END`,
              [playerId],
            ),
            streak: await currentRun(client, playerId, q.today, q.yesterday, 'run'),
            bestStreak: best?.best_streak ?? 0,
            dailyStreak: await currentRun(client, playerId, q.today, q.yesterday, 'daily_run'),
            history: await all<GameSummary>(
              client,
              `SELECT ${SUMMARY} FROM games g JOIN deals d ON d.id = g.deal_id
               WHERE g.player_id = $1 ORDER BY g.started_at DESC, g.seq DESC LIMIT $2 OFFSET $3`,
              [playerId, q.historyLimit, q.historyOffset],
            ),
            achievements: await all<EarnedRow>(client, ACHIEVEMENTS, [playerId]),
            bestDailyStreak: best?.best_daily_streak ?? 0,
            wins: await all<WinRow>(
              client,
              `SELECT layout, finished_at, own_ms AS time_ms, (hints = 0 AND shuffles = 0 AND undos = 0)::integer AS clean
               FROM games WHERE player_id = $1 AND result = 'won' ORDER BY finished_at DESC LIMIT $2`,
              [playerId, q.winsLimit],
            ),
          };
        },
        'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY',
      );
    },
    async recordView(playerId, dealId, at) {
      return transaction(pool, async (client) => {
        const inserted = await client.query(
          'INSERT INTO deal_views (player_id, deal_id, shown_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
          [playerId, dealId, at],
        );
        if (inserted.rowCount === 1) {
          await client.query(
            `INSERT INTO deal_records (deal_id, opened) VALUES ($1, 1)
             ON CONFLICT (deal_id) DO UPDATE SET opened = deal_records.opened + 1`,
            [dealId],
          );
          return at;
        }
        // Moved back only when it is earlier (an UPDATE that changes nothing still writes a row version here).
        const earlier = await one<{ shown_at: number }>(
          client,
          'UPDATE deal_views SET shown_at = $3 WHERE player_id = $1 AND deal_id = $2 AND shown_at > $3 RETURNING shown_at',
          [playerId, dealId, at],
        );
        if (earlier) return earlier.shown_at;
        return (await one<{ shown_at: number }>(
          client,
          'SELECT shown_at FROM deal_views WHERE player_id = $1 AND deal_id = $2',
          [playerId, dealId],
        ))!.shown_at;
      });
    },
    async findView(playerId, dealId) {
      return (
        await one<{ shown_at: number }>(pool, 'SELECT shown_at FROM deal_views WHERE player_id = $1 AND deal_id = $2', [
          playerId,
          dealId,
        ])
      )?.shown_at;
    },
    async dealRecord(dealId) {
      return (
        (await one<{ opened: number; won: number }>(pool, 'SELECT opened, won FROM deal_records WHERE deal_id = $1', [
          dealId,
        ])) ?? { opened: 0, won: 0 }
      );
    },
    async bestTimes(dealId, limit, dailyOnly = false) {
      // One entry per player, fastest first: ranked wins read in pages until `limit` players are found.
      const best: BestTime[] = [];
      const seen = new Set<string>();
      const page = limit * 4;
      for (let offset = 0; best.length < limit; offset += page) {
        const rows = await all<BestTime>(
          pool,
          `SELECT g.player_id, p.nickname, g.ranked_ms AS time_ms, g.hints, g.shuffles, g.undos, g.finished_at
           FROM games g JOIN players p ON p.id = g.player_id
           WHERE g.deal_id = $1 AND g.ranked_ms IS NOT NULL AND g.daily >= $2
           ORDER BY g.ranked_ms, g.finished_at, g.seq LIMIT $3 OFFSET $4`,
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
      const row = await one<{ n: number }>(
        pool,
        `SELECT COUNT(DISTINCT player_id) AS n FROM games
         WHERE deal_id = $1 AND ranked_ms IS NOT NULL AND daily = 1 AND player_id <> $3
           AND ranked_ms < LEAST($2::bigint, (SELECT MIN(ranked_ms) FROM games WHERE deal_id = $1 AND daily = 1 AND player_id = $3))`,
        [dealId, timeMs, playerId],
      );
      return row!.n + 1;
    },
    async dailyResults(playerId, mode, fromSeed, toSeed) {
      // On its day: the game started on the UTC day the seed names (SQLite compares with unixepoch of it).
      const rows = await all<{ layout: string; seed: string; on_day: boolean; clean: boolean }>(
        pool,
        `SELECT d.layout, d.seed,
                bool_or(to_char(to_timestamp(g.started_at / 1000.0) AT TIME ZONE 'UTC', 'YYYY-MM-DD') = substr(d.seed, 7)) AS on_day,
                bool_or(g.hints = 0 AND g.shuffles = 0 AND g.undos = 0) AS clean
         FROM deals d JOIN games g ON g.deal_id = d.id AND g.player_id = $1
         WHERE d.mode = $2 AND d.seed COLLATE "C" >= $3 AND d.seed COLLATE "C" <= $4 AND g.result = 'won'
         GROUP BY d.layout, d.seed ORDER BY d.seed COLLATE "C", d.layout COLLATE "C"`,
        [playerId, mode, fromSeed, toSeed],
      );
      return rows.map((row): DailyResult => ({
        layout: row.layout,
        day: row.seed.slice(-10),
        onDay: row.on_day,
        clean: row.clean,
      }));
    },
    async dailyStreak(playerId, today, yesterday) {
      return currentRun(pool, playerId, today, yesterday, 'daily_run');
    },
    async hasDailyWin(playerId) {
      return (
        (await one(pool, 'SELECT 1 FROM games WHERE player_id = $1 AND daily = 1 LIMIT 1', [playerId])) !== undefined
      );
    },
    async exportPage(playerId, after, limit) {
      return all<ExportRow>(
        pool,
        `SELECT ${SUMMARY}, g.seq AS rowid FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = $1 AND g.seq > $2 ORDER BY g.seq LIMIT $3`,
        [playerId, after, limit],
      );
    },
    async layoutTotals(playerId) {
      return (await totals(pool, playerId)).map((t) => ({ ...t, median_ms: null }));
    },
    async bestWinTime(playerId, layout, mode, exceptGameId) {
      return (await one<{ best: number | null }>(
        pool,
        `SELECT MIN(g.own_ms) AS best FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = $1 AND g.layout = $2 AND g.result = 'won' AND d.mode = $3 AND g.id <> $4`,
        [playerId, layout, mode, exceptGameId],
      ))!.best;
    },
    async hasWon(playerId, dealId) {
      return (await winsOfDeal(pool, playerId, dealId)) > 0;
    },
    async achievementsOf(playerId) {
      return all<EarnedRow>(pool, ACHIEVEMENTS, [playerId]);
    },
  };
}
