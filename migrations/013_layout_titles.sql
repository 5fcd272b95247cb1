-- A name its uploader gave a custom layout (docs/server.md, "Your own layouts"): the upload form's name field,
-- or the Name= entry of a KMahjongg .desktop file sent with the .layout. NULL: the layout is shown by its
-- neutral name ("Custom layout c-…"). `name` keeps what it kept (the file's name, never shown).
ALTER TABLE custom_layouts ADD COLUMN title TEXT; -- cleaned, 1 to 40 characters, or NULL
