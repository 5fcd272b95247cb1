-- Play on from the mistake (docs/coach.md): a game opened from move K of another game is unranked for a reason
-- of its own, 'play-on', and keeps K (play_on_from) for the stats history's "played on from move K".

-- SQLite cannot change a CHECK in place, and a table rebuild of games would trip the foreign keys that point at
-- it inside this transaction: the column is swapped instead (DROP COLUMN takes the old column's own CHECK along).
ALTER TABLE games ADD COLUMN unranked_new TEXT CHECK (unranked_new IN ('fast', 'legacy', 'play-on'));
UPDATE games SET unranked_new = unranked WHERE unranked IS NOT NULL;
ALTER TABLE games DROP COLUMN unranked;
ALTER TABLE games RENAME COLUMN unranked_new TO unranked;

-- The move of the source game the play-on game began after; NULL for any other game. Games played on before
-- this migration keep 'fast' (their source move was not kept).
ALTER TABLE games ADD COLUMN play_on_from INTEGER;
