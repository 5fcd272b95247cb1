-- Layouts drawn in the layout editor (issue 29) are stored as uploads are, with format 'editor'. SQLite
-- cannot change a CHECK constraint in place: the table is rebuilt with the wider one and its rows copied
-- as they are (no other table refers to it; games name layouts by id).
CREATE TABLE custom_layouts_new (
  id         TEXT PRIMARY KEY,                 -- 'c-' + 12 lowercase hex
  name       TEXT NOT NULL,                    -- display name, cleaned (at most 40 characters)
  format     TEXT NOT NULL CHECK (format IN ('kmahjongg', 'gnome', 'editor')),
  tiles      INTEGER NOT NULL,                 -- number of slots
  slots      TEXT NOT NULL,                    -- JSON [[x, y, z], ...], normalized, in canonical slot order
  created_at INTEGER NOT NULL
) STRICT;
INSERT INTO custom_layouts_new (id, name, format, tiles, slots, created_at)
  SELECT id, name, format, tiles, slots, created_at FROM custom_layouts;
DROP TABLE custom_layouts;
ALTER TABLE custom_layouts_new RENAME TO custom_layouts;
