-- Issue 20: the ledger drops its (sender, created_at, id) and (recipient, created_at, id) indexes: each ledger row
-- wrote an entry in each (with four INCLUDE columns) besides the same party's per-category index (migration
-- 0032). A party's rows without a category filter are now one range per category of that index, merged
-- (transactions-list.queries.ts). The other-party probe reads the per-category index's leading column.
DROP INDEX "bank_tx_sender";--> statement-breakpoint
DROP INDEX "bank_tx_recipient";