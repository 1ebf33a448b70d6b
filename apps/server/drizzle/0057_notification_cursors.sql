CREATE TABLE "notification_cursors" (
	"name" text PRIMARY KEY NOT NULL,
	"until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "notifications_deferred_due" ON "notifications" USING btree ("created_at") WHERE "notifications"."kind" = 'forge_ready';