-- SQLite's migration 016 in PostgreSQL terms: players' own names for custom layouts (docs/server.md, "Your own
-- layouts"), one row per player and layout, at most LAYOUT_NAMES_MAX a player.
CREATE TABLE layout_names (
  player_id text NOT NULL REFERENCES players (id),
  layout    text NOT NULL REFERENCES custom_layouts (id),
  name      text NOT NULL,
  named_at  bigint NOT NULL,
  PRIMARY KEY (player_id, layout)
);
