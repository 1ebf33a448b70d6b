/** SQL tests of what an account holds, in the ledger's `balances`, for other modules' statements. */
import { sql } from 'drizzle-orm';

/**
 * `EXISTS` a positive balance of the account aliased `u` in the enclosing statement (the primary key's
 * `user_id` prefix: a few rows). The user list's `hasCurrency` and the user stats' `haveCurrency` (what
 * `user_holdings` keeps) both ask it, so the two always agree.
 */
export const HAS_CURRENCY = sql`EXISTS (SELECT 1 FROM balances b WHERE b.user_id = u.id AND b.amount > 0)`;
