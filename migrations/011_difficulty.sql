-- Measured difficulty (issue 28): a deal's band and score, stored with it, so a link shows the band it was
-- dealt with for ever, whatever the measure becomes (docs/study.md, "Measured difficulty"). Rows stored
-- before have none: the server measures such a deal when it first reads it and keeps the answer.
ALTER TABLE deals ADD COLUMN band TEXT CHECK (band IN ('easy', 'medium', 'hard', 'expert'));
ALTER TABLE deals ADD COLUMN score REAL;     -- 0–100: the share of random games that fail, in percent

-- The band a game was counted under when it began (its deal's); NULL for games begun before this.
ALTER TABLE games ADD COLUMN band TEXT CHECK (band IN ('easy', 'medium', 'hard', 'expert'));

-- Per player and band, kept up to date with each start and win, as player_layouts is (wins per band on the
-- stats page; only games that have a band count).
CREATE TABLE player_bands (
  player_id  TEXT NOT NULL REFERENCES players (id),
  band       TEXT NOT NULL CHECK (band IN ('easy', 'medium', 'hard', 'expert')),
  played     INTEGER NOT NULL DEFAULT 0,       -- games started
  won        INTEGER NOT NULL DEFAULT 0,       -- games the server's replay cleared
  clean_wins INTEGER NOT NULL DEFAULT 0,       -- wins with no hint, shuffle or undo
  PRIMARY KEY (player_id, band)
) STRICT, WITHOUT ROWID;
