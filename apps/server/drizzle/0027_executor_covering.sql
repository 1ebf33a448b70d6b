-- Issue 19 §2: the rows a nickname executed without being their sender or recipient also hold the columns
-- Tnx Logs filters them by (INCLUDE by hand: drizzle has none), so a nickname filter with a currency,
-- category or amount reads them index-only. Without them the scale seed's member1 with a currency and a
-- category read 4,478 table pages for that branch: 332 ms cold.
DROP INDEX IF EXISTS "bank_tx_executor_other";--> statement-breakpoint
CREATE INDEX "bank_tx_executor_other" ON "bank_transactions" USING btree ("executor_id","created_at") INCLUDE ("id","sender_id","recipient_id","category","currency_id","amount") WHERE "bank_transactions"."executor_id" IS NOT NULL AND "bank_transactions"."executor_id" IS DISTINCT FROM "bank_transactions"."sender_id" AND "bank_transactions"."executor_id" IS DISTINCT FROM "bank_transactions"."recipient_id";
