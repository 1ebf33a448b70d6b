ALTER TABLE "checkout_transactions" ADD COLUMN "chips_granted" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_transactions" ADD COLUMN "chips_owed" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "checkout_transactions" ADD COLUMN "items_taken_back" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "items" ADD COLUMN "checkout_id" char(24);--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_checkout_id_checkout_transactions_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkout_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "items_checkout" ON "items" USING btree ("checkout_id") WHERE "items"."checkout_id" IS NOT NULL;