-- The Tnx Logs' category or currency filter with an amount bound, and no party (transactions-list.queries.ts),
-- reads one range of this index per currency of the category (or per category of the currency) and counts
-- its matches up to a bound through it. Without the amount in the index every entry of the range cost a
-- visit to its ledger row to compare the amount: a bound few rows pass (transfers of 100 or more) read the
-- whole category's rows from the table, for the count and for each currency's page alike. With it INCLUDEd
-- the ranges are read from the index alone. No new index and no more entries per ledger row: most amounts
-- fit the alignment padding after the key's 25-byte id, so the index keeps its size (a long amount adds 8
-- bytes to its entry). INCLUDE by hand (drizzle has none), as migrations 0028, 0032 and 0040 have it.
DROP INDEX "bank_tx_currency_category_created";--> statement-breakpoint
CREATE INDEX "bank_tx_currency_category_created" ON "bank_transactions" USING btree ("currency_id","category","created_at","id") INCLUDE ("amount");
