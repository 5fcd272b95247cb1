-- Stats that cost the same whatever the number of games (issue 9, item 3). Before, /api/stats read
-- every game of the player and computed in JavaScript: 0.7 s at 50,000 games, a 500 at ~130,000.

-- The layout of a game, copied from its deal, so per-layout questions need no join.
ALTER TABLE games ADD COLUMN layout TEXT NOT NULL DEFAULT '';
UPDATE games SET layout = (SELECT d.layout FROM deals d WHERE d.id = games.deal_id);

-- Per player and layout, kept up to date in the same transaction as the game that changes them:
-- played with the game's start, the rest with its win.
CREATE TABLE player_layouts (
  player_id  TEXT NOT NULL REFERENCES players (id),
  layout     TEXT NOT NULL,
  played     INTEGER NOT NULL DEFAULT 0,       -- games started
  won        INTEGER NOT NULL DEFAULT 0,       -- games the server's replay cleared
  clean_wins INTEGER NOT NULL DEFAULT 0,       -- wins with no hint, shuffle or undo
  best_ms    INTEGER,                          -- fastest win, finish minus start; NULL before the first
  PRIMARY KEY (player_id, layout)
) STRICT, WITHOUT ROWID;

INSERT INTO player_layouts (player_id, layout, played, won, clean_wins, best_ms)
SELECT player_id, layout, COUNT(*),
       COALESCE(SUM(result = 'won'), 0),
       COALESCE(SUM(result = 'won' AND hints = 0 AND shuffles = 0 AND undos = 0), 0),
       MIN(CASE WHEN result = 'won' THEN finished_at - started_at END)
FROM games GROUP BY player_id, layout;

-- The longest run of wins in the order games were started. A run only ever grows (a game never
-- stops being won), so the server raises it when a win joins runs (games-repository.ts).
ALTER TABLE players ADD COLUMN best_streak INTEGER NOT NULL DEFAULT 0;
UPDATE players SET best_streak = COALESCE((
  SELECT MAX(n) FROM (
    SELECT COUNT(*) AS n FROM (
      SELECT result, SUM(result IS NULL) OVER (ORDER BY started_at, rowid) AS breaks
      FROM games WHERE player_id = players.id
    ) WHERE result = 'won' GROUP BY breaks
  )
), 0);

-- The current streak: the latest win, the latest non-win before it, the wins after that.
CREATE INDEX games_player_result ON games (player_id, result, started_at);
-- Medians by offset into the sorted times of one player and layout.
CREATE INDEX games_player_won_time ON games (player_id, layout, finished_at - started_at) WHERE result = 'won';
-- The chart: a player's latest wins.
CREATE INDEX games_player_won_at ON games (player_id, finished_at) WHERE result = 'won';
