CREATE TABLE "leaderboard_entries" (
	"currency_id" integer NOT NULL,
	"user_id" char(24) NOT NULL,
	"amount" numeric(38, 9) NOT NULL,
	CONSTRAINT "leaderboard_entries_currency_id_user_id_pk" PRIMARY KEY("currency_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "leaderboard_state" (
	"store" text PRIMARY KEY NOT NULL,
	"mark" timestamp with time zone NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "leaderboard_entries_rank" ON "leaderboard_entries" USING btree ("currency_id","amount" DESC,"user_id");--> statement-breakpoint
CREATE INDEX "users_updated_at" ON "users" USING btree ("updated_at");