-- SQLite's migration 013 in PostgreSQL terms: a name its uploader gave a custom layout (NULL: the neutral name).
ALTER TABLE custom_layouts ADD COLUMN title TEXT; -- cleaned, 1 to 40 characters, or NULL
