-- SQLite's migration 013 in PostgreSQL terms: challenge links (docs/server.md, "Challenges").

-- A challenge: a won game's deal with the time to beat (the server's time of that win); a random id, one per game.
CREATE TABLE challenges (
  id         text PRIMARY KEY,
  game_id    text NOT NULL UNIQUE REFERENCES games (id),
  player_id  text NOT NULL REFERENCES players (id),
  time_ms    bigint NOT NULL,
  created_at bigint NOT NULL
);
CREATE INDEX challenges_by_player ON challenges (player_id, created_at);

-- The games that answer a challenge: each game answers at most one.
CREATE TABLE challenge_games (
  game_id      text PRIMARY KEY REFERENCES games (id),
  challenge_id text NOT NULL REFERENCES challenges (id)
);
CREATE INDEX challenge_games_by_challenge ON challenge_games (challenge_id);
