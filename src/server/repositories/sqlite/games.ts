/**
 * Games and their move logs over SQLite (GamesStore). A game row is only ever
 * changed by `saveMoves`, which writes the new log, the counters the server's
 * replay gave and, on a win, the finish time, in one UPDATE statement (so in one
 * transaction: a crash leaves either the old row or the new one, never a log
 * without its finish), and only if nobody wrote the game since it was read
 * (`move_count` is the version).
 *
 * Stats come from aggregates kept in the same transactions (migrations/002, 006 and 011): `player_layouts`
 * and `player_bands` (played with a start; won, clean wins and, per layout, best time with a win), `player_days` (wins per UTC day
 * and the runs of days ending at each, for streaks) and `players.best_streak`; a deal's record
 * (`deal_records`: players shown it, players who won it) with the first view and the first win.
 * Medians and streaks are a few index lookups. A win also awards the achievements it earns (migration 012), by
 * the rules of ../achievements.ts from the standing it leaves, in the same transaction.
 *
 * Two clocks (migration 009, docs/fair-play.md): the server's time runs from the player's first view of
 * the deal (`shown_at`, from `deal_views`) to the finish, `time_ms`, a generated column; ranked wins also
 * carry it in `ranked_ms` (services/fair-play.ts), and only ranked times reach tables and records. The
 * player's own time (`play_ms`, the page's clock, the client's word) is what their own stats show:
 * `own_ms` is it, or the server's time for a game without one; bests, medians and the chart use it.
 */
import type { Database } from 'better-sqlite3';
import { isCleanWin } from '../../../shared/display.ts';
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

