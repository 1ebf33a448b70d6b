ALTER TABLE "exchange_orders" ADD COLUMN "type" text DEFAULT 'limit' NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD COLUMN "time_in_force" text DEFAULT 'GTC' NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD COLUMN "post_only" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD COLUMN "stop_price" numeric(38, 9);--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "exchange_orders_expiring" ON "exchange_orders" USING btree ("expires_at") WHERE "exchange_orders"."state" = 1 AND "exchange_orders"."expires_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_type" CHECK ("exchange_orders"."type" IN ('limit', 'market', 'stop_limit'));--> statement-breakpoint
ALTER TABLE "exchange_orders" ADD CONSTRAINT "exchange_orders_time_in_force" CHECK ("exchange_orders"."time_in_force" IN ('GTC', 'IOC', 'FOK'));