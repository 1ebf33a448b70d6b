CREATE TABLE "broadcasts" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"role" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" char(24) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_reads" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"broadcasts_read_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"user_id" char(24) PRIMARY KEY NOT NULL,
	"email" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notifications" (
	"id" char(24) PRIMARY KEY NOT NULL,
	"user_id" char(24) NOT NULL,
	"kind" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"link" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "broadcasts_created" ON "broadcasts" USING btree ("created_at");--> statement-breakpoint
-- INCLUDE by hand (drizzle has none): the unread count reads the index, not each row.
CREATE INDEX "notifications_user_newest" ON "notifications" USING btree ("user_id","created_at","id") INCLUDE ("read_at");