ALTER TABLE "ledger_rollup" DROP CONSTRAINT "ledger_rollup_grain";--> statement-breakpoint
ALTER TABLE "ledger_rollup" ADD CONSTRAINT "ledger_rollup_grain" CHECK ("ledger_rollup"."grain" IN ('minute', 'hour', 'day', 'all'));--> statement-breakpoint
-- Issue 19 §2: the rollup keeps minutes for recent hours (the last three days), so a range that starts or
-- ends within the hour (currency stats up to now) sums the ledger for at most a minute at each end, and a
-- deep page of Tnx Logs walks at most a minute's rows, where a busy hour held 340,000. Minutes of the
-- hours already counted are filled here from the ledger's time index.
INSERT INTO "ledger_rollup" ("grain", "bucket", "currency_id", "category", "n", "total", "issued", "removed", "escrow_in", "escrow_out")
SELECT 'minute', date_bin('1 minute'::interval, created_at, TIMESTAMPTZ '1970-01-01 00:00:00+00'), currency_id, category,
  count(*), coalesce(sum(amount), 0),
  coalesce(sum(amount) FILTER (WHERE sender_id IS NULL AND NOT escrow), 0),
  coalesce(sum(amount) FILTER (WHERE recipient_id IS NULL AND NOT escrow), 0),
  coalesce(sum(amount) FILTER (WHERE recipient_id IS NULL AND escrow), 0),
  coalesce(sum(amount) FILTER (WHERE sender_id IS NULL AND escrow), 0)
FROM "bank_transactions"
WHERE created_at >= date_bin('1 hour'::interval, (SELECT watermark FROM "ledger_rollup_state" WHERE id = 1) - '3 days'::interval,
                             TIMESTAMPTZ '1970-01-01 00:00:00+00')
  AND created_at < (SELECT watermark FROM "ledger_rollup_state" WHERE id = 1)
GROUP BY 2, 3, 4;
