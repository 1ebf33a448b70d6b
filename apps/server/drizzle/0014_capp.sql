CREATE TABLE "capp_auth_requests" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"collection_id" char(24) NOT NULL,
	"redirect_url" text NOT NULL,
	"cancel_url" text NOT NULL,
	"custom_message" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"user_id" char(24),
	CONSTRAINT "capp_auth_requests_used" CHECK (("capp_auth_requests"."used_at" IS NULL) = ("capp_auth_requests"."user_id" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "capp_codes" (
	"code_hash" text PRIMARY KEY NOT NULL,
	"request_id" char(24) NOT NULL,
	"user_id" char(24) NOT NULL,
	"collection_id" char(24) NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "capp_grants" (
	"user_id" char(24) NOT NULL,
	"collection_id" char(24) NOT NULL,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "capp_grants_user_id_collection_id_pk" PRIMARY KEY("user_id","collection_id")
);
--> statement-breakpoint
ALTER TABLE "capp_auth_requests" ADD CONSTRAINT "capp_auth_requests_collection_id_item_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."item_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_auth_requests" ADD CONSTRAINT "capp_auth_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_codes" ADD CONSTRAINT "capp_codes_request_id_capp_auth_requests_id_fk" FOREIGN KEY ("request_id") REFERENCES "public"."capp_auth_requests"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_codes" ADD CONSTRAINT "capp_codes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_codes" ADD CONSTRAINT "capp_codes_collection_id_item_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."item_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_grants" ADD CONSTRAINT "capp_grants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "capp_grants" ADD CONSTRAINT "capp_grants_collection_id_item_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."item_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "capp_codes_request" ON "capp_codes" USING btree ("request_id");