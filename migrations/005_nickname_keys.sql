-- Nicknames that cannot pass for another (issue 9, item 9): the lookalike key of each name
-- (services/names.ts), unique, so no two players show names that look the same. Names set before
-- this migration get their key when the server starts (players-repository.ts keyOldNicknames; the
-- key needs the lookalike table, which lives in code); of two older lookalikes the first keeps it.
ALTER TABLE players ADD COLUMN nickname_key TEXT;
CREATE UNIQUE INDEX players_nickname_key ON players (nickname_key) WHERE nickname_key IS NOT NULL;
