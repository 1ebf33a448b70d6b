ALTER TABLE "broadcasts" ADD COLUMN "mail_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "broadcasts" ADD COLUMN "mailed_until" char(24);--> statement-breakpoint
CREATE INDEX "broadcasts_mail_due" ON "broadcasts" USING btree ("created_at") WHERE "broadcasts"."mail_pending";--> statement-breakpoint
CREATE INDEX "notification_settings_mail_broadcast" ON "notification_settings" USING btree ("user_id") WHERE ("notification_settings"."email" ->> 'broadcast')::boolean;--> statement-breakpoint
CREATE INDEX "notification_settings_mail_alert_level" ON "notification_settings" USING btree ("user_id") WHERE ("notification_settings"."email" ->> 'alert_level')::boolean;