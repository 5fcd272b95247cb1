/**
 * The bookkeeping of starts and wins for both databases: per-layout and per-band aggregates, runs of days,
 * deal records and achievements, written in the game's own transaction (docs/storage.md, "Wins and bookkeeping").
 */
import { isCleanWin } from '../../shared/display.ts';
import type { Band, Mode } from '../../engine/index.ts';
import type { Sql } from '../db/sql.ts';
import { earnedBy, needsLayouts } from './achievements.ts';
import { shiftDay } from './days.ts';
import type { NewGame, SavedMoves } from './types.ts';

/** The game a win finished, as the store read it in the win's transaction. */
export interface WonGame {
  player_id: string;
  deal_id: number;
  layout: string;
  own_ms: number;
  band: Band | null;
}

interface DayRow {
  wins: number;
  run: number;
  daily: number;
  daily_run: number;
}

const DAY = 'SELECT wins, run, daily, daily_run FROM player_days WHERE player_id = ? AND day = ?';

/** The player's row of a day, if they won that day. */
export const dayRow = (q: Sql, player: string, day: string): Promise<DayRow | undefined> =>
  q.one<DayRow>(DAY, [player, day]);

export const winsOfDeal = async (q: Sql, player: string, dealId: number): Promise<number> =>
  (await q.one<{ n: number }>(
    `SELECT COUNT(*) AS n FROM games WHERE player_id = ? AND deal_id = ? AND result = 'won'`,
    [player, dealId],
  ))!.n;

/** A started game counts as played on its layout and, with a band, on its band. */
export async function recordStart(tx: Sql, game: NewGame): Promise<void> {
  await tx.run(
    `INSERT INTO player_layouts (player_id, layout, played) VALUES (?, ?, 1)
     ON CONFLICT (player_id, layout) DO UPDATE SET played = player_layouts.played + 1`,
    [game.playerId, game.layout],
  );
  if (game.band !== null)
    await tx.run(
      `INSERT INTO player_bands (player_id, band, played) VALUES (?, ?, 1)
       ON CONFLICT (player_id, band) DO UPDATE SET played = player_bands.played + 1`,
      [game.playerId, game.band],
    );
}

/** Moves every aggregate a verified win touches, then awards its achievements. */
export async function recordWin(tx: Sql, saved: SavedMoves, game: WonGame): Promise<void> {
  const player = game.player_id;
  await tx.one(`SELECT 1 AS locked FROM players WHERE id = ?${tx.dialect.lockRow}`, [player]); // one win of a player at a time
  const clean = isCleanWin(saved);
  await tx.run(
    `UPDATE player_layouts SET won = won + 1, clean_wins = clean_wins + ?,
       best_ms = CASE WHEN best_ms IS NULL OR ? < best_ms THEN ? ELSE best_ms END
     WHERE player_id = ? AND layout = ?`,
    [clean ? 1 : 0, game.own_ms, game.own_ms, player, game.layout],
  );
  if (game.band !== null)
    await tx.run(
      'UPDATE player_bands SET won = won + 1, clean_wins = clean_wins + ? WHERE player_id = ? AND band = ?',
      [clean ? 1 : 0, player, game.band],
    );
  if ((await winsOfDeal(tx, player, game.deal_id)) === 1)
    await tx.run(
      `INSERT INTO deal_records (deal_id, won) VALUES (?, 1)
       ON CONFLICT (deal_id) DO UPDATE SET won = deal_records.won + 1`,
      [game.deal_id],
    );
  const today = new Date(saved.now).toISOString().slice(0, 10);
  const first = ((await dayRow(tx, player, today))?.wins ?? 0) === 0; // the day's first win starts a new run
  await tx.run(
    `INSERT INTO player_days (player_id, day, wins) VALUES (?, ?, 1)
     ON CONFLICT (player_id, day) DO UPDATE SET wins = player_days.wins + 1`,
    [player, today],
  );
  const greatest = (column: string) => tx.dialect.greatest(column, '?');
  if (first)
    await tx.run(`UPDATE players SET best_streak = ${greatest('best_streak')} WHERE id = ?`, [
      await markDay(tx, player, today, 'run'),
      player,
    ]);
  if (saved.dailyDay !== null && (await dayRow(tx, player, saved.dailyDay))?.daily !== 1) {
    await tx.run(
      `INSERT INTO player_days (player_id, day, daily) VALUES (?, ?, 1)
       ON CONFLICT (player_id, day) DO UPDATE SET daily = 1`,
      [player, saved.dailyDay],
    );
    await tx.run(`UPDATE players SET best_daily_streak = ${greatest('best_daily_streak')} WHERE id = ?`, [
      await markDay(tx, player, saved.dailyDay, 'daily_run'),
      player,
    ]);
  }
  await awardAchievements(tx, saved, game, clean);
}

/**
 * Marks `day` and updates the runs of days ending on it and after it (a day can be marked after a later one).
 * Returns the longest run it set.
 */
async function markDay(tx: Sql, player: string, day: string, kind: 'run' | 'daily_run'): Promise<number> {
  const on = (row: DayRow | undefined): boolean =>
    row !== undefined && (kind === 'run' ? row.wins > 0 : row.daily === 1);
  const before = await dayRow(tx, player, shiftDay(day, -1));
  let run = on(before) ? before![kind] + 1 : 1;
  for (let d = day; ; d = shiftDay(d, 1)) {
    await tx.run(`UPDATE player_days SET ${kind} = ? WHERE player_id = ? AND day = ?`, [run, player, d]);
    const next = await dayRow(tx, player, shiftDay(d, 1));
    if (!on(next) || next![kind] === run + 1) break;
    run += 1;
  }
  return run;
}

/** The achievements the win earns, from the standing after its aggregates moved. */
async function awardAchievements(tx: Sql, saved: SavedMoves, game: WonGame, clean: boolean): Promise<void> {
  const player = game.player_id;
  const held = new Set(
    (await tx.all<{ achievement: string }>('SELECT achievement FROM achievements WHERE player_id = ?', [player])).map(
      (row) => row.achievement,
    ),
  );
  const facts = (await tx.one<{
    mode: Mode;
    wins: number;
    clean: number;
    best_streak: number;
    best_daily_streak: number;
  }>(
    `SELECT (SELECT d.mode FROM deals d WHERE d.id = ?) AS mode,
            (SELECT COALESCE(SUM(won), 0) FROM player_layouts WHERE player_id = ?) AS wins,
            (SELECT COALESCE(SUM(clean_wins), 0) FROM player_layouts WHERE player_id = ?) AS clean,
            best_streak, best_daily_streak
     FROM players WHERE id = ?`,
    [game.deal_id, player, player, player],
  ))!;
  const layoutsWon = needsLayouts(held)
    ? (
        await tx.all<{ layout: string }>(
          `SELECT layout FROM player_layouts WHERE player_id = ? AND won > 0 AND layout NOT LIKE 'c-%'`,
          [player],
        )
      ).map((row) => row.layout)
    : [];
  const earned = earnedBy(
    held,
    { mode: facts.mode, hints: saved.hints, clean, band: game.band },
    {
      wins: Number(facts.wins),
      cleanWins: Number(facts.clean),
      layoutsWon,
      bestStreak: facts.best_streak,
      bestDailyStreak: facts.best_daily_streak,
    },
  );
  for (const id of earned)
    await tx.run(
      'INSERT INTO achievements (player_id, achievement, game_id, earned_at) VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING',
      [player, id, saved.id, saved.now],
    );
}
