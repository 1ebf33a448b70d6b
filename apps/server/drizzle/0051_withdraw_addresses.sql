CREATE TABLE "security_holds" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL,
	"reason" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_addresses" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"currency_id" integer NOT NULL,
	"wallet_address" text NOT NULL,
	"label" text NOT NULL,
	"confirm_token_hash" text,
	"token_expires_at" timestamp with time zone,
	"active_from" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_allow_lists" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"allow_list_only" boolean DEFAULT false NOT NULL,
	"off_from" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "security_holds" ADD CONSTRAINT "security_holds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_addresses" ADD CONSTRAINT "withdraw_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_addresses" ADD CONSTRAINT "withdraw_addresses_currency_id_currencies_currency_id_fk" FOREIGN KEY ("currency_id") REFERENCES "public"."currencies"("currency_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_allow_lists" ADD CONSTRAINT "withdraw_allow_lists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "withdraw_addresses_user_created" ON "withdraw_addresses" USING btree ("user_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_addresses_user_address" ON "withdraw_addresses" USING btree ("user_id","currency_id","wallet_address");--> statement-breakpoint
CREATE UNIQUE INDEX "withdraw_addresses_token" ON "withdraw_addresses" USING btree ("confirm_token_hash");