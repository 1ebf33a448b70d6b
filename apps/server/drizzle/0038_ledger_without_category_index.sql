-- Issue 20: the ledger's (category, created_at, id) index goes: each ledger row wrote nine index entries,
-- the ledger's insert was 60% of a batch of orders' posting statement. The Tnx Logs' category filter
-- without a party or a currency now reads one range per currency of (currency_id, category, created_at, id)
-- (migration 0037), merged (transactions-list.queries.ts); nothing else read this index.
DROP INDEX "bank_tx_category";