-- Layouts drawn in the layout editor (issue 29) are stored as uploads are, with format 'editor' (SQLite's 009).
ALTER TABLE custom_layouts DROP CONSTRAINT custom_layouts_format_check;
ALTER TABLE custom_layouts ADD CONSTRAINT custom_layouts_format_check CHECK (format IN ('kmahjongg', 'gnome', 'editor'));
