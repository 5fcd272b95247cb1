-- Measured difficulty (issue 28; SQLite's 011): a deal's band and score, stored with it, so a link shows the
-- band it was dealt with for ever. Rows stored before have none: measured when first read, then kept.
ALTER TABLE deals ADD COLUMN band text CHECK (band IN ('easy', 'medium', 'hard', 'expert'));
ALTER TABLE deals ADD COLUMN score double precision;  -- 0–100: the share of random games that fail, in percent

-- The band a game was counted under when it began (its deal's); NULL for games begun before this.
ALTER TABLE games ADD COLUMN band text CHECK (band IN ('easy', 'medium', 'hard', 'expert'));

-- Per player and band, kept up to date with each start and win, as player_layouts is.
CREATE TABLE player_bands (
  player_id  text NOT NULL REFERENCES players (id),
  band       text NOT NULL CHECK (band IN ('easy', 'medium', 'hard', 'expert')),
  played     integer NOT NULL DEFAULT 0,
  won        integer NOT NULL DEFAULT 0,
  clean_wins integer NOT NULL DEFAULT 0,
  PRIMARY KEY (player_id, band)
);
