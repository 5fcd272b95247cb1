-- Two clocks (docs/fair-play.md, "Two clocks"). `time_ms` (finish minus the deal's first view, the server's
-- clock) stays the ranked time's basis. `play_ms` is the player's own clock as the page showed it: from the
-- first move, stopped while paused or hidden, kept for games played offline. It is the client's word, so it
-- only ever feeds the player's own stats (their times, bests, medians, chart, export), never a table or a
-- deal's record. NULL for games from before, or sent without it: their own time is the server's.
ALTER TABLE games ADD COLUMN play_ms INTEGER;
ALTER TABLE games ADD COLUMN own_ms INTEGER GENERATED ALWAYS AS (COALESCE(play_ms, finished_at - shown_at)) VIRTUAL;

-- Medians and the chart by the player's own time.
DROP INDEX IF EXISTS games_player_won_time;
CREATE INDEX games_player_won_own ON games (player_id, layout, own_ms) WHERE result = 'won';
