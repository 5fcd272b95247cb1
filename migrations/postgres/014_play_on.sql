-- SQLite's migration 014 in PostgreSQL terms: play-on games are unranked for a reason of their own, 'play-on',
-- and keep the source game's move they began after (docs/coach.md). Numbered as SQLite's: gaps are allowed.
ALTER TABLE games DROP CONSTRAINT games_unranked_check;
ALTER TABLE games ADD CONSTRAINT games_unranked_check CHECK (unranked IN ('fast', 'legacy', 'play-on'));

-- NULL for any game not played on; games played on before this migration keep 'fast'.
ALTER TABLE games ADD COLUMN play_on_from bigint;
