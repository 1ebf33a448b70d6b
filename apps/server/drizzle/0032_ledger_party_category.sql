-- Issue 19 §2: a member's history filtered by a category reads that party's rows of the category in date
-- order. Through the party indexes alone a rare category scanned all of the member's rows on every page
-- (member1 at the scale seed: 17 deposits among 19,000 rows), and a category with a currency and an amount
-- (51 matches) 3,400 index entries for a page. INCLUDE by hand (drizzle has none), as migrations 0022, 0028
-- and 0031 have it: the other party, currency and amount filters stay index-only.
CREATE INDEX "bank_tx_sender_category" ON "bank_transactions" USING btree ("sender_id","category","created_at","id") INCLUDE ("recipient_id","currency_id","amount");--> statement-breakpoint
CREATE INDEX "bank_tx_recipient_category" ON "bank_transactions" USING btree ("recipient_id","category","created_at","id") INCLUDE ("sender_id","currency_id","amount");
