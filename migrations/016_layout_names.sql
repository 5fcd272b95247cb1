-- Players' own names for custom layouts (docs/server.md, "Your own layouts"): a layout is stored once per shape
-- (custom_layouts), but each player who uploads, saves or renames it keeps a name of their own, shown to them
-- alone. At most LAYOUT_NAMES_MAX rows a player (services/custom-layouts.ts); a rename changes the row.
CREATE TABLE layout_names (
  player_id TEXT NOT NULL REFERENCES players (id),
  layout    TEXT NOT NULL REFERENCES custom_layouts (id),
  name      TEXT NOT NULL,                     -- cleaned as an upload's name (at most 40 characters)
  named_at  INTEGER NOT NULL,                  -- ms; the last upload, save or rename that set it
  PRIMARY KEY (player_id, layout)
) STRICT, WITHOUT ROWID;
