-- Challenge links (docs/server.md, "Challenges").

-- A challenge: a won game's player sends its deal with the time to beat. The id is random (16 bytes of the
-- crypto RNG, base64url), never derived from the game; one per game, made on its player's first ask and the
-- same ever after. `time_ms` is the server's time of that win (finished_at - shown_at), kept as it was.
CREATE TABLE challenges (
  id         TEXT PRIMARY KEY,
  game_id    TEXT NOT NULL UNIQUE REFERENCES games (id),
  player_id  TEXT NOT NULL REFERENCES players (id),   -- the sender: their stats list their challenges
  time_ms    INTEGER NOT NULL,
  created_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;
CREATE INDEX challenges_by_player ON challenges (player_id, created_at);

-- The games that answer a challenge: many friends may play one link, each game answers at most one.
CREATE TABLE challenge_games (
  game_id      TEXT PRIMARY KEY REFERENCES games (id),
  challenge_id TEXT NOT NULL REFERENCES challenges (id)
) STRICT, WITHOUT ROWID;
CREATE INDEX challenge_games_by_challenge ON challenge_games (challenge_id);
