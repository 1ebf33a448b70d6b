-- Issue 20: the ledger's index on (currency_id, category) served the currency stats when they summed the
-- ledger itself; they read the rollup now (ledger_rollup, issue 19), and every query that filters the ledger
-- by currency also bounds its time (the rollup's tail, `bank_tx_created`) or its party (the party indexes,
-- which INCLUDE currency_id). Each ledger row still paid for its entry: one index of nine.
DROP INDEX IF EXISTS "bank_tx_currency_category";
