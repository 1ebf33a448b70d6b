/** Writing a placement batch (DESIGN §5, §9): its money, orders, fills and trades in one statement. */
import type { PlaceOrderResponse } from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { postEntries } from '../ledger/ledger.public.ts';
import { insertNotificationsAlong } from '../notifications/notifications.public.ts';
import { toOrderDto, toTradeDto } from './exchange.dto.ts';
import type { OrderBatch } from './orders.escrow.ts';
import {
  type PlacedOrderResult,
  type PlacedOrderWrites,
  parsePlacedOrders,
  placedOrderWrites,
} from './placement.queries.ts';

/**
 * Writes a placement batch, its orders on each pair in `batches`, in the caller's transaction `tx` as ONE
 * statement: the ledger posts their entries and the same statement inserts the new orders (their `seq`
 * assigned under the pairs' locks), updates the resting orders they filled, inserts their trades and
 * one order_filled notification per order its trades filled (DESIGN §11.3).
 * Answers each accepted order's response, by its place in the batch: `{order, trades, tx:{note},
 * message}` as stored. Throws AppError CONFLICT `Insufficient funds` (cannot happen after the batch's own
 * checks) or a database error; the caller's transaction rolls back.
 */
export async function persistOrderBatches(
  tx: Tx,
  batches: readonly OrderBatch[],
  changes: LiveChanges,
): Promise<Array<{ index: number; response: PlaceOrderResponse }>> {
  const parts = batches.map((b) => b.writes());
  // Orders and trades keep the batch's arrival order across its pairs (their `seq` follows it): by the
  // place of the order, or of the trade's taker, in the batch (a stable sort keeps each one's own order).
  const arrival = new Map(batches.flatMap((b) => b.answers.map((a) => [a.order.id, a.index] as const)));
  const arrivalOf = (orderId: string) => arrival.get(orderId) ?? -1;
  const writes: PlacedOrderWrites = {
    orders: parts.flatMap((w) => w.orders).sort((a, b) => arrivalOf(a.id) - arrivalOf(b.id)),
    makers: parts.flatMap((w) => w.makers),
    trades: parts
      .flatMap((w) => w.trades)
      .map((t) => ({ t, taker: arrivalOf(t.takerBuySide ? t.buyOrderId : t.sellOrderId) }))
      .sort((a, b) => a.taker - b.taker)
      .map(({ t }) => t),
  };
  const entries = batches.flatMap((b) => b.entries);
  // The owner of each order the batch filled hears of it (order_filled) from the same statement.
  const notified = insertNotificationsAlong(batches.flatMap((b) => b.notices()));
  const row = await postEntries<PlacedOrderResult>(tx, entries, changes, placedOrderWrites(writes, notified));
  changes.touchNotifications(notified.ids);
  const stored = parsePlacedOrders(row);
  const tradeById = new Map(writes.trades.map((t) => [t.id, t]));
  return batches.flatMap((batch) =>
    batch.answers.map(({ index, order, tradeIds, note }) => {
      const pairId = batch.pair.id;
      const at = stored.get(order.id);
      if (!at) throw new Error(`order ${order.id} was not stored`);
      const trades = tradeIds.map((id) => {
        const t = tradeById.get(id);
        const tAt = stored.get(id);
        if (!t || !tAt) throw new Error(`trade ${id} was not stored`);
        return toTradeDto(
          { id, pairId, takerBuySide: t.takerBuySide, price: t.price, amount: t.amount, ...tAt },
          batch.pair,
        );
      });
      const response = {
        order: toOrderDto({ ...order, pairId, ...at }, batch.pair),
        trades,
        tx: { note },
        message: note,
      };
      return { index, response };
    }),
  );
}
