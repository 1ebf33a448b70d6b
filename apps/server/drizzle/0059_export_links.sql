CREATE TABLE "export_links" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"session_id" char(24) NOT NULL,
	"path" text NOT NULL,
	"query" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "export_links" ADD CONSTRAINT "export_links_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "export_links_expires" ON "export_links" USING btree ("expires_at");