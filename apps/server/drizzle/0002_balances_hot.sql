DROP INDEX "balances_currency";--> statement-breakpoint
CREATE INDEX "balances_currency" ON "balances" USING btree ("currency_id");