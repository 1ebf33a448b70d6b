-- Issue 20: the ledger's rows no longer carry foreign keys. Each key made PostgreSQL check every inserted
-- row against users or currencies and take a KEY SHARE lock on the row it names (a write to that row, and
-- a multixact when two transactions name it), four times per ledger row: inserting 32-row batches ran at
-- 381-456 statements/s with the keys against 638-670 without (pgbench, 4 clients), and the money paths'
-- PostgreSQL CPU per operation fell 10-25% in `make bench`.
-- What still keeps a row's parties and currency real: users and currencies are never deleted, and the
-- ledger writes a row only with the balance change of its sender and recipient in the same statement
-- (ledger.posting.ts), whose `balances` row references the user and the currency (a credit to nobody or in
-- no currency fails on `balances`' keys; a debit of nobody finds no balance and is refused); the executor is
-- the signed-in caller. A row typed in by hand that names nobody is found by the full audit's `balances`
-- check (every (member, currency) of the ledger against its balance, a FULL JOIN).
ALTER TABLE "bank_transactions" DROP CONSTRAINT "bank_transactions_currency_id_currencies_currency_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_transactions" DROP CONSTRAINT "bank_transactions_executor_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_transactions" DROP CONSTRAINT "bank_transactions_sender_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "bank_transactions" DROP CONSTRAINT "bank_transactions_recipient_id_users_id_fk";
