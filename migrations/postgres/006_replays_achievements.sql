-- SQLite's migration 012 in PostgreSQL terms: shared replays and achievements (issue 28; docs/server.md,
-- "Replays" and "Achievements").

-- A replay link per game: a random token, made on the player's first ask and the same ever after; `review`
-- keeps the solver's review of a finished game's log (JSON), made when its player asks for the link.
CREATE TABLE replays (
  token      text PRIMARY KEY,                 -- 16 random bytes, base64url
  game_id    text NOT NULL UNIQUE REFERENCES games (id),
  created_at bigint NOT NULL,
  review     text
);

-- Achievements: one row per player and achievement, from the verified win that earned it.
CREATE TABLE achievements (
  player_id   text NOT NULL REFERENCES players (id),
  achievement text NOT NULL,
  game_id     text NOT NULL REFERENCES games (id),
  earned_at   bigint NOT NULL,
  PRIMARY KEY (player_id, achievement)
);
CREATE INDEX achievements_by_game ON achievements (game_id);

-- The longest run of days whose daily deal the player won on its day, kept with each daily win.
ALTER TABLE players ADD COLUMN best_daily_streak integer NOT NULL DEFAULT 0;
UPDATE players SET best_daily_streak = COALESCE((SELECT MAX(daily_run) FROM player_days WHERE player_id = players.id), 0);

-- Wins from before: as SQLite's 012 (the others are earned by the player's next verified win).
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, CASE n WHEN 1 THEN 'first-win' WHEN 10 THEN 'wins-10' WHEN 100 THEN 'wins-100' ELSE 'wins-1000' END, id, finished_at
FROM (SELECT player_id, id, finished_at,
             ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY finished_at, id COLLATE "C") AS n
      FROM games WHERE result = 'won') AS won
WHERE n IN (1, 10, 100, 1000);
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, CASE n WHEN 1 THEN 'first-clean-win' ELSE 'clean-10' END, id, finished_at
FROM (SELECT player_id, id, finished_at,
             ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY finished_at, id COLLATE "C") AS n
      FROM games WHERE result = 'won' AND hints = 0 AND shuffles = 0 AND undos = 0) AS clean
WHERE n IN (1, 10);
INSERT INTO achievements (player_id, achievement, game_id, earned_at)
SELECT player_id, 'first-classic-win', id, finished_at
FROM (SELECT g.player_id, g.id, g.finished_at,
             ROW_NUMBER() OVER (PARTITION BY g.player_id ORDER BY g.finished_at, g.id COLLATE "C") AS n
      FROM games g JOIN deals d ON d.id = g.deal_id WHERE g.result = 'won' AND d.mode = 'classic') AS classic
WHERE n = 1;
