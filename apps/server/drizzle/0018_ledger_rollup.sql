CREATE TABLE "ledger_audit_baseline" (
	"id" integer PRIMARY KEY NOT NULL,
	"tup_upd" bigint NOT NULL,
	"tup_del" bigint NOT NULL,
	"stats_reset" timestamp with time zone,
	"relfilenode" bigint NOT NULL,
	"recounted_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_rollup" (
	"grain" text NOT NULL,
	"bucket" timestamp with time zone NOT NULL,
	"currency_id" integer NOT NULL,
	"category" integer NOT NULL,
	"n" bigint NOT NULL,
	"total" numeric NOT NULL,
	"issued" numeric NOT NULL,
	"removed" numeric NOT NULL,
	"escrow_in" numeric NOT NULL,
	"escrow_out" numeric NOT NULL,
	CONSTRAINT "ledger_rollup_grain_bucket_currency_id_category_pk" PRIMARY KEY("grain","bucket","currency_id","category"),
	CONSTRAINT "ledger_rollup_grain" CHECK ("ledger_rollup"."grain" IN ('hour', 'day', 'all'))
);
--> statement-breakpoint
CREATE TABLE "ledger_rollup_state" (
	"id" integer PRIMARY KEY NOT NULL,
	"watermark" timestamp with time zone NOT NULL,
	"heap_blocks" bigint NOT NULL,
	"relfilenode" bigint NOT NULL,
	"backdated" bigint DEFAULT 0 NOT NULL,
	"backdated_id" text,
	"built_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ledger_rollup_currency" ON "ledger_rollup" USING btree ("currency_id","grain","bucket");