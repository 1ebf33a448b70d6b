-- The indexes a market search by name walks in its order (newest, cheapest in a currency, cheapest overall)
-- carry item_name_key (INCLUDE, by hand: drizzle has none), so the name is checked in the index instead of
-- fetching each skipped listing.
DROP INDEX IF EXISTS "market_listings_open_newest";--> statement-breakpoint
CREATE INDEX "market_listings_open_newest" ON "market_listings" USING btree ("created_at","id") INCLUDE ("item_name_key") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
DROP INDEX IF EXISTS "market_listings_open_price";--> statement-breakpoint
CREATE INDEX "market_listings_open_price" ON "market_listings" USING btree ("currency_id","price","id") INCLUDE ("item_name_key") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
DROP INDEX IF EXISTS "market_listings_open_price_any";--> statement-breakpoint
CREATE INDEX "market_listings_open_price_any" ON "market_listings" USING btree ("price","id") INCLUDE ("item_name_key") WHERE "market_listings"."state" = 'open';
