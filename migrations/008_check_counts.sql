-- "Can this still be won?" on the server (issue 12): the question is answered by the solver in the
-- browser's worker, and the client sends it with its moves as {"type":"check","heard":"yes"|"no"|"unknown"}.
-- Like hints, checks change nothing on the board: they are counted here, not kept in the move log, and
-- count in move_count (so a batch stays idempotent by it). What the player heard is the client's word;
-- it feeds `mahjong report` only, never a result, a time or a rank.
-- Whether the player gave up after hearing "no" is derived: checks_no > 0 and result IS NULL.
ALTER TABLE games ADD COLUMN checks INTEGER NOT NULL DEFAULT 0;     -- times the player asked
ALTER TABLE games ADD COLUMN checks_no INTEGER NOT NULL DEFAULT 0;  -- answers that said the position cannot be cleared
