CREATE TABLE "trade_candles" (
	"pair_id" text NOT NULL,
	"width" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"open_seq" bigint NOT NULL,
	"open" numeric NOT NULL,
	"high" numeric NOT NULL,
	"low" numeric NOT NULL,
	"close_seq" bigint NOT NULL,
	"close" numeric NOT NULL,
	"volume" numeric NOT NULL,
	"n" bigint NOT NULL,
	CONSTRAINT "trade_candles_pair_id_width_bucket_pk" PRIMARY KEY("pair_id","width","bucket")
);
--> statement-breakpoint
CREATE TABLE "trade_candles_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone NOT NULL,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
