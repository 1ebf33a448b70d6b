CREATE TABLE "mail_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"purpose" text NOT NULL,
	"email" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallet_nonces" (
	"nonce" text PRIMARY KEY NOT NULL,
	"wallet_address" text NOT NULL,
	"message" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "api_key_hash" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "api_key_sealed" text;--> statement-breakpoint
ALTER TABLE "mail_tokens" ADD CONSTRAINT "mail_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_tokens_user" ON "mail_tokens" USING btree ("user_id","purpose");--> statement-breakpoint
CREATE INDEX "wallet_nonces_wallet" ON "wallet_nonces" USING btree ("wallet_address","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_primary_wallet" ON "users" USING btree ("primary_wallet");--> statement-breakpoint
CREATE UNIQUE INDEX "users_api_key_hash" ON "users" USING btree ("api_key_hash");