export function createGamesRepository(db: Database): GamesStore {
  const summary =
    'g.id, g.deal_id, g.status, g.result, g.move_count, g.tiles_left, g.hints, g.shuffles, g.undos, ' +
    'g.started_at, g.finished_at, g.shown_at, g.unranked, g.ranked_ms, g.daily, g.play_ms, g.own_ms, d.layout, d.seed, d.mode, g.band';
  const insertPlayer = db.prepare<[string, number]>('INSERT OR IGNORE INTO players (id, created_at) VALUES (?, ?)');
  const insert = db.prepare<[NewGame]>(
    `INSERT INTO games (id, player_id, deal_id, layout, band, status, tiles_left, started_at, updated_at, shown_at, paced_at)
     VALUES (@id, @playerId, @dealId, @layout, @band, @status, @tilesLeft, @now, @now, @shownAt, @pacedAt)`,
  );
  const countBandStart = db.prepare<[string, string]>(
    `INSERT INTO player_bands (player_id, band, played) VALUES (?, ?, 1)
     ON CONFLICT (player_id, band) DO UPDATE SET played = played + 1`,
  );
  const countBandWin = db.prepare<[number, string, string]>(
    'UPDATE player_bands SET won = won + 1, clean_wins = clean_wins + ? WHERE player_id = ? AND band = ?',
  );
  const bandTotals = db.prepare<[string], BandTotals>(
    `SELECT band, played, won, clean_wins FROM player_bands WHERE player_id = ?
     ORDER BY CASE band WHEN 'easy' THEN 0 WHEN 'medium' THEN 1 WHEN 'hard' THEN 2 ELSE 3 END`,
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
  const gameKey = db.prepare<
    [string],
    {
      player_id: string;
      deal_id: number;
      layout: string;
      own_ms: number;
      band: Band | null;
      mode: 'relaxed' | 'classic';
    }
  >(
    'SELECT g.player_id, g.deal_id, g.layout, g.own_ms, g.band, d.mode FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?',
  );
  const insertView = db.prepare<[string, number, number]>(
    'INSERT OR IGNORE INTO deal_views (player_id, deal_id, shown_at) VALUES (?, ?, ?)',
  );
  const viewOf = db.prepare<[string, number], { shown_at: number }>(
    'SELECT shown_at FROM deal_views WHERE player_id = ? AND deal_id = ?',
  );
  const earlierView = db.prepare<[number, string, number, number]>(
    'UPDATE deal_views SET shown_at = ? WHERE player_id = ? AND deal_id = ? AND shown_at > ?',
  );
  const countOpened = db.prepare<[number]>(
    'INSERT INTO deal_records (deal_id, opened) VALUES (?, 1) ON CONFLICT (deal_id) DO UPDATE SET opened = opened + 1',
  );
  const countWinner = db.prepare<[number]>(
    'INSERT INTO deal_records (deal_id, won) VALUES (?, 1) ON CONFLICT (deal_id) DO UPDATE SET won = won + 1',
  );
  const recordOf = db.prepare<[number], { opened: number; won: number }>(
    'SELECT opened, won FROM deal_records WHERE deal_id = ?',
  );
  const winsOfDeal = db.prepare<[string, number], { n: number }>(
    `SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND deal_id = ? AND result = 'won'`,
  );
  // Days: a win adds to its finish day; runs of days are kept on each day's row (see markDay).
  const dayRow = db.prepare<[string, string], { wins: number; run: number; daily: number; daily_run: number }>(
    'SELECT wins, run, daily, daily_run FROM player_days WHERE player_id = ? AND day = ?',
  );
  const addWinDay = db.prepare<[string, string]>(
    'INSERT INTO player_days (player_id, day, wins) VALUES (?, ?, 1) ON CONFLICT (player_id, day) DO UPDATE SET wins = wins + 1',
  );
  const addDailyDay = db.prepare<[string, string]>(
    'INSERT INTO player_days (player_id, day, daily) VALUES (?, ?, 1) ON CONFLICT (player_id, day) DO UPDATE SET daily = 1',
  );
  const setRun = db.prepare<[number, string, string]>('UPDATE player_days SET run = ? WHERE player_id = ? AND day = ?');
  const setDailyRun = db.prepare<[number, string, string]>(
    'UPDATE player_days SET daily_run = ? WHERE player_id = ? AND day = ?',
  );
  const raiseBest = db.prepare<[number, string]>('UPDATE players SET best_streak = MAX(best_streak, ?) WHERE id = ?');
  const raiseBestDaily = db.prepare<[number, string]>(
    'UPDATE players SET best_daily_streak = MAX(best_daily_streak, ?) WHERE id = ?',
  );
  // Achievements (repositories/achievements.ts): what the player holds, and their standing after a win.
  const held = db.prepare<[string], { achievement: string }>(
    'SELECT achievement FROM achievements WHERE player_id = ?',
  );
  const winTotals = db.prepare<[string], { wins: number | null; clean: number | null }>(
    'SELECT SUM(won) AS wins, SUM(clean_wins) AS clean FROM player_layouts WHERE player_id = ?',
  );
  const builtinsWon = db.prepare<[string], { layout: string }>(
    `SELECT layout FROM player_layouts WHERE player_id = ? AND won > 0 AND layout NOT LIKE 'c-%'`,
  );
  const bests = db.prepare<[string], { best_streak: number; best_daily_streak: number }>(
    'SELECT best_streak, best_daily_streak FROM players WHERE id = ?',
  );
  const award = db.prepare<[string, string, string, number]>(
    'INSERT INTO achievements (player_id, achievement, game_id, earned_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  const achievements = db.prepare<[string], EarnedRow>(
    `SELECT a.achievement, a.game_id, a.earned_at, d.layout, d.seed, d.mode
     FROM achievements a JOIN games g ON g.id = a.game_id JOIN deals d ON d.id = g.deal_id
     WHERE a.player_id = ? ORDER BY a.earned_at, a.achievement`,
  );
  const startedSince = db.prepare<[string, number], { n: number }>(
    'SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND started_at >= ?',
  );
  const totals = db.prepare<[string], Omit<LayoutTotals, 'median_ms'>>(
    'SELECT layout, played, won, clean_wins, best_ms FROM player_layouts WHERE player_id = ? ORDER BY layout',
  );
  const middle = db.prepare<[string, string, number, number], { t: number }>(
    `SELECT own_ms AS t FROM games WHERE player_id = ? AND layout = ? AND result = 'won'
     ORDER BY own_ms LIMIT ? OFFSET ?`,
  );
  const historyPage = db.prepare<[string, number, number], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? ORDER BY g.started_at DESC, g.rowid DESC LIMIT ? OFFSET ?`,
  );
  const latestWins = db.prepare<[string, number], WinRow>(
    `SELECT layout, finished_at, own_ms AS time_ms, (hints = 0 AND shuffles = 0 AND undos = 0) AS clean
     FROM games WHERE player_id = ? AND result = 'won' ORDER BY finished_at DESC LIMIT ?`,
  );
  const byId = db.prepare<[string], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.boards, g.updated_at, g.paced_at, g.checks, g.checks_no FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.id = ?`,
  );
  const save = db.prepare<[Record<string, string | number | null>]>(
    `UPDATE games SET moves_json = @movesJson, boards = @boards, move_count = @moveCount, status = @status, tiles_left = @tilesLeft,
       hints = @hints, checks = @checks, checks_no = @checksNo, shuffles = @shuffles, undos = @undos, updated_at = @now, paced_at = @pacedAt, unranked = @unranked,
       play_ms = CASE WHEN @playMs IS NULL THEN play_ms ELSE MAX(COALESCE(play_ms, 0), @playMs) END,
       result = CASE WHEN @won THEN 'won' END, finished_at = CASE WHEN @won THEN @now END,
       ranked_ms = @rankedMs, daily = @daily
     WHERE id = @id AND move_count = @expectedCount AND result IS NULL`,
  );
  const latestUnfinished = db.prepare<[string], GameSummary>(
    `SELECT ${summary} FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  const unfinishedOfDeal = db.prepare<[string, number], GameRow>(
    `SELECT ${summary}, g.player_id, g.moves_json, g.boards, g.updated_at, g.paced_at, g.checks, g.checks_no FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.deal_id = ? AND g.result IS NULL ORDER BY g.started_at DESC, g.rowid DESC LIMIT 1`,
  );
  // Ranked wins fastest first (games_ranked_by_deal); one per player is kept by the caller.
  const rankedWins = db.prepare<[{ deal: number; daily: number; limit: number; offset: number }], BestTime>(
    `SELECT g.player_id, p.nickname, g.ranked_ms AS time_ms, g.hints, g.shuffles, g.undos, g.finished_at
     FROM games g JOIN players p ON p.id = g.player_id
     WHERE g.deal_id = @deal AND g.ranked_ms IS NOT NULL AND g.daily >= @daily
     ORDER BY g.ranked_ms, g.finished_at LIMIT @limit OFFSET @offset`,
  );
  const fasterPlayers = db.prepare<[number, number, string], { n: number }>(
    `SELECT COUNT(DISTINCT player_id) AS n FROM games
     WHERE deal_id = ? AND ranked_ms IS NOT NULL AND daily = 1 AND ranked_ms < ? AND player_id <> ?`,
  );
  const ownBestDaily = db.prepare<[number, string], { t: number | null }>(
    'SELECT MIN(ranked_ms) AS t FROM games WHERE deal_id = ? AND daily = 1 AND player_id = ?',
  );
  const dailyResults = db.prepare<
    [{ player: string; mode: string; from: string; to: string }],
    { layout: string; seed: string; on_day: number; clean: number }
  >(
    `SELECT d.layout, d.seed, MAX(g.started_at >= unixepoch(substr(d.seed, 7)) * 1000 AND g.started_at < unixepoch(substr(d.seed, 7), '+1 day') * 1000) AS on_day,
            MAX(g.hints = 0 AND g.shuffles = 0 AND g.undos = 0) AS clean
     FROM deals d JOIN games g ON g.deal_id = d.id AND g.player_id = @player
     WHERE d.mode = @mode AND d.seed >= @from AND d.seed <= @to AND g.result = 'won'
     GROUP BY d.layout, d.seed ORDER BY d.seed, d.layout`,
  );
  const anyDailyWin = db.prepare<[string], { n: number }>(
    'SELECT COUNT(*) AS n FROM (SELECT 1 FROM games WHERE player_id = ? AND daily = 1 LIMIT 1)',
  );
  const exportRows = db.prepare<[string, number, number], ExportRow>(
    `SELECT ${summary}, g.rowid AS rowid FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.rowid > ? ORDER BY g.rowid LIMIT ?`,
  );
  const bestWin = db.prepare<[string, string, string, string], { best: number | null }>(
    `SELECT MIN(g.own_ms) AS best FROM games g JOIN deals d ON d.id = g.deal_id
     WHERE g.player_id = ? AND g.layout = ? AND g.result = 'won' AND d.mode = ? AND g.id <> ?`,
  );
  const createGame = db.transaction((game: NewGame) => {
    insertPlayer.run(game.playerId, game.now); // the player's first write makes their row
    insert.run(game);
    countStart.run(game.playerId, game.layout);
    if (game.band !== null) countBandStart.run(game.playerId, game.band); // a layout with calibrated bands
  });

  const recordView = db.transaction((playerId: string, dealId: number, at: number): number => {
    if (insertView.run(playerId, dealId, at).changes === 1) {
      countOpened.run(dealId);
      return at;
    }
    earlierView.run(at, playerId, dealId, at);
    return viewOf.get(playerId, dealId)!.shown_at;
  });

  /**
   * Marks `day` on the player's row of days (a win, or a daily win) and keeps the runs of days in a
   * row that end on it and on the days after it (a day can be marked after a later one: a daily won
   * just after midnight, a win sent late). Returns the longest run it set (the last).
   */
  function markDay(player: string, day: string, kind: 'run' | 'daily_run'): number {
    const on = (row: { wins: number; daily: number } | undefined): boolean =>
      row !== undefined && (kind === 'run' ? row.wins > 0 : row.daily === 1);
    const set = kind === 'run' ? setRun : setDailyRun;
    const before = dayRow.get(player, shiftDay(day, -1));
    let run = on(before) ? before![kind] + 1 : 1;
    for (let d = day; ; d = shiftDay(d, 1)) {
      set.run(run, player, d);
      const next = dayRow.get(player, shiftDay(d, 1));
      if (!on(next) || next![kind] === run + 1) break;
      run += 1;
    }
    return run;
  }

  const saveGame = db.transaction((saved: SavedMoves): boolean => {
    const { onTable: _, ...fields } = saved;
    const changed = save.run({ ...fields, won: saved.won ? 1 : 0, daily: saved.onTable ? 1 : 0 }).changes;
    if (changed !== 1) return false;
    if (saved.won) {
      const key = gameKey.get(saved.id)!;
      const clean = isCleanWin(saved) ? 1 : 0;
      countWin.run({ player: key.player_id, layout: key.layout, time: key.own_ms, clean });
      if (key.band !== null) countBandWin.run(clean, key.player_id, key.band); // a game begun with a band
      if (winsOfDeal.get(key.player_id, key.deal_id)!.n === 1) countWinner.run(key.deal_id); // the player's first win of it
      const today = new Date(saved.now).toISOString().slice(0, 10);
      const first = (dayRow.get(key.player_id, today)?.wins ?? 0) === 0; // the day's first win: its run of days is new
      addWinDay.run(key.player_id, today);
      if (first) raiseBest.run(markDay(key.player_id, today, 'run'), key.player_id);
      if (saved.dailyDay !== null && dayRow.get(key.player_id, saved.dailyDay)?.daily !== 1) {
        addDailyDay.run(key.player_id, saved.dailyDay);
        raiseBestDaily.run(markDay(key.player_id, saved.dailyDay, 'daily_run'), key.player_id);
      }
      // The achievements this win earns, from the standing it leaves (repositories/achievements.ts).
      const holds = new Set(held.all(key.player_id).map((row) => row.achievement));
      const totals = winTotals.get(key.player_id)!;
      const best = bests.get(key.player_id)!;
      const earned = earnedBy(
        holds,
        { mode: key.mode, hints: saved.hints, clean: clean === 1, band: key.band },
        {
          wins: totals.wins ?? 0,
          cleanWins: totals.clean ?? 0,
          layoutsWon: needsLayouts(holds) ? builtinsWon.all(key.player_id).map((row) => row.layout) : [],
          bestStreak: best.best_streak,
          bestDailyStreak: best.best_daily_streak,
        },
      );
      for (const id of earned) award.run(key.player_id, id, saved.id, saved.now);
    }
    return true;
  });

  /** The run of days that still counts: one ending today or yesterday. */
  const currentRun = (playerId: string, q: { today: string; yesterday: string }, kind: 'run' | 'daily_run'): number =>
    dayRow.get(playerId, q.today)?.[kind] || dayRow.get(playerId, q.yesterday)?.[kind] || 0;

  const statsOf = db.transaction((playerId: string, q: Parameters<GamesStore['statsOf']>[1]): StatsRows => {
    const layouts = totals.all(playerId).map((t): LayoutTotals => {
      if (t.won === 0) return { ...t, median_ms: null };
      const mid = middle.all(playerId, t.layout, t.won % 2 === 1 ? 1 : 2, (t.won - 1) >> 1).map((row) => row.t);
      return { ...t, median_ms: mid.reduce((a, b) => a + b, 0) / mid.length };
    });
    const best = bests.get(playerId);
    return {
      layouts,
      bands: bandTotals.all(playerId),
      streak: currentRun(playerId, q, 'run'),
      bestStreak: best?.best_streak ?? 0,
      dailyStreak: currentRun(playerId, q, 'daily_run'),
      history: historyPage.all(playerId, q.historyLimit, q.historyOffset),
      wins: latestWins.all(playerId, q.winsLimit),
      achievements: achievements.all(playerId),
      bestDailyStreak: best?.best_daily_streak ?? 0,
    };
  });

  /** One entry per player, fastest first: reads ranked wins in pages until `limit` players are found. */
  function bestTimes(dealId: number, limit: number, dailyOnly: boolean): BestTime[] {
    const best: BestTime[] = [];
    const seen = new Set<string>();
    const page = limit * 4;
    for (let offset = 0; best.length < limit; offset += page) {
      const rows = rankedWins.all({ deal: dealId, daily: dailyOnly ? 1 : 0, limit: page, offset });
      for (const row of rows) {
        if (seen.has(row.player_id)) continue;
        seen.add(row.player_id);
        best.push(row);
        if (best.length === limit) break;
      }
      if (rows.length < page) break;
    }
    return best;
  }

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
    async recordView(playerId, dealId, at) {
      return recordView(playerId, dealId, at);
    },
    async findView(playerId, dealId) {
      return viewOf.get(playerId, dealId)?.shown_at;
    },
    async dealRecord(dealId) {
      return recordOf.get(dealId) ?? { opened: 0, won: 0 };
    },
    async bestTimes(dealId, limit, dailyOnly = false) {
      return bestTimes(dealId, limit, dailyOnly);
    },
    async dailyRank(dealId, playerId, timeMs) {
      const own = ownBestDaily.get(dealId, playerId)!.t;
      return fasterPlayers.get(dealId, own === null ? timeMs : Math.min(own, timeMs), playerId)!.n + 1;
    },
    async dailyResults(playerId, mode, fromSeed, toSeed) {
      return dailyResults.all({ player: playerId, mode, from: fromSeed, to: toSeed }).map((row): DailyResult => ({
        layout: row.layout,
        day: row.seed.slice(-10),
        onDay: row.on_day === 1,
        clean: row.clean === 1,
      }));
    },
    async dailyStreak(playerId, today, yesterday) {
      return currentRun(playerId, { today, yesterday }, 'daily_run');
    },
    async hasDailyWin(playerId) {
      return anyDailyWin.get(playerId)!.n > 0;
    },
    async exportPage(playerId, after, limit) {
      return exportRows.all(playerId, after, limit);
    },
    async layoutTotals(playerId) {
      return totals.all(playerId).map((t) => ({ ...t, median_ms: null }));
    },
    async bestWinTime(playerId, layout, mode, exceptGameId) {
      return bestWin.get(playerId, layout, mode, exceptGameId)!.best;
    },
    async hasWon(playerId, dealId) {
      return winsOfDeal.get(playerId, dealId)!.n > 0;
    },
    async achievementsOf(playerId) {
      return achievements.all(playerId);
    },
  };
}
