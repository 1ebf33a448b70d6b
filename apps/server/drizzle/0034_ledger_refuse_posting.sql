-- Issue 20: a posting whose debit hits a balance that has no row fails as a statement, as an overdraft does
-- (`balances_amount_nonnegative`), instead of answering `ok = false`. A batch of group commit sends its
-- COMMIT right behind its posting, so a posting that wrote nothing must abort the transaction itself: the
-- COMMIT then rolls back whatever the batch wrote before it.
CREATE OR REPLACE FUNCTION ledger_refuse_posting() RETURNS boolean LANGUAGE plpgsql VOLATILE AS $$
BEGIN
  RAISE EXCEPTION 'Insufficient funds: a debit of a balance that has no row'
    USING ERRCODE = 'check_violation', CONSTRAINT = 'balances_amount_nonnegative';
END
$$;
