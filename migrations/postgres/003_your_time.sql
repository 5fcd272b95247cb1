-- SQLite's migration 009 in PostgreSQL terms: two clocks (docs/fair-play.md, "Two clocks"). `play_ms` is the
-- player's own clock as the page showed it (from the first move, stopped while paused or hidden, kept for
-- offline games): the client's word, for the player's own stats only. `own_ms` is it, or the server's time
-- for games without it.
ALTER TABLE games ADD COLUMN play_ms bigint;
ALTER TABLE games ADD COLUMN own_ms bigint GENERATED ALWAYS AS (COALESCE(play_ms, finished_at - shown_at)) STORED;

DROP INDEX IF EXISTS games_player_won_time;
CREATE INDEX games_player_won_own ON games (player_id, layout, own_ms) WHERE result = 'won';
