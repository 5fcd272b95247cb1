-- SQLite's migration 015 in PostgreSQL terms: `deal_views` becomes `first_shown`, with its index and keys.
ALTER TABLE deal_views RENAME TO first_shown;
ALTER INDEX deal_views_by_deal RENAME TO first_shown_by_deal;
ALTER INDEX deal_views_pkey RENAME TO first_shown_pkey;
ALTER TABLE first_shown RENAME CONSTRAINT deal_views_deal_id_fkey TO first_shown_deal_id_fkey;
