-- Issue 20: the four party indexes of the ledger hold only the rows that name that party. A list reads them
-- by a party's id (`sender_id = $1`, `recipient_id = ANY(...)`), which implies the party is not null, so the
-- planner takes the partial index as it took the whole one; no query reads them for a null party. A row issued
-- by the system (sender null: mints, deposits, escrow paid out) or removed from circulation (recipient null:
-- burns, untaxed fees, escrow taken in; half of an exchange's rows) wrote two entries no list could read:
-- inserting 101,289 rows of a bench's ledger took 1.44-1.64 s with these against 1.91-2.86 s before.
-- INCLUDE by hand (drizzle has none), as migrations 0028 and 0032 have it: the lists stay index-only.
DROP INDEX "bank_tx_sender";--> statement-breakpoint
DROP INDEX "bank_tx_recipient";--> statement-breakpoint
DROP INDEX "bank_tx_sender_category";--> statement-breakpoint
DROP INDEX "bank_tx_recipient_category";--> statement-breakpoint
CREATE INDEX "bank_tx_sender" ON "bank_transactions" USING btree ("sender_id","created_at","id") INCLUDE ("recipient_id","category","currency_id","amount") WHERE "bank_transactions"."sender_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "bank_tx_recipient" ON "bank_transactions" USING btree ("recipient_id","created_at","id") INCLUDE ("sender_id","category","currency_id","amount") WHERE "bank_transactions"."recipient_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "bank_tx_sender_category" ON "bank_transactions" USING btree ("sender_id","category","created_at","id") INCLUDE ("recipient_id","currency_id","amount") WHERE "bank_transactions"."sender_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "bank_tx_recipient_category" ON "bank_transactions" USING btree ("recipient_id","category","created_at","id") INCLUDE ("sender_id","currency_id","amount") WHERE "bank_transactions"."recipient_id" IS NOT NULL;
