DROP INDEX "market_listings_open_name_prefix";--> statement-breakpoint
ALTER TABLE "market_listings" ADD COLUMN "item_name_key" text GENERATED ALWAYS AS (lower(item_name)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "market_listings_open_name_key" ON "market_listings" USING btree (("item_name_key" COLLATE "C"),"price","id") WHERE "market_listings"."state" = 'open';