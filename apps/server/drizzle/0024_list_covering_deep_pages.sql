-- Issue 19 §2: deep pages read their ids index-only (INCLUDE by hand: drizzle has none). The settlements
-- list's expression index also holds the state and kind it is ordered and filtered by (an index-only scan
-- needs the plain columns), and a collection's items index holds the id the page is ordered by.
DROP INDEX IF EXISTS "settlements_listing";--> statement-breakpoint
CREATE INDEX "settlements_listing" ON "settlements" USING btree (("state" <> 'pending'),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST) INCLUDE ("state","kind");--> statement-breakpoint
DROP INDEX IF EXISTS "items_collection";--> statement-breakpoint
CREATE INDEX "items_collection" ON "items" USING btree ("collection_id","created_at") INCLUDE ("id");
