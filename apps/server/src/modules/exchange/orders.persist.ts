/** Writing a placement batch (DESIGN §5, §9): its money, orders, fills and trades in one statement. */
import type { PlaceOrderResponse } from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { postEntries } from '../ledger/ledger.public.ts';
import { toOrderDto, toTradeDto } from './exchange.dto.ts';
import type { OrderBatch } from './orders.escrow.ts';
import { type PlacedOrderResult, parsePlacedOrders, placedOrderWrites } from './orders.queries.ts';

/**
 * Writes `batch` in the caller's transaction `tx` as ONE statement: the ledger posts its entries and the
 * same statement inserts the new orders (their `seq` assigned under the pair's lock), updates the resting
 * orders it filled and inserts its trades. Answers each accepted order's response, by its place in the
 * batch: `{order, trades, tx:{note}, message}` as stored. Throws AppError CONFLICT `Insufficient funds`
 * (cannot happen after the batch's own checks) or a database error; the caller's transaction rolls back.
 */
export async function persistOrderBatch(
  tx: Tx,
  batch: OrderBatch,
  changes: LiveChanges,
): Promise<Array<{ index: number; response: PlaceOrderResponse }>> {
  const writes = batch.writes();
  const row = await postEntries<PlacedOrderResult>(tx, batch.entries, changes, placedOrderWrites(writes));
  const stored = parsePlacedOrders(writes, row);
  const tradeById = new Map(writes.trades.map((t) => [t.id, t]));
  return batch.answers.map(({ index, order, tradeIds, note }) => {
    const at = stored.get(order.id);
    if (!at) throw new Error(`order ${order.id} was not stored`);
    const trades = tradeIds.map((id) => {
      const t = tradeById.get(id);
      const tAt = stored.get(id);
      if (!t || !tAt) throw new Error(`trade ${id} was not stored`);
      return toTradeDto(
        {
          id,
          pairId: writes.pairId,
          takerBuySide: t.takerBuySide,
          price: t.price,
          amount: t.amount,
          ...tAt,
        },
        batch.pair,
      );
    });
    const response = {
      order: toOrderDto({ ...order, pairId: writes.pairId, ...at }, batch.pair),
      trades,
      tx: { note },
      message: note,
    };
    return { index, response };
  });
}
