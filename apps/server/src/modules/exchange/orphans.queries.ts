/**
 * SQL of the full audit's check of the exchange's tables (migration 0036). Reads other modules' tables:
 * `users` (every order names a member).
 */
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';

/**
 * The full audit's check of what the exchange's tables no longer have foreign keys for (migration 0036):
 * how many of the orders' references (pair, member) and of the trades' (pair, buy order, sell order) name a
 * row that does not exist (a row with two such references counts twice). One anti-join per reference (an
 * OR of them planned a lookup per row, several times slower on millions of orders and trades; the full
 * recount's cost, not a request's).
 */
export async function countOrphanExchangeRows(db: DbOrTx): Promise<{ orders: number; trades: number }> {
  const res = await db.execute<{ orders: number; trades: number }>(sql`
    SELECT
      (SELECT count(*) FROM exchange_orders o WHERE NOT EXISTS (SELECT 1 FROM exchange_pairs p WHERE p.id = o.pair_id))
      + (SELECT count(*) FROM exchange_orders o WHERE NOT EXISTS (SELECT 1 FROM users u WHERE u.id = o.user_id))
        AS orders,
      (SELECT count(*) FROM exchange_trades t WHERE NOT EXISTS (SELECT 1 FROM exchange_pairs p WHERE p.id = t.pair_id))
      + (SELECT count(*) FROM exchange_trades t
          WHERE NOT EXISTS (SELECT 1 FROM exchange_orders o WHERE o.id = t.buy_order_id))
      + (SELECT count(*) FROM exchange_trades t
          WHERE NOT EXISTS (SELECT 1 FROM exchange_orders o WHERE o.id = t.sell_order_id))
        AS trades`);
  const r = res.rows[0];
  return { orders: Number(r?.orders ?? 0), trades: Number(r?.trades ?? 0) };
}
