-- The ledger is append-only (DESIGN §4): a row, once written, is never changed or removed. The database
-- refuses it whoever asks, so no code path (or hand-typed SQL) can rewrite history.
CREATE FUNCTION bank_transactions_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'bank_transactions is append-only: % refused', TG_OP
    USING ERRCODE = 'restrict_violation';
END;
$$;--> statement-breakpoint
CREATE TRIGGER bank_transactions_no_update_delete
  BEFORE UPDATE OR DELETE ON bank_transactions
  FOR EACH ROW EXECUTE FUNCTION bank_transactions_append_only();--> statement-breakpoint
CREATE TRIGGER bank_transactions_no_truncate
  BEFORE TRUNCATE ON bank_transactions
  FOR EACH STATEMENT EXECUTE FUNCTION bank_transactions_append_only();
