-- Leave 30% of each page free so a balance update fits on its own page: with no indexed column
-- changed (0002), PostgreSQL then updates the row in place (HOT), without new index entries.
-- Applies to pages written from now on; existing pages follow as they are rewritten.
ALTER TABLE "balances" SET (fillfactor = 70);
