CREATE TABLE "item_collections" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"img_url" text DEFAULT '' NOT NULL,
	"creator_id" char(24) NOT NULL,
	"redirect_urls" text[] DEFAULT '{}'::text[] NOT NULL,
	"cancel_url" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "items" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"collection_id" char(24) NOT NULL,
	"owner_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"img_url" text DEFAULT '' NOT NULL,
	"metadata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"variabledata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"hiddendata" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "item_collections" ADD CONSTRAINT "item_collections_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_collection_id_item_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."item_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "items" ADD CONSTRAINT "items_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "item_collections_creator" ON "item_collections" USING btree ("creator_id");--> statement-breakpoint
CREATE INDEX "items_owner" ON "items" USING btree ("owner_id","collection_id","name");--> statement-breakpoint
CREATE INDEX "items_collection" ON "items" USING btree ("collection_id","created_at");