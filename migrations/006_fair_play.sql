-- Fair play (issue 10, SPEC §7; docs/fair-play.md): ranked times from when the server first showed a
-- player the deal, a pace rule for the moves, daily tables of games started on their day, a deal's own
-- record, streaks by days, and one-time links that move a player to another browser.

-- When the server first showed each player each deal (a play page, the deal API, a new game): the start
-- of every ranked time. Goes with its deal when an unplayed deal is pruned.
CREATE TABLE deal_views (
  player_id TEXT NOT NULL,                     -- no row in players needed: a visit writes none
  deal_id   INTEGER NOT NULL REFERENCES deals (id) ON DELETE CASCADE,
  shown_at  INTEGER NOT NULL,
  PRIMARY KEY (player_id, deal_id)
) STRICT, WITHOUT ROWID;
CREATE INDEX deal_views_by_deal ON deal_views (deal_id);

-- A deal's own record, kept up to date so a page view reads one row: players shown it, players who won it.
CREATE TABLE deal_records (
  deal_id INTEGER PRIMARY KEY REFERENCES deals (id) ON DELETE CASCADE,
  opened  INTEGER NOT NULL DEFAULT 0,
  won     INTEGER NOT NULL DEFAULT 0
) STRICT;

-- Each game's clock and pace:
--   shown_at  the player's first view of the deal (the start of its time);
--   paced_at  the pace clock: shown_at - 6 x 700 ms, plus 700 ms per pair received; a batch that
--             arrives before it came faster than a person plays (services/fair-play.ts);
--   unranked  NULL while the game may be ranked, else why not ('fast': moves arrived faster than a
--             person plays; 'legacy': in progress when this rule came, its pace unknown);
--   ranked_ms a ranked win's time (finished_at - shown_at); NULL for anything else;
--   daily     1 when the win stands on its day's daily table (a daily deal shown and started on its day).
ALTER TABLE games ADD COLUMN shown_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN paced_at INTEGER NOT NULL DEFAULT 0;
ALTER TABLE games ADD COLUMN unranked TEXT CHECK (unranked IN ('fast', 'legacy'));
ALTER TABLE games ADD COLUMN ranked_ms INTEGER;
ALTER TABLE games ADD COLUMN daily INTEGER NOT NULL DEFAULT 0;
-- One time for every game: from when the deal was shown to the finish (NULL while unfinished).
ALTER TABLE games ADD COLUMN time_ms INTEGER GENERATED ALWAYS AS (finished_at - shown_at) VIRTUAL;

UPDATE games SET shown_at = started_at, paced_at = started_at - 4200;
UPDATE games SET unranked = 'legacy' WHERE result IS NULL;
-- Wins from before the rule: the pace of their moves is unknown, so a win is ranked when its time is at
-- least what the pace rule allows at the fastest (a pair per 700 ms after the first 6): the instant wins
-- of scripts leave the tables, a person's stay.
UPDATE games SET unranked = 'fast' WHERE result = 'won' AND finished_at - started_at < 700 * (
  (SELECT COALESCE(json_array_length(s.slots), json_array_length(d.deal_json, '$.tiles'))
   FROM deals d LEFT JOIN shapes s ON s.id = d.shape_id WHERE d.id = games.deal_id) / 2 - 6);
UPDATE games SET ranked_ms = finished_at - started_at WHERE result = 'won' AND unranked IS NULL;
UPDATE games SET daily = 1 WHERE ranked_ms IS NOT NULL AND deal_id IN (
  SELECT id FROM deals WHERE layout = 'turtle' AND mode = 'relaxed' AND seed GLOB 'daily-[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]')
  AND strftime('%Y-%m-%d', started_at / 1000, 'unixepoch') = substr((SELECT seed FROM deals WHERE id = games.deal_id), 7);

INSERT INTO deal_views (player_id, deal_id, shown_at)
SELECT player_id, deal_id, MIN(started_at) FROM games GROUP BY player_id, deal_id;
INSERT INTO deal_records (deal_id, opened, won)
SELECT deal_id, COUNT(DISTINCT player_id), COUNT(DISTINCT CASE WHEN result = 'won' THEN player_id END)
FROM games GROUP BY deal_id;

