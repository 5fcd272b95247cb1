-- Compact deals and a bounded table (issue 9, item 5). A stored deal was its whole JSON, 5.9 KB for
-- the turtle, and a crawl of new seeds stored 7 MB in seconds.
--
-- A layout's tile coordinates are stored once per distinct shape (keyed by a hash of them), and a
-- deal as its faces (2 characters per slot) and its solution (4 base-36 characters per pair): about
-- 0.6 KB for the turtle. The deal JSON is rebuilt from these, byte for byte as it was made. Rows
-- stored before keep their JSON (`deal_json`); compact rows have `deal_json = ''`.
CREATE TABLE shapes (
  id    INTEGER PRIMARY KEY,
  hash  TEXT NOT NULL UNIQUE,                  -- sha256 of `slots`, 16 hex characters
  slots TEXT NOT NULL                          -- JSON [[x, y, z], ...] in slot order
) STRICT;

ALTER TABLE deals ADD COLUMN shape_id INTEGER REFERENCES shapes (id);
ALTER TABLE deals ADD COLUMN faces TEXT;       -- engine makeBoard of the dealt faces
ALTER TABLE deals ADD COLUMN solution TEXT;    -- engine makePairs of the solution

-- Deals nobody played are pruned after a while (dealer.ts); this finds whether a deal was played.
CREATE INDEX games_by_deal ON games (deal_id);
