/**
 * Games and their move logs over SQLite (GamesStore). A game row is only ever
 * changed by `saveMoves`, which writes the new log, the counters the server's
 * replay gave and, on a win, the finish time, in one UPDATE statement (so in one
 * transaction: a crash leaves either the old row or the new one, never a log
 * without its finish), and only if nobody wrote the game since it was read
 * (`move_count` is the version).
 */
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BestTime, GameRow, GamesStore, GameSummary, NewGame } from './types.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gamesRepository: GamesStore;
  }
}

export function createGamesRepository(db: Database): GamesStore {
  const summary =
    'g.id, g.deal_id, g.status, g.result, g.move_count, g.tiles_left, g.hints, g.shuffles, g.undos, ' +
    'g.started_at, g.finished_at, d.layout, d.seed, d.mode';
  const insertPlayer = db.prepare<[string, number]>('INSERT OR IGNORE INTO players (id, created_at) VALUES (?, ?)');
  const insert = db.prepare<[NewGame]>(
    `INSERT INTO games (id, player_id, deal_id, status, tiles_left, started_at, updated_at)
     VALUES (@id, @playerId, @dealId, @status, @tilesLeft, @now, @now)`,
  );
  const byId = db.prepare<[string], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.updated_at FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?`,
  );
  const save = db.prepare<[Record<string, string | number>]>(
    `UPDATE games SET moves_json = @movesJson, move_count = @moveCount, status = @status, tiles_left = @tilesLeft,
       hints = @hints, shuffles = @shuffles, undos = @undos, updated_at = @now,
       result = CASE WHEN @won THEN 'won' END, finished_at = CASE WHEN @won THEN @now END
     WHERE id = @id AND move_count = @expectedCount AND result IS NULL`,
  );
  const latestUnfinished = db.prepare<[string], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  const unfinishedOfDeal = db.prepare<[string, number], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.updated_at FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.deal_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  const ofPlayer = db.prepare<[string], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? ORDER BY g.started_at, g.rowid`,
  );
  const bestTimes = db.prepare<[number, number], BestTime>(
    `SELECT g.player_id, p.nickname, MIN(g.finished_at - g.started_at) AS time_ms,
            g.hints, g.shuffles, g.undos, g.finished_at
     FROM games g JOIN players p ON p.id = g.player_id
     WHERE g.deal_id = ? AND g.result = 'won'
     GROUP BY g.player_id ORDER BY time_ms, g.finished_at LIMIT ?`,
  );
  const wonDeal = db.prepare<[string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND deal_id = ? AND result = 'won'`,
  );
  const wonAnyDaily = db.prepare<[string], { n: number }>(
    `SELECT COUNT(*) AS n FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.result = 'won' AND d.seed LIKE 'daily-%'`,
  );
  const createGame = db.transaction((game: NewGame) => {
    insertPlayer.run(game.playerId, game.now); // the player's first write makes their row
    insert.run(game);
  });
  return {
    async create(game) {
      createGame(game);
    },
    async findById(id) {
      return byId.get(id);
    },
    async saveMoves(saved) {
      return save.run({ ...saved, won: saved.won ? 1 : 0 }).changes === 1;
    },
    async latestUnfinished(playerId) {
      return latestUnfinished.get(playerId);
    },
    async unfinishedOfDeal(playerId, dealId) {
      return unfinishedOfDeal.get(playerId, dealId);
    },
    async ofPlayer(playerId) {
      return ofPlayer.all(playerId);
    },
    async bestTimes(dealId, limit) {
      return bestTimes.all(dealId, limit);
    },
    async hasWon(playerId, dealId) {
      return wonDeal.get(playerId, dealId)!.n > 0;
    },
    async hasWonDaily(playerId) {
      return wonAnyDaily.get(playerId)!.n > 0;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('gamesRepository', createGamesRepository(fastify.db));
  },
  { name: 'games-repository', dependencies: ['database'] },
);
