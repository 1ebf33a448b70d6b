DROP INDEX "access_logs_user";--> statement-breakpoint
DROP INDEX "admin_logs_created";--> statement-breakpoint
CREATE INDEX "bank_tx_category" ON "bank_transactions" USING btree ("category","created_at");--> statement-breakpoint
CREATE INDEX "bank_tx_executor_other" ON "bank_transactions" USING btree ("executor_id","created_at") WHERE "bank_transactions"."executor_id" IS NOT NULL AND "bank_transactions"."executor_id" IS DISTINCT FROM "bank_transactions"."sender_id" AND "bank_transactions"."executor_id" IS DISTINCT FROM "bank_transactions"."recipient_id";--> statement-breakpoint
CREATE INDEX "settlements_listing" ON "settlements" USING btree (("state" <> 'pending'),"created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "checkout_transactions_state" ON "checkout_transactions" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "checkout_transactions_package" ON "checkout_transactions" USING btree ("package_id","created_at");--> statement-breakpoint
CREATE INDEX "forge_processes_state" ON "forge_processes" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "forge_processes_recipe" ON "forge_processes" USING btree ("recipe_id","created_at");--> statement-breakpoint
CREATE INDEX "forge_processes_finish" ON "forge_processes" USING btree ("finish_date");--> statement-breakpoint
CREATE INDEX "items_owner_created" ON "items" USING btree ("owner_id","created_at","id");--> statement-breakpoint
CREATE INDEX "access_logs_created" ON "access_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "access_logs_login_type" ON "access_logs" USING btree ("login_type","created_at","id");--> statement-breakpoint
CREATE INDEX "access_logs_address" ON "access_logs" USING btree (("address" COLLATE "C"),"created_at","id");--> statement-breakpoint
CREATE INDEX "admin_logs_admin" ON "admin_logs" USING btree ("admin_id","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_logs_affected" ON "admin_logs" USING btree ("affected_user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_logs_category" ON "admin_logs" USING btree ("category","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_logs_address" ON "admin_logs" USING btree (("address" COLLATE "C"),"created_at","id");--> statement-breakpoint
CREATE INDEX "access_logs_user" ON "access_logs" USING btree ("user_id","created_at","id");--> statement-breakpoint
CREATE INDEX "admin_logs_created" ON "admin_logs" USING btree ("created_at","id");