-- Tables and records rank ranked wins by time; personal bests and medians use every win's time.
CREATE INDEX games_ranked_by_deal ON games (deal_id, ranked_ms) WHERE ranked_ms IS NOT NULL;
-- Whether a player has a line on some daily table (the right to a name).
CREATE INDEX games_daily_by_player ON games (player_id) WHERE daily = 1;
DROP INDEX games_player_won_time;
CREATE INDEX games_player_won_time ON games (player_id, layout, time_ms) WHERE result = 'won';
-- The player's games of a deal, for "first win of this deal" (the deal record's count of winners).
-- games_by_player_deal (player_id, deal_id, started_at) serves it.

-- Days a player won something (UTC), for streaks that no unfinished game can break:
--   wins       games won that day;
--   run        days in a row with a win ending this day (0 on a day without a win);
--   daily      1 when the player won that day's daily deal in a game started on its day;
--   daily_run  days in a row with such a daily win ending this day.
CREATE TABLE player_days (
  player_id TEXT NOT NULL REFERENCES players (id),
  day       TEXT NOT NULL,                     -- YYYY-MM-DD, UTC
  wins      INTEGER NOT NULL DEFAULT 0,
  run       INTEGER NOT NULL DEFAULT 0,
  daily     INTEGER NOT NULL DEFAULT 0,
  daily_run INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (player_id, day)
) STRICT, WITHOUT ROWID;

INSERT INTO player_days (player_id, day, wins)
SELECT player_id, strftime('%Y-%m-%d', finished_at / 1000, 'unixepoch'), COUNT(*)
FROM games WHERE result = 'won' GROUP BY 1, 2;
INSERT INTO player_days (player_id, day, daily)
SELECT g.player_id, substr(d.seed, 7), 1 FROM games g JOIN deals d ON d.id = g.deal_id
WHERE g.result = 'won' AND d.layout = 'turtle' AND d.mode = 'relaxed'
  AND d.seed GLOB 'daily-[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]'
  AND strftime('%Y-%m-%d', g.started_at / 1000, 'unixepoch') = substr(d.seed, 7)
GROUP BY 1, 2
ON CONFLICT (player_id, day) DO UPDATE SET daily = 1;
-- Runs: days in a row share (day number - rank among the player's such days).
UPDATE player_days SET run = r.n FROM (
  SELECT player_id, day, ROW_NUMBER() OVER (PARTITION BY player_id, grp ORDER BY day) AS n FROM (
    SELECT player_id, day, julianday(day) - ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY day) AS grp
    FROM player_days WHERE wins > 0)
) AS r WHERE player_days.player_id = r.player_id AND player_days.day = r.day;
UPDATE player_days SET daily_run = r.n FROM (
  SELECT player_id, day, ROW_NUMBER() OVER (PARTITION BY player_id, grp ORDER BY day) AS n FROM (
    SELECT player_id, day, julianday(day) - ROW_NUMBER() OVER (PARTITION BY player_id ORDER BY day) AS grp
    FROM player_days WHERE daily = 1)
) AS r WHERE player_days.player_id = r.player_id AND player_days.day = r.day;
-- The best streak is now the longest run of days (it was the longest run of wins in start order).
UPDATE players SET best_streak = COALESCE((SELECT MAX(run) FROM player_days WHERE player_id = players.id), 0);

-- One-time links that make another browser the same player (POST /stats/transfer). Only a hash of the
-- token is kept: the database never holds a usable link.
CREATE TABLE transfers (
  token_hash TEXT PRIMARY KEY,                 -- sha256 of the token, hex
  player_id  TEXT NOT NULL REFERENCES players (id),
  created_at INTEGER NOT NULL,
  expires_at INTEGER NOT NULL,
  used_at    INTEGER
) STRICT;
CREATE INDEX transfers_by_expiry ON transfers (expires_at);
