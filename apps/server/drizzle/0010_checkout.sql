CREATE TABLE "checkout_events" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"checkout_id" char(24),
	"provider_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"event_type" text NOT NULL,
	"outcome" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "checkout_packages" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"img_url" text DEFAULT '' NOT NULL,
	"cost" numeric(12, 2) NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"published" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deleted_at" timestamp with time zone,
	CONSTRAINT "checkout_packages_cost" CHECK ("checkout_packages"."cost" > 0),
	CONSTRAINT "checkout_packages_amount" CHECK ("checkout_packages"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "checkout_transactions" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"package_id" char(24) NOT NULL,
	"package_name" text NOT NULL,
	"provider_id" integer NOT NULL,
	"ref_id" text DEFAULT '' NOT NULL,
	"payment_ref" text DEFAULT '' NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"state" integer DEFAULT 1 NOT NULL,
	"cost" numeric(12, 2) NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	"credited" numeric(38, 9) DEFAULT '0' NOT NULL,
	"taken_back" numeric(38, 9) DEFAULT '0' NOT NULL,
	"owed" numeric(38, 9) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "checkout_transactions_state" CHECK ("checkout_transactions"."state" IN (1, 3, 5, 6, 8, 9)),
	CONSTRAINT "checkout_transactions_provider" CHECK ("checkout_transactions"."provider_id" IN (1, 2))
);
--> statement-breakpoint
ALTER TABLE "checkout_events" ADD CONSTRAINT "checkout_events_checkout_id_checkout_transactions_id_fk" FOREIGN KEY ("checkout_id") REFERENCES "public"."checkout_transactions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_transactions" ADD CONSTRAINT "checkout_transactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "checkout_transactions" ADD CONSTRAINT "checkout_transactions_package_id_checkout_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."checkout_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_events_provider_event" ON "checkout_events" USING btree ("provider_id","event_id");--> statement-breakpoint
CREATE INDEX "checkout_events_checkout" ON "checkout_events" USING btree ("checkout_id","received_at");--> statement-breakpoint
CREATE INDEX "checkout_packages_created" ON "checkout_packages" USING btree ("created_at","id") WHERE "checkout_packages"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "checkout_transactions_user" ON "checkout_transactions" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "checkout_transactions_created" ON "checkout_transactions" USING btree ("created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "checkout_transactions_ref" ON "checkout_transactions" USING btree ("provider_id","ref_id") WHERE "checkout_transactions"."ref_id" <> '';--> statement-breakpoint
CREATE INDEX "checkout_transactions_payment_ref" ON "checkout_transactions" USING btree ("provider_id","payment_ref") WHERE "checkout_transactions"."payment_ref" <> '';