/**
 * Games and their move logs over SQLite (GamesStore). A game row is only ever
 * changed by `saveMoves`, which writes the new log, the counters the server's
 * replay gave and, on a win, the finish time, in one UPDATE statement (so in one
 * transaction: a crash leaves either the old row or the new one, never a log
 * without its finish), and only if nobody wrote the game since it was read
 * (`move_count` is the version).
 *
 * Stats come from aggregates kept in the same transactions (migrations/002): `player_layouts`
 * (played with a start; won, clean wins and best time with a win) and `players.best_streak`
 * (raised when a win joins runs of wins). Medians and the current streak are a few index lookups.
 */
import type { Database } from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { BestTime, GameRow, GamesStore, GameSummary, LayoutTotals, NewGame, SavedMoves, StatsRows, WinRow } from './types.ts';

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
    `INSERT INTO games (id, player_id, deal_id, layout, status, tiles_left, started_at, updated_at)
     VALUES (@id, @playerId, @dealId, @layout, @status, @tilesLeft, @now, @now)`,
  );
  const countStart = db.prepare<[string, string]>(
    `INSERT INTO player_layouts (player_id, layout, played) VALUES (?, ?, 1)
     ON CONFLICT (player_id, layout) DO UPDATE SET played = played + 1`,
  );
  const countWin = db.prepare<[{ player: string; layout: string; time: number; clean: number }]>(
    `UPDATE player_layouts SET won = won + 1, clean_wins = clean_wins + @clean,
       best_ms = CASE WHEN best_ms IS NULL OR @time < best_ms THEN @time ELSE best_ms END
     WHERE player_id = @player AND layout = @layout`,
  );
  const gameKey = db.prepare<[string], { player_id: string; layout: string; started_at: number; rowid: number; finished_at: number }>(
    'SELECT player_id, layout, started_at, rowid, finished_at FROM games WHERE id = ?',
  );
  // The run of wins a game is in: the wins between the nearest non-won games before and after it.
  const breakBefore = db.prepare<[string, number, number], { s: number; r: number }>(
    `SELECT started_at AS s, rowid AS r FROM games WHERE player_id = ? AND result IS NULL AND (started_at, rowid) < (?, ?)
     ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );
  const breakAfter = db.prepare<[string, number, number], { s: number; r: number }>(
    `SELECT started_at AS s, rowid AS r FROM games WHERE player_id = ? AND result IS NULL AND (started_at, rowid) > (?, ?)
     ORDER BY started_at, rowid LIMIT 1`,
  );
  const winsBetween = db.prepare<[string, number, number, number, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND result = 'won'
     AND (started_at, rowid) > (?, ?) AND (started_at, rowid) < (?, ?)`,
  );
  const raiseBest = db.prepare<[number, string]>('UPDATE players SET best_streak = MAX(best_streak, ?) WHERE id = ?');
  const lastWin = db.prepare<[string], { s: number; r: number }>(
    `SELECT started_at AS s, rowid AS r FROM games WHERE player_id = ? AND result = 'won' ORDER BY started_at DESC, rowid DESC LIMIT 1`,
  );
  const startedSince = db.prepare<[string, number], { n: number }>('SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND started_at >= ?');
  const bestStreak = db.prepare<[string], { best_streak: number }>('SELECT best_streak FROM players WHERE id = ?');
  const totals = db.prepare<[string], Omit<LayoutTotals, 'median_ms'>>(
    'SELECT layout, played, won, clean_wins, best_ms FROM player_layouts WHERE player_id = ? ORDER BY layout',
  );
  const middle = db.prepare<[string, string, number, number], { t: number }>(
    `SELECT finished_at - started_at AS t FROM games WHERE player_id = ? AND layout = ? AND result = 'won'
     ORDER BY finished_at - started_at LIMIT ? OFFSET ?`,
  );
  const historyPage = db.prepare<[string, number, number], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? ORDER BY g.started_at DESC, g.rowid DESC LIMIT ? OFFSET ?`,
  );
  const latestWins = db.prepare<[string, number], WinRow>(
    `SELECT layout, finished_at, finished_at - started_at AS time_ms, (hints = 0 AND shuffles = 0 AND undos = 0) AS clean
     FROM games WHERE player_id = ? AND result = 'won' ORDER BY finished_at DESC LIMIT ?`,
  );
  const byId = db.prepare<[string], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.boards, g.updated_at FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?`,
  );
  const save = db.prepare<[Record<string, string | number>]>(
    `UPDATE games SET moves_json = @movesJson, boards = @boards, move_count = @moveCount, status = @status, tiles_left = @tilesLeft,
       hints = @hints, shuffles = @shuffles, undos = @undos, updated_at = @now,
       result = CASE WHEN @won THEN 'won' END, finished_at = CASE WHEN @won THEN @now END
     WHERE id = @id AND move_count = @expectedCount AND result IS NULL`,
  );
  const latestUnfinished = db.prepare<[string], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  const unfinishedOfDeal = db.prepare<[string, number], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.boards, g.updated_at FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.deal_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  const bestTimes = db.prepare<[number, number], BestTime>(
    `SELECT g.player_id, p.nickname, MIN(g.finished_at - g.started_at) AS time_ms,
            g.hints, g.shuffles, g.undos, g.finished_at
     FROM games g JOIN players p ON p.id = g.player_id
     WHERE g.deal_id = ? AND g.result = 'won'
     GROUP BY g.player_id ORDER BY time_ms, g.finished_at LIMIT ?`,
  );
  const bestWin = db.prepare<[string, string, string, string], { best: number | null }>(
    `SELECT MIN(g.finished_at - g.started_at) AS best FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.layout = ? AND g.result = 'won' AND d.mode = ? AND g.id <> ?`,
  );
  const wonDeal = db.prepare<[string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND deal_id = ? AND result = 'won'`,
  );
  const createGame = db.transaction((game: NewGame) => {
    insertPlayer.run(game.playerId, game.now); // the player's first write makes their row
    insert.run(game);
    countStart.run(game.playerId, game.layout);
  });

  /** The wins in a row around a game just won, by start order (rowid breaks ties). */
  const runAround = (player: string, s: number, r: number): number => {
    const before = breakBefore.get(player, s, r) ?? { s: -Infinity, r: 0 };
    const after = breakAfter.get(player, s, r) ?? { s: Infinity, r: 0 };
    return winsBetween.get(player, before.s, before.r, after.s, after.r)!.n;
  };

  const saveGame = db.transaction((saved: SavedMoves): boolean => {
    if (save.run({ ...saved, won: saved.won ? 1 : 0 }).changes !== 1) return false;
    if (saved.won) {
      const key = gameKey.get(saved.id)!;
      const clean = saved.hints === 0 && saved.shuffles === 0 && saved.undos === 0 ? 1 : 0;
      countWin.run({ player: key.player_id, layout: key.layout, time: key.finished_at - key.started_at, clean });
      raiseBest.run(runAround(key.player_id, key.started_at, key.rowid), key.player_id);
    }
    return true;
  });

  const statsOf = db.transaction((playerId: string, q: { historyOffset: number; historyLimit: number; winsLimit: number }): StatsRows => {
    const layouts = totals.all(playerId).map((t): LayoutTotals => {
      if (t.won === 0) return { ...t, median_ms: null };
      const mid = middle.all(playerId, t.layout, t.won % 2 === 1 ? 1 : 2, (t.won - 1) >> 1).map((row) => row.t);
      return { ...t, median_ms: mid.reduce((a, b) => a + b, 0) / mid.length };
    });
    // Current streak: wins after the latest non-won game that started before the latest win
    // (unfinished games started after the latest win may still be won: they do not break it).
    let streak = 0;
    const last = lastWin.get(playerId);
    if (last) {
      const before = breakBefore.get(playerId, last.s, last.r) ?? { s: -Infinity, r: 0 };
      streak = winsBetween.get(playerId, before.s, before.r, Infinity, 0)!.n;
    }
    return {
      layouts,
      streak,
      bestStreak: bestStreak.get(playerId)?.best_streak ?? 0,
      history: historyPage.all(playerId, q.historyLimit, q.historyOffset),
      wins: latestWins.all(playerId, q.winsLimit),
    };
  });
  return {
    async create(game) {
      createGame(game);
    },
    async findById(id) {
      return byId.get(id);
    },
    async saveMoves(saved) {
      return saveGame(saved);
    },
    async countStartedSince(playerId, since) {
      return startedSince.get(playerId, since)!.n;
    },
    async latestUnfinished(playerId) {
      return latestUnfinished.get(playerId);
    },
    async unfinishedOfDeal(playerId, dealId) {
      return unfinishedOfDeal.get(playerId, dealId);
    },
    async statsOf(playerId, query) {
      return statsOf(playerId, query);
    },
    async bestTimes(dealId, limit) {
      return bestTimes.all(dealId, limit);
    },
    async bestWinTime(playerId, layout, mode, exceptGameId) {
      return bestWin.get(playerId, layout, mode, exceptGameId)!.best;
    },
    async hasWon(playerId, dealId) {
      return wonDeal.get(playerId, dealId)!.n > 0;
    },
  };
}

export default fp(
  async (fastify: FastifyInstance) => {
    fastify.decorate('gamesRepository', createGamesRepository(fastify.db));
  },
  { name: 'games-repository', dependencies: ['database'] },
);
