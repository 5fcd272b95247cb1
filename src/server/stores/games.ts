/**
 * Games and their move logs (GamesStore); the reads are in game-stats.ts. A row changes only through
 * `saveMoves`, a versioned conditional UPDATE (docs/storage.md, "Wins and bookkeeping"); clocks: docs/fair-play.md.
 */
import type { Sql } from '../db/sql.ts';
import { recordStart, recordWin, winsOfDeal, type WonGame } from './bookkeeping.ts';
import { createGameStats, FULL, SUMMARY } from './game-stats.ts';
import type { GameRow, GamesStore, GameSummary } from './types.ts';

export function createGamesStore(sql: Sql): GamesStore {
  const d = sql.dialect;
  const FIRST_SHOWN = 'SELECT shown_at FROM first_shown WHERE player_id = ? AND deal_id = ?';
  return {
    ...createGameStats(sql),
    async create(game) {
      await sql.transaction(async (tx) => {
        await tx.run('INSERT INTO players (id, created_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING', [
          game.playerId,
          game.now,
        ]);
        await tx.run(
          `INSERT INTO games (id, player_id, deal_id, layout, band, status, tiles_left, started_at, updated_at, shown_at, paced_at)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [
            game.id,
            game.playerId,
            game.dealId,
            game.layout,
            game.band,
            game.status,
            game.tilesLeft,
            game.now,
            game.now,
            game.shownAt,
            game.pacedAt,
          ],
        );
        await recordStart(tx, game);
      });
    },
    async findById(id) {
      return sql.one<GameRow>(`SELECT ${FULL} FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?`, [id]);
    },
    async saveMoves(saved) {
      return sql.transaction(async (tx) => {
        const won = saved.won ? 1 : 0;
        const game = await tx.one<WonGame>(
          `UPDATE games SET moves_json = ?, boards = ?, move_count = ?, status = ?, tiles_left = ?, hints = ?,
             checks = ?, checks_no = ?, shuffles = ?, undos = ?, updated_at = ?, paced_at = ?, unranked = ?,
             play_ms = CASE WHEN CAST(? AS BIGINT) IS NULL THEN play_ms
                            ELSE ${d.greatest('COALESCE(play_ms, 0)', 'CAST(? AS BIGINT)')} END,
             result = CASE WHEN ? = 1 THEN 'won' END, finished_at = CASE WHEN ? = 1 THEN CAST(? AS BIGINT) END,
             ranked_ms = ?, daily = ?, play_on_from = COALESCE(CAST(? AS BIGINT), play_on_from)
           WHERE id = ? AND move_count = ? AND result IS NULL
           RETURNING player_id, deal_id, layout, own_ms, band`,
          [
            saved.movesJson,
            saved.boards,
            saved.moveCount,
            saved.status,
            saved.tilesLeft,
            saved.hints,
            saved.checks,
            saved.checksNo,
            saved.shuffles,
            saved.undos,
            saved.now,
            saved.pacedAt,
            saved.unranked,
            saved.playMs,
            saved.playMs,
            won,
            won,
            saved.now,
            saved.rankedMs,
            saved.onTable ? 1 : 0,
            saved.playOnFrom ?? null,
            saved.id,
            saved.expectedCount,
          ],
        );
        if (!game) return false;
        if (saved.won) await recordWin(tx, saved, game);
        return true;
      });
    },
    async countStartedSince(playerId, since) {
      return (await sql.one<{ n: number }>('SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND started_at >= ?', [
        playerId,
        since,
      ]))!.n;
    },
    async latestUnfinished(playerId) {
      return sql.one<GameSummary>(
        `SELECT ${SUMMARY} FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.${d.rowid} DESC LIMIT 1`,
        [playerId],
      );
    },
    async unfinishedOfDeal(playerId, dealId) {
      return sql.one<GameRow>(
        `SELECT ${FULL} FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = ? AND g.deal_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.${d.rowid} DESC LIMIT 1`,
        [playerId, dealId],
      );
    },
    async recordFirstShown(playerId, dealId, at) {
      return sql.transaction(async (tx) => {
        const inserted = await tx.run(
          'INSERT INTO first_shown (player_id, deal_id, shown_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING',
          [playerId, dealId, at],
        );
        if (inserted === 1) {
          await tx.run(
            `INSERT INTO deal_records (deal_id, opened) VALUES (?, 1)
             ON CONFLICT (deal_id) DO UPDATE SET opened = deal_records.opened + 1`,
            [dealId],
          );
          return at;
        }
        // Only when earlier: a no-op UPDATE still writes a row version on PostgreSQL.
        const earlier = await tx.one<{ shown_at: number }>(
          'UPDATE first_shown SET shown_at = ? WHERE player_id = ? AND deal_id = ? AND shown_at > ? RETURNING shown_at',
          [at, playerId, dealId, at],
        );
        return earlier?.shown_at ?? (await tx.one<{ shown_at: number }>(FIRST_SHOWN, [playerId, dealId]))!.shown_at;
      });
    },
    async findFirstShown(playerId, dealId) {
      return (await sql.one<{ shown_at: number }>(FIRST_SHOWN, [playerId, dealId]))?.shown_at;
    },
    async exportPage(playerId, after, limit) {
      return sql.all(
        `SELECT ${SUMMARY}, g.${d.rowid} AS rowid FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = ? AND g.${d.rowid} > ? ORDER BY g.${d.rowid} LIMIT ?`,
        [playerId, after, limit],
      );
    },
    async hasWon(playerId, dealId) {
      return (await winsOfDeal(sql, playerId, dealId)) > 0;
    },
    async bestWinTime(playerId, layout, mode, exceptGameId) {
      return (await sql.one<{ best: number | null }>(
        `SELECT MIN(g.own_ms) AS best FROM games g JOIN deals d ON d.id = g.deal_id
         WHERE g.player_id = ? AND g.layout = ? AND g.result = 'won' AND d.mode = ? AND g.id <> ?`,
        [playerId, layout, mode, exceptGameId],
      ))!.best;
    },
  };
}
