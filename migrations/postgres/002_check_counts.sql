-- SQLite's migration 008 in PostgreSQL terms: "can this still be won?" counted per game (issue 12). The client
-- sends each question and what the player heard with its moves ({"type":"check","heard":…}); like hints, checks
-- change nothing on the board, are counted here and not kept in the move log, and count in move_count.
-- What the player heard is the client's word: it feeds `mahjong report` only, never a result, a time or a rank.
ALTER TABLE games ADD COLUMN checks integer NOT NULL DEFAULT 0;     -- times the player asked
ALTER TABLE games ADD COLUMN checks_no integer NOT NULL DEFAULT 0;  -- answers that said the position cannot be cleared
