-- Nicknames that cannot pass for another (issue 9, item 9): the lookalike key of each name
-- (services/names.ts), unique, so no two players show names that look the same. Names set before
-- this migration have no key until they are set again.
ALTER TABLE players ADD COLUMN nickname_key TEXT;
CREATE UNIQUE INDEX players_nickname_key ON players (nickname_key) WHERE nickname_key IS NOT NULL;
