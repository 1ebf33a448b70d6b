-- Issue 19 §2: the ledger's list indexes cover what the lists read (INCLUDE by hand: drizzle has none;
-- the schema's key columns are unchanged). A member's history (transactions-list.queries.ts) reads its
-- page ids, its capped count and every member filter (the other party, category, currency, amount,
-- dates) from the two party indexes alone (index-only: no heap page per row), so a member with 10,000+
-- rows costs index pages, not a random heap read per row; the admin's unfiltered and category lists read
-- their page ids at any depth from bank_tx_created and bank_tx_category. The same four indexes as before,
-- wider entries: no posting writes an index entry more than it did.
DROP INDEX IF EXISTS "bank_tx_sender";--> statement-breakpoint
CREATE INDEX "bank_tx_sender" ON "bank_transactions" USING btree ("sender_id","created_at") INCLUDE ("id","recipient_id","category","currency_id","amount");--> statement-breakpoint
DROP INDEX IF EXISTS "bank_tx_recipient";--> statement-breakpoint
CREATE INDEX "bank_tx_recipient" ON "bank_transactions" USING btree ("recipient_id","created_at") INCLUDE ("id","sender_id","category","currency_id","amount");--> statement-breakpoint
DROP INDEX IF EXISTS "bank_tx_created";--> statement-breakpoint
CREATE INDEX "bank_tx_created" ON "bank_transactions" USING btree ("created_at") INCLUDE ("id");--> statement-breakpoint
DROP INDEX IF EXISTS "bank_tx_category";--> statement-breakpoint
CREATE INDEX "bank_tx_category" ON "bank_transactions" USING btree ("category","created_at") INCLUDE ("id");
