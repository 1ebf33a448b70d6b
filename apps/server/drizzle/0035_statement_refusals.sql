-- Issue 20: a batch's last statement (the ledger's posting) goes out with its COMMIT behind it, in the same
-- round trip, so whatever should refuse the batch must make that statement fail: a COMMIT behind a failed
-- statement answers ROLLBACK, one behind a statement that only reported a problem commits. The posting
-- calls this where it used to answer a flag its caller checked (a debit of a balance with no row, a
-- resting order changed under the pair lock). Raises `errcode` (a SQLSTATE or condition name) naming
-- `constraint_name`, with `message`, unless `ok` is true; returns true.
CREATE FUNCTION statement_refuse_unless(ok boolean, errcode text, constraint_name text, message text)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF ok IS NOT TRUE THEN
    RAISE EXCEPTION USING ERRCODE = errcode, CONSTRAINT = constraint_name, MESSAGE = message;
  END IF;
  RETURN true;
END $$;
