CREATE TABLE "settlements" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"user_id" char(24) NOT NULL,
	"currency_id" integer NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	"tax" numeric(38, 9) DEFAULT '0' NOT NULL,
	"wallet_address" text NOT NULL,
	"reference" text DEFAULT '' NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"note" text DEFAULT '' NOT NULL,
	"settled_by" char(24),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "settlements_amount_positive" CHECK ("settlements"."amount" > 0)
);
--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_currency_id_currencies_currency_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "settlements" ADD CONSTRAINT "settlements_settled_by_users_id_fk" FOREIGN KEY ("settled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "settlements_state_created" ON "settlements" USING btree ("state","created_at");--> statement-breakpoint
CREATE INDEX "settlements_user" ON "settlements" USING btree ("user_id","created_at");