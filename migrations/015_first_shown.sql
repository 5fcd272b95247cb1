-- The times the server first showed each player each deal (the start of every ranked time) take the name
-- the code calls them by: first-shown times, not "views" (a word the templates already use).
ALTER TABLE deal_views RENAME TO first_shown;
DROP INDEX deal_views_by_deal;
CREATE INDEX first_shown_by_deal ON first_shown (deal_id);
