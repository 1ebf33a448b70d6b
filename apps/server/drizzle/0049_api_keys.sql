CREATE TABLE "api_keys" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"secret_hash" text NOT NULL,
	"sealed" text,
	"scopes" text[] NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
-- Each member's one key becomes their key named Default (scopes read, trade, transfer; DESIGN §11.2). Only its
-- hash and sealed copy were kept, so its prefix is `sl_` alone (the rest is not known without the server secret).
-- The id keeps the ObjectId layout: the seconds of the move, then random bytes.
INSERT INTO "api_keys" ("id", "user_id", "name", "prefix", "secret_hash", "sealed", "scopes", "created_at")
SELECT lpad(to_hex(floor(extract(epoch FROM now()))::bigint), 8, '0') || substr(md5(random()::text || "id"), 1, 16),
       "id", 'Default', 'sl_', "api_key_hash", "api_key_sealed", ARRAY['read', 'trade', 'transfer']::text[], now()
FROM "users" WHERE "api_key_hash" IS NOT NULL;--> statement-breakpoint
DROP INDEX "users_api_key_hash";--> statement-breakpoint
ALTER TABLE "api_keys" ADD CONSTRAINT "api_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "api_keys_secret_hash" ON "api_keys" USING btree ("secret_hash");--> statement-breakpoint
CREATE INDEX "api_keys_user_live" ON "api_keys" USING btree ("user_id","created_at") WHERE "api_keys"."revoked_at" IS NULL;--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "api_key_hash";--> statement-breakpoint
ALTER TABLE "users" DROP COLUMN "api_key_sealed";