/**
 * The money of the exchange's orders outside matching (DESIGN §4, §5): the ledger rows of a fill, the
 * refunds of cancelled orders, and how a stored or batch order appears to the matching engine.
 */
import { type Amount, ORDER_STATE, TX_CATEGORY } from '@starlight/shared';
import type { Entry } from '../ledger/ledger.public.ts';
import type { BookOrder, Fill } from './matching.engine.ts';
import type { CrossingOrder, OrderRow } from './orders.queries.ts';
import type { PairRow } from './pairs.queries.ts';
import type { NewOrder } from './placement.queries.ts';

/** What cancelling an order needs to know of it. */
export type CancellableOrder = Pick<OrderRow, 'id' | 'userId' | 'buySide' | 'filledAmount' | 'escrowRemaining'>;

/**
 * Cancels `orders` of `pair`: the ledger rows returning each one's remaining escrow to its owner
 * (category 21, `note` on each) and the order updates (state Cancelled, no escrow left) to write.
 * The one path of every cancel: by its owner or an admin, a deleted pair, self-trade prevention.
 */
export function refundOpenOrders(pair: PairRow, orders: readonly CancellableOrder[], executorId: string, note: string) {
  const entries: Entry[] = [];
  for (const o of orders) {
    if (o.escrowRemaining <= 0n) continue;
    entries.push({
      category: TX_CATEGORY.CexOrderCancelled,
      currencyId: o.buySide ? pair.sellCurrency : pair.buyCurrency,
      amount: o.escrowRemaining,
      executorId,
      senderId: null,
      recipientId: o.userId,
      escrow: true,
      note,
      reference: o.id,
    });
  }
  const updates = orders.map((o) => ({
    id: o.id,
    filledAmount: o.filledAmount,
    escrowRemaining: 0n as Amount,
    state: ORDER_STATE.Cancelled,
  }));
  return { entries, updates };
}

/** A resting order as the matching engine sees it. */
export function toBookOrder(o: CrossingOrder): BookOrder {
  return {
    id: o.id,
    ownerId: o.userId,
    buySide: o.buySide,
    price: o.price,
    remaining: (o.initialAmount - o.filledAmount) as Amount,
    escrow: o.escrowRemaining,
    seq: o.seq,
  };
}

/**
 * The ledger rows of one fill (DESIGN §5): the cost from the buy order's escrow to the seller and the
 * quantity from the sell order's escrow to the buyer (category 22), the buyer's price improvement back
 * from escrow (22), and each side's fee on its proceeds to the collector, or burned (23). `what` names
 * the trade in the notes ("2.00 SD at 1.50 SN"). Rows of amount 0 are left to the caller to drop.
 */
export function fillEntries(f: Fill, pair: PairRow, executorId: string, what: string): Entry[] {
  const fromEscrow = { executorId, senderId: null, escrow: true, category: TX_CATEGORY.CexTradeExecuted };
  const fee = {
    executorId,
    category: TX_CATEGORY.CexFeesPaid,
    recipientId: pair.feeCollectorId,
    note: `Exchange fee on ${what}`,
  };
  return [
    {
      ...fromEscrow,
      currencyId: pair.sellCurrency,
      amount: f.cost,
      recipientId: f.sellerId,
      note: `Sold ${what}`,
      reference: f.buyOrderId,
    },
    {
      ...fromEscrow,
      currencyId: pair.buyCurrency,
      amount: f.quantity,
      recipientId: f.buyerId,
      note: `Bought ${what}`,
      reference: f.sellOrderId,
    },
    {
      ...fromEscrow,
      currencyId: pair.sellCurrency,
      amount: f.buyerRefund,
      recipientId: f.buyerId,
      note: 'Escrow returned: price improvement',
      reference: f.buyOrderId,
    },
    { ...fee, currencyId: pair.buyCurrency, amount: f.buyerFee, senderId: f.buyerId, reference: f.buyOrderId },
    { ...fee, currencyId: pair.sellCurrency, amount: f.sellerFee, senderId: f.sellerId, reference: f.sellOrderId },
  ];
}

/** A batch order after a later order of the same batch filled it (more). */
export function withFill(order: NewOrder, maker: BookOrder): NewOrder {
  const filledAmount = (order.initialAmount - maker.remaining) as Amount;
  return {
    ...order,
    filledAmount,
    escrowRemaining: maker.escrow,
    state: maker.remaining === 0n ? ORDER_STATE.Filled : ORDER_STATE.Placed,
  };
}
