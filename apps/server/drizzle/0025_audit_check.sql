CREATE TABLE "audit_check" (
	"id" integer PRIMARY KEY NOT NULL,
	"checked_at" timestamp with time zone NOT NULL,
	"watermark" timestamp with time zone,
	"ledger_rows" bigint NOT NULL,
	"full" boolean DEFAULT false NOT NULL,
	"currencies" jsonb NOT NULL
);
