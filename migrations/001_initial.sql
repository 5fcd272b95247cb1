-- The first schema: players, stored deals, games with their move logs, settings.
-- Times are milliseconds since the Unix epoch, from the server's clock.

-- Anonymous players: the id lives in a signed cookie. A row is written on the
-- player's first write (a game, a nickname), not on every first visit.
CREATE TABLE players (
  id         TEXT PRIMARY KEY,                 -- random, url-safe, from the cookie
  nickname   TEXT,                             -- shown on the daily table; NULL until set
  created_at INTEGER NOT NULL
) STRICT;

-- Every deal ever shown, stored on first use: the seeds of shared links. A
-- link's board comes from here, so it stays the same after GENERATOR_VERSION changes.
CREATE TABLE deals (
  id         INTEGER PRIMARY KEY,
  layout     TEXT NOT NULL,                    -- layout id
  seed       TEXT NOT NULL,                    -- 1–32 chars of [A-Za-z0-9_-]
  mode       TEXT NOT NULL CHECK (mode IN ('relaxed', 'classic')),
  generator  TEXT NOT NULL,                    -- GENERATOR_VERSION that made it
  deal_json  TEXT NOT NULL,                    -- the deal JSON of SPEC §3.3, as served
  created_at INTEGER NOT NULL,
  UNIQUE (layout, seed, mode)
) STRICT;

-- Games in progress and finished. The move log is the whole truth: the counters
-- and status are what the server's replay of `moves_json` gave, kept for queries.
CREATE TABLE games (
  id          TEXT PRIMARY KEY,                -- random, url-safe
  player_id   TEXT NOT NULL REFERENCES players (id),
  deal_id     INTEGER NOT NULL REFERENCES deals (id),
  status      TEXT NOT NULL CHECK (status IN ('playing', 'won', 'stuck')),
  result      TEXT CHECK (result IN ('won')),  -- NULL while unfinished
  moves_json  TEXT NOT NULL DEFAULT '[]',      -- every accepted move, in order
  move_count  INTEGER NOT NULL DEFAULT 0,      -- length of the log; guards concurrent writers
  tiles_left  INTEGER NOT NULL,
  hints       INTEGER NOT NULL DEFAULT 0,
  shuffles    INTEGER NOT NULL DEFAULT 0,
  undos       INTEGER NOT NULL DEFAULT 0,
  started_at  INTEGER NOT NULL,
  updated_at  INTEGER NOT NULL,
  finished_at INTEGER,                         -- set when the replay cleared the board
  CHECK ((result IS NULL) = (finished_at IS NULL))
) STRICT;

CREATE INDEX games_by_player ON games (player_id, started_at);
CREATE INDEX games_by_player_deal ON games (player_id, deal_id, started_at);
CREATE INDEX games_won_by_deal ON games (deal_id, finished_at) WHERE result = 'won';

-- Small server settings, such as the generated cookie secret.
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;
