-- Issue 19: the Tnx Logs' currency filter without a party or a category reads one ordered range of this index
-- per category and merges them (transactions-list.queries.ts), and counts its matches up to a bound through
-- it as it did through (currency_id, category): a rare currency's page walked bank_tx_created back until it
-- had a page (5.8 s on the million-member database), reading rows of every other currency on the way.
DROP INDEX "bank_tx_currency_category";--> statement-breakpoint
CREATE INDEX "bank_tx_currency_category_created" ON "bank_transactions" USING btree ("currency_id","category","created_at","id");