CREATE TABLE "leaderboard_blocks" (
	"currency_id" integer NOT NULL,
	"start_neg" numeric NOT NULL,
	"start_user" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "leaderboard_blocks_currency_id_start_neg_start_user_pk" PRIMARY KEY("currency_id","start_neg","start_user")
);
