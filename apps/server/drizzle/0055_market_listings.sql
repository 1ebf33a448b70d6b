CREATE TABLE "market_listings" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"item_id" char(24) NOT NULL,
	"item_name" text NOT NULL,
	"item_img_url" text DEFAULT '' NOT NULL,
	"collection_id" char(24) NOT NULL,
	"seller_id" char(24) NOT NULL,
	"buyer_id" char(24),
	"currency_id" integer NOT NULL,
	"price" numeric(38, 9) NOT NULL,
	"royalty" numeric(10, 9) DEFAULT '0' NOT NULL,
	"state" text DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sold_at" timestamp with time zone,
	CONSTRAINT "market_listings_state" CHECK ("market_listings"."state" IN ('open', 'sold', 'cancelled')),
	CONSTRAINT "market_listings_price_positive" CHECK ("market_listings"."price" > 0),
	CONSTRAINT "market_listings_royalty" CHECK ("market_listings"."royalty" >= 0 AND "market_listings"."royalty" <= 0.25)
);
--> statement-breakpoint
ALTER TABLE "item_collections" ADD COLUMN "royalty" numeric(10, 9) DEFAULT '0' NOT NULL;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_collection_id_item_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."item_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_listings" ADD CONSTRAINT "market_listings_currency_id_currencies_currency_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_listings_open_item" ON "market_listings" USING btree ("item_id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_open_newest" ON "market_listings" USING btree ("created_at","id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_open_price" ON "market_listings" USING btree ("currency_id","price","id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_open_price_any" ON "market_listings" USING btree ("price","id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_open_collection" ON "market_listings" USING btree ("collection_id","created_at","id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_open_name" ON "market_listings" USING btree (lower("item_name"),"price","id") WHERE "market_listings"."state" = 'open';--> statement-breakpoint
CREATE INDEX "market_listings_seller" ON "market_listings" USING btree ("seller_id","created_at","id");--> statement-breakpoint
ALTER TABLE "item_collections" ADD CONSTRAINT "item_collections_royalty" CHECK ("item_collections"."royalty" >= 0 AND "item_collections"."royalty" <= 0.25);