-- An admin's revocation of a member's API key moves from category 42 to 43: DESIGN §11.3 gives 42 to
-- Broadcast. The rows were written before any release; the append-only trigger steps aside for this one
-- relabelling, inside the migration's transaction, and is back before it commits.
ALTER TABLE "admin_logs" DISABLE TRIGGER "admin_logs_no_update_delete";--> statement-breakpoint
UPDATE "admin_logs" SET "category" = 43 WHERE "category" = 42;--> statement-breakpoint
ALTER TABLE "admin_logs" ENABLE TRIGGER "admin_logs_no_update_delete";
