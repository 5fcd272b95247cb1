/**
 * Games and their move logs. A game row is only ever changed by `saveMoves`,
 * which writes the new log, the counters the server's replay gave and, on a win,
 * the finish time, in one statement (so in one transaction), and only if nobody
 * wrote the game since it was read (`move_count` is the version).
 */
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Mode, Status } from '../../engine/index.ts';

declare module 'fastify' {
  interface FastifyInstance {
    gamesRepository: ReturnType<typeof createGamesRepository>;
  }
}

export interface GameRow {
  id: string;
  player_id: string;
  deal_id: number;
  status: Status;
  result: 'won' | null; // null while unfinished
  moves_json: string;
  move_count: number;
  tiles_left: number;
  hints: number;
  shuffles: number;
  undos: number;
  started_at: number; // ms epoch, server clock
  updated_at: number;
  finished_at: number | null;
  layout: string; // from the deal
  seed: string;
  mode: Mode;
}

/** What stats need of a game: no move log. */
export type GameSummary = Omit<GameRow, 'moves_json' | 'player_id' | 'updated_at'>;

export interface NewGame {
  id: string;
  playerId: string;
  dealId: number;
  status: Status;
  tilesLeft: number;
  now: number;
}

export interface SavedMoves {
  id: string;
  expectedCount: number; // move_count read before the replay
  movesJson: string;
  moveCount: number;
  status: Status;
  tilesLeft: number;
  hints: number;
  shuffles: number;
  undos: number;
  now: number;
  won: boolean; // the replay cleared the board: finish the game now
}

export interface BestTime {
  player_id: string;
  nickname: string | null;
  time_ms: number; // finished_at - started_at
  hints: number;
  shuffles: number;
  undos: number;
  finished_at: number;
}

export function createGamesRepository(fastify: FastifyInstance) {
  const db = fastify.db;
  const summary =
    'g.id, g.deal_id, g.status, g.result, g.move_count, g.tiles_left, g.hints, g.shuffles, g.undos, ' +
    'g.started_at, g.finished_at, d.layout, d.seed, d.mode';
  const insert = db.prepare(
    `INSERT INTO games (id, player_id, deal_id, status, tiles_left, started_at, updated_at)
     VALUES (@id, @playerId, @dealId, @status, @tilesLeft, @now, @now)`,
  );
  const byId = db.prepare<[string], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.updated_at FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?`,
  );
  const save = db.prepare(
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
  return {
    create(game: NewGame): void {
      insert.run(game);
    },
    findById(id: string): GameRow | undefined {
      return byId.get(id);
    },
    /** Writes a replayed move log; false when the game changed since it was read (or is finished). */
    saveMoves(saved: SavedMoves): boolean {
      return save.run({ ...saved, won: saved.won ? 1 : 0 }).changes === 1;
    },
    latestUnfinished(playerId: string): GameSummary | undefined {
      return latestUnfinished.get(playerId);
    },
    unfinishedOfDeal(playerId: string, dealId: number): GameRow | undefined {
      return unfinishedOfDeal.get(playerId, dealId);
    },
    /** All of a player's games, oldest first, without move logs. */
    ofPlayer(playerId: string): GameSummary[] {
      return ofPlayer.all(playerId);
    },
    /** Best verified time of each player who cleared a deal, fastest first. */
    bestTimes(dealId: number, limit: number): BestTime[] {
      return bestTimes.all(dealId, limit);
    },
    hasWon(playerId: string, dealId: number): boolean {
      return wonDeal.get(playerId, dealId)!.n > 0;
    },
    hasWonDaily(playerId: string): boolean {
      return wonAnyDaily.get(playerId)!.n > 0;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('gamesRepository', createGamesRepository(fastify));
  },
  { name: 'games-repository', dependencies: ['database', 'players-repository', 'deals-repository'] },
);
