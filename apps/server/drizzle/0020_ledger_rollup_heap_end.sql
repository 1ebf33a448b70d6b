-- The rollup's state keeps the position of the last ledger row instead of the ledger's size in blocks (new
-- rows also fill the last block). Derived data: without a state row the job rebuilds the rollup.
DELETE FROM "ledger_rollup_state";--> statement-breakpoint
ALTER TABLE "ledger_rollup_state" ADD COLUMN "heap_end" text NOT NULL;--> statement-breakpoint
ALTER TABLE "ledger_rollup_state" DROP COLUMN "heap_blocks";
