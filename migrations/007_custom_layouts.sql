-- Players' own layouts (issue 13): a KMahjongg .layout or GNOME .map uploaded at /layouts/new.
-- A layout is stored once per shape: its id is 'c-' plus 12 hex characters of the sha256 of its
-- normalized slots (services/custom-layouts.ts), so the same layout uploaded again, from the same
-- file or another, finds the row that is there (the first upload's name stays). Rows are never
-- changed or deleted: games and stored deals point at the id, and a link to it works forever.
CREATE TABLE custom_layouts (
  id         TEXT PRIMARY KEY,                 -- 'c-' + 12 lowercase hex
  name       TEXT NOT NULL,                    -- display name, cleaned (at most 40 characters)
  format     TEXT NOT NULL CHECK (format IN ('kmahjongg', 'gnome')),
  tiles      INTEGER NOT NULL,                 -- number of slots
  slots      TEXT NOT NULL,                    -- JSON [[x, y, z], ...], normalized, in canonical slot order
  created_at INTEGER NOT NULL
) STRICT;
