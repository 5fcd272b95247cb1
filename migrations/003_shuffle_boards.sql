-- The faces each shuffle of a game gave (issue 9, item 4), so a game evicted from the server's
-- cache replays without searching for its shuffles again: 2 characters per slot (engine codec.ts),
-- one board after another in shuffle order, '' for a game without shuffles. A game has at most
-- 100 shuffles: at most 28.8 KB for the turtle.
ALTER TABLE games ADD COLUMN boards TEXT NOT NULL DEFAULT '';
