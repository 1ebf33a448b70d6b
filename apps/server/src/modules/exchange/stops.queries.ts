/** SQL of stop-limit orders (DESIGN §11.4): the waiting stops a pair's trades trigger, and their placing. */
import { type Amount, formatAmount } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { exchangeOrders } from '../../db/schema/index.ts';
import { type OrderRow, toOrderRow } from './orders.queries.ts';

/** What one pair's trades reach: the highest and lowest trade price (null: no trade on it). */
export interface PrintRange {
  pairId: string;
  high: Amount;
  low: Amount;
}

/**
 * The Untriggered stop-limit orders a trade within each range could trigger (DESIGN §11.4): on each pair,
 * the buys whose stop price is at or under its `high` and the sells whose stop price is at or over its
 * `low`, read through `exchange_orders_stops` (pair, side, stop price; state 5), never a scan. Call under
 * the pairs' locks; which of them a trade printed after them triggers is `triggeredStops`' to say.
 */
export async function findReachedStops(tx: Tx, ranges: readonly PrintRange[]): Promise<OrderRow[]> {
  if (ranges.length === 0) return [];
  const col = (f: (r: PrintRange) => string) => pgArray(ranges.map(f));
  const res = await tx.execute<typeof exchangeOrders.$inferSelect>(sql`
    SELECT o.id, o.seq, o.pair_id AS "pairId", o.user_id AS "userId", o.buy_side AS "buySide",
           o.initial_amount AS "initialAmount", o.filled_amount AS "filledAmount", o.price, o.state,
           o.escrow_remaining AS "escrowRemaining", o.type, o.time_in_force AS "timeInForce",
           o.post_only AS "postOnly", o.stop_price AS "stopPrice", o.expires_at AS "expiresAt",
           o.expired, o.created_at AS "createdAt", o.updated_at AS "updatedAt"
      FROM unnest(${col((r) => r.pairId)}::bpchar[], ${col((r) => formatAmount(r.high))}::numeric[],
                  ${col((r) => formatAmount(r.low))}::numeric[]) AS r(pair_id, high, low)
      CROSS JOIN LATERAL (
        SELECT * FROM exchange_orders o
         WHERE o.pair_id = r.pair_id AND o.buy_side AND o.state = 5 AND o.stop_price <= r.high
        UNION ALL
        SELECT * FROM exchange_orders o
         WHERE o.pair_id = r.pair_id AND NOT o.buy_side AND o.state = 5 AND o.stop_price >= r.low) o
     ORDER BY o.seq`);
  return res.rows.map((r) =>
    toOrderRow({ ...r, expiresAt: dateOrNull(r.expiresAt), createdAt: new Date(r.createdAt) }),
  );
}

function dateOrNull(d: Date | string | null): Date | null {
  return d === null ? null : new Date(d);
}

/**
 * Writes a triggered stop-limit order as its matching left it: state, fill and escrow, and a new `seq`,
 * so its time priority starts when it was triggered (DESIGN §11.4). One statement per order, in the order
 * they were triggered, so their `seq` follow that order. Throws when the order is no longer Untriggered
 * (impossible under the pair's lock).
 */
export async function markTriggered(
  tx: Tx,
  o: { id: string; filledAmount: Amount; escrowRemaining: Amount; state: number },
): Promise<void> {
  const res = await tx.execute(sql`
    UPDATE exchange_orders
       SET seq = DEFAULT, state = ${o.state}, filled_amount = ${formatAmount(o.filledAmount)}::numeric,
           escrow_remaining = ${formatAmount(o.escrowRemaining)}::numeric, updated_at = now()
     WHERE id = ${o.id} AND state = 5`);
  if (res.rowCount !== 1) throw new Error(`stop-limit order ${o.id} was not Untriggered`);
}
