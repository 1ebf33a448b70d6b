CREATE TABLE "exchange_orders" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "exchange_orders_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pair_id" char(24) NOT NULL,
	"user_id" char(24) NOT NULL,
	"buy_side" boolean NOT NULL,
	"initial_amount" numeric(38, 9) NOT NULL,
	"filled_amount" numeric(38, 9) DEFAULT '0' NOT NULL,
	"price" numeric(38, 9) NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"escrow_remaining" numeric(38, 9) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exchange_orders_amounts" CHECK ("exchange_orders"."initial_amount" > 0 AND "exchange_orders"."price" > 0),
	CONSTRAINT "exchange_orders_filled" CHECK ("exchange_orders"."filled_amount" >= 0 AND "exchange_orders"."filled_amount" <= "exchange_orders"."initial_amount"),
	CONSTRAINT "exchange_orders_escrow" CHECK ("exchange_orders"."escrow_remaining" >= 0)
);
--> statement-breakpoint
CREATE TABLE "exchange_pairs" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"buy_currency" integer NOT NULL,
	"sell_currency" integer NOT NULL,
	"can_buy" boolean DEFAULT true NOT NULL,
	"can_sell" boolean DEFAULT true NOT NULL,
	"visible" boolean DEFAULT true NOT NULL,
	"frozen" boolean DEFAULT false NOT NULL,
	"frozen_note" text DEFAULT '' NOT NULL,
	"fee" numeric(38, 9) DEFAULT '0' NOT NULL,
	"fee_collector_id" char(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "exchange_pairs_fee_fraction" CHECK ("exchange_pairs"."fee" >= 0 AND "exchange_pairs"."fee" <= 1),
	CONSTRAINT "exchange_pairs_distinct_currencies" CHECK ("exchange_pairs"."buy_currency" <> "exchange_pairs"."sell_currency")
);
--> statement-breakpoint
CREATE TABLE "exchange_trades" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"seq" bigint GENERATED ALWAYS AS IDENTITY (sequence name "exchange_trades_seq_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"pair_id" char(24) NOT NULL,
	"buy_order_id" char(24) NOT NULL,
	"sell_order_id" char(24) NOT NULL,
	"taker_buy_side" boolean NOT NULL,
	"price" numeric(38, 9) NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	"cost" numeric(38, 9) NOT NULL,
	"buyer_fee" numeric(38, 9) NOT NULL,
	"seller_fee" numeric(38, 9) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "exchange_orders_book" ON "exchange_orders" USING btree ("pair_id","buy_side","price","seq") WHERE "exchange_orders"."state" = 1;--> statement-breakpoint
CREATE INDEX "exchange_orders_user" ON "exchange_orders" USING btree ("user_id","seq");--> statement-breakpoint
CREATE UNIQUE INDEX "exchange_pairs_currencies" ON "exchange_pairs" USING btree ("buy_currency","sell_currency") WHERE "exchange_pairs"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "exchange_trades_pair" ON "exchange_trades" USING btree ("pair_id","seq");--> statement-breakpoint
CREATE INDEX "exchange_trades_pair_time" ON "exchange_trades" USING btree ("pair_id","created_at");