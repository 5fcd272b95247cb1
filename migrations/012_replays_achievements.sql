-- Shared replays and achievements (issue 28; docs/server.md, "Replays" and "Achievements").

-- A replay link per game: a random token (never derived from the game's id), made the first time the game's
-- player asks for one and the same ever after. `review` keeps the solver's review of a finished game's log
-- (where its win was lost; JSON), made when the game's player asks for the link: a finished game's log never
-- changes.
CREATE TABLE replays (
  token      TEXT PRIMARY KEY,                 -- 16 random bytes, base64url
  game_id    TEXT NOT NULL UNIQUE REFERENCES games (id),
  created_at INTEGER NOT NULL,
  review     TEXT
) STRICT, WITHOUT ROWID;

-- Achievements: one row per player and achievement, from the verified win that earned it (its game and the
-- server's time of the win). Written in the transaction of that win, never changed.
CREATE TABLE achievements (
  player_id   TEXT NOT NULL REFERENCES players (id),
  achievement TEXT NOT NULL,
  game_id     TEXT NOT NULL REFERENCES games (id),
  earned_at   INTEGER NOT NULL,
  PRIMARY KEY (player_id, achievement)
) STRICT, WITHOUT ROWID;
CREATE INDEX achievements_by_game ON achievements (game_id);

-- The longest run of days whose daily deal the player won on its day (the daily streak achievements), kept
-- with each daily win like best_streak; from the runs already kept on the days.
ALTER TABLE players ADD COLUMN best_daily_streak INTEGER NOT NULL DEFAULT 0;
UPDATE players SET best_daily_streak = COALESCE((SELECT MAX(daily_run) FROM player_days WHERE player_id = players.id), 0);

-- Wins from before: the achievements that name one game among a player's wins are given to that game now
-- (the first win, the first clean and classic wins, the 10th, 100th and 1000th win, the 10th clean win). The
-- others (every layout, family and band, the streaks) are earned by the player's next verified win.
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, CASE n WHEN 1 THEN 'first-win' WHEN 10 THEN 'wins-10' WHEN 100 THEN 'wins-100' ELSE 'wins-1000' END, id, finished_at
FROM (SELECT player_id, id, finished_at, ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY finished_at, id) AS n
      FROM games WHERE result = 'won')
WHERE n IN (1, 10, 100, 1000);
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, CASE n WHEN 1 THEN 'first-clean-win' ELSE 'clean-10' END, id, finished_at
FROM (SELECT player_id, id, finished_at, ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY finished_at, id) AS n
      FROM games WHERE result = 'won' AND hints = 0 AND shuffles = 0 AND undos = 0)
WHERE n IN (1, 10);
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, 'first-classic-win', id, finished_at
FROM (SELECT g.player_id, g.id, g.finished_at,
             ROW_NUMBER() OVER (PARTITION BY g.player_id ORDER BY g.finished_at, g.id) AS n
      FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.result = 'won' AND d.mode = 'classic')
WHERE n = 1;
