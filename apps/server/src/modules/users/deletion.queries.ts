/**
 * SQL of account deletion (DESIGN §11.6): what an account still holds, and its anonymisation.
 * Reads other modules' tables: `balances` and `currencies` (the ledger's and the bank's: a balance above
 * zero names its currency), `exchange_orders` (the exchange's: an open order holds escrow),
 * `forge_processes` (the forge's: a running process), `market_listings` (the market's: an open listing),
 * and `users` (the accounts module's: the row this module anonymises).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/** What stands in the way of deleting an account: balances above zero, open orders, running forge processes, open listings. */
export interface Holdings {
  balances: { symbol: string; amount: string }[];
  openOrders: number;
  runningProcesses: number;
  openListings: number;
}

/** The account's holdings that refuse its deletion, read in `db`'s transaction (after its row is locked). */
export async function findHoldings(db: DbOrTx, userId: string): Promise<Holdings> {
  const balances = await db.execute<{ symbol: string; amount: string }>(sql`
    SELECT c.ticker AS symbol, b.amount::text AS amount
      FROM balances b JOIN currencies c ON c.currency_id = b.currency_id
     WHERE b.user_id = ${userId} AND b.amount > 0
     ORDER BY c.ticker`);
  const [counts] = (
    await db.execute<{ orders: number; processes: number; listings: number }>(sql`
      SELECT (SELECT count(*) FROM exchange_orders o WHERE o.user_id = ${userId} AND o.state IN (1, 5))::int AS orders,
             (SELECT count(*) FROM forge_processes f WHERE f.user_id = ${userId} AND f.state = 1)::int AS processes,
             (SELECT count(*) FROM market_listings l WHERE l.seller_id = ${userId} AND l.state = 'open')::int AS listings`)
  ).rows;
  return {
    balances: balances.rows,
    openOrders: counts?.orders ?? 0,
    runningProcesses: counts?.processes ?? 0,
    openListings: counts?.listings ?? 0,
  };
}

/** Locks the account's row for the deletion (a concurrent deposit or order waits, then sees it inactive). */
export async function lockAccount(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`SELECT 1 FROM users WHERE id = ${userId} FOR UPDATE`);
}

/**
 * Anonymises an account (DESIGN §11.6): nickname `deleted-<id>`, no e-mail, wallet or password, inactive,
 * private, and a new token version so every token it signed is refused. Its ledger rows stay.
 */
export async function anonymiseAccount(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`
    UPDATE users
       SET nickname = 'deleted-' || id, email = NULL, password_hash = NULL, primary_wallet = NULL,
           is_email_verified = false, is_active = false, is_anonymous = true,
           token_version = token_version + 1, updated_at = now()
     WHERE id = ${userId}`);
}
