/**
 * Escrow and matching (DESIGN §4, §5): a placement batch's in-memory work on one pair between the lock
 * and the write, and the escrow refunds of cancelled orders. An order's funds leave the member into
 * escrow held for the order (category 20, ledger rows flagged `escrow`, reference = order id) and only
 * leave escrow as trade proceeds and price improvement (22), refunds on cancel (21) or a payout (22).
 */
import { type Amount, AppError, ORDER_STATE, type PlaceOrderInput, TX_CATEGORY } from '@starlight/shared';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { matchingSeconds } from '../../lib/metrics.ts';
import type { BatchBalances, Entry } from '../ledger/ledger.public.ts';
import { pairAmountText } from './exchange.dto.ts';
import { type Book, type BookOrder, buyEscrowFor, type Fill, type MarketRules, matchOrder } from './matching.engine.ts';
import type { OrderRow, PairContext } from './orders.queries.ts';
import type { PairRow } from './pairs.queries.ts';
import type { NewOrder, PlacedOrderWrites } from './placement.queries.ts';

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
function toBookOrder(o: OrderRow): BookOrder {
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

/** Time priority of the batch's own orders on the in-memory book: after every stored order. */
const BATCH_SEQ_BASE = 2 ** 52;

const orderState = (remaining: Amount) => (remaining === 0n ? ORDER_STATE.Filled : ORDER_STATE.Placed);

/** An order the batch accepted, with its trades (by id) and SPEC §8's message (and STP's, see `stpNotice`). */
export interface PlacedAnswer {
  /** The order's place in the batch. */
  index: number;
  order: NewOrder;
  tradeIds: string[];
  note: string;
}

/**
 * A placement batch's orders on one pair, in memory: the resting orders they can reach, the batch's
 * working balances (locked by `findOrderContexts`, shared by the batch's pairs), and what they will
 * write: ledger entries, new orders, resting orders' fills and trades. Orders go in one by one; each
 * sees the book and balances the earlier ones left.
 */
export class OrderBatch {
  /** The ledger entries of every accepted order, in order (none of amount 0). */
  readonly entries: Entry[] = [];
  /** The orders accepted so far, in order. */
  readonly answers: PlacedAnswer[] = [];
  private book: Book;
  /** The pair the batch places on (its answers are written at its precisions). */
  readonly pair: PairRow;
  private readonly rules: MarketRules;
  private readonly balances: BatchBalances;
  private readonly changes: LiveChanges;
  private readonly text: ReturnType<typeof pairAmountText>;
  private readonly restingInitial: Map<string, Amount>;
  private readonly restingChanged = new Map<string, BookOrder>();
  /** Stored resting orders cancelled by self-trade prevention: their final update (state Cancelled). */
  private readonly restingCancelled = new Map<string, PlacedOrderWrites['makers'][number]>();
  private readonly placed = new Map<string, NewOrder>();
  private readonly trades: Array<PlacedOrderWrites['trades'][number]> = [];

  constructor(context: PairContext, balances: BatchBalances, changes: LiveChanges) {
    const { pair, crossing } = context;
    this.pair = pair;
    this.balances = balances;
    this.changes = changes;
    this.rules = { buyPrecision: pair.buyPrecision, sellPrecision: pair.sellPrecision, fee: pair.fee };
    this.text = pairAmountText(pair);
    this.book = {
      buys: crossing.filter((o) => o.buySide).map(toBookOrder),
      sells: crossing.filter((o) => !o.buySide).map(toBookOrder),
    };
    this.restingInitial = new Map(crossing.map((o) => [o.id, o.initialAmount]));
  }

  /**
   * Escrows a checked order's funds (a buy escrows initialAmount x price rounded up to sellCurrency's
   * precision, a sell its initialAmount) and matches it by price-time priority at the resting orders'
   * prices (DESIGN §5): each fill moves the quantity and the cost out of the two escrows (22), the
   * buyer's price improvement back to the buyer (22) and each side's fee to the collector, or burned
   * (23). Resting orders of the same owner it reaches are cancelled instead of traded (self-trade
   * prevention, cancel oldest: `matchOrder`), their escrow returned (21) by `refundOpenOrders` like any
   * cancel, and the answer's note says so. Throws AppError CONFLICT `Insufficient funds`, leaving the
   * batch as it was, when the owner's balance (as the earlier orders left it) does not cover the escrow.
   */
  escrowAndMatch(index: number, ownerId: string, input: Omit<PlaceOrderInput, 'pair'>): void {
    const { pair, text } = this;
    const { initialAmount, price, buySide } = input;
    const escrowCurrency = buySide ? pair.sellCurrency : pair.buyCurrency;
    const escrow = buySide ? buyEscrowFor(initialAmount, price, pair.sellPrecision) : initialAmount;
    // The balance row is locked and holds what earlier orders of the batch left.
    if (!this.balances.covers(ownerId, escrowCurrency, escrow)) throw new AppError('CONFLICT', 'Insufficient funds');

    const orderId = newObjectId();
    const orderText = `${buySide ? 'buy' : 'sell'} order of ${text.buy(initialAmount)} at ${text.sell(price)}`;
    this.post({
      category: TX_CATEGORY.CexOrderSubmitted,
      currencyId: escrowCurrency,
      amount: escrow,
      executorId: ownerId,
      senderId: ownerId,
      recipientId: null,
      escrow: true,
      note: `Escrow for ${orderText}`,
      reference: orderId,
    });
    const incoming: BookOrder = {
      id: orderId,
      ownerId,
      buySide,
      price,
      remaining: initialAmount,
      escrow,
      seq: BATCH_SEQ_BASE + index,
    };
    const stopTimer = matchingSeconds.startTimer();
    const result = matchOrder(this.book, incoming, this.rules);
    stopTimer();
    this.book = result.book;
    this.cancelSelfTrades(result.cancelled, ownerId);
    const tradeIds = result.fills.map((f) => this.recordFill(f, ownerId, buySide));
    // Makers are stored orders or orders of this batch: keep the latest state of each.
    for (const m of result.makers) {
      const own = this.placed.get(m.id);
      if (own) this.placed.set(m.id, withFill(own, m));
      else this.restingChanged.set(m.id, m);
    }
    const order: NewOrder = {
      id: orderId,
      userId: ownerId,
      buySide,
      initialAmount,
      filledAmount: (initialAmount - result.taker.remaining) as Amount,
      price,
      state: orderState(result.taker.remaining),
      escrowRemaining: result.taker.escrow,
    };
    this.placed.set(orderId, order);
    const head = buySide
      ? `Placed a buy order of ${text.buy(initialAmount)} at ${text.sell(price)}`
      : `Placed a Sell Order of ${text.buy(initialAmount)} at ${text.sell(price)}`;
    const filled = order.filledAmount > 0n ? `${head}; ${text.buy(order.filledAmount)} filled at once` : head;
    const note = result.cancelled.length > 0 ? `${filled}; ${this.stpNotice(result.cancelled)}` : filled;
    this.answers.push({ index, order, tradeIds, note });
    this.changes.touchUser(ownerId);
  }

  /** What the batch writes besides the money: its new orders, the resting orders it changed, its trades. */
  writes(): PlacedOrderWrites {
    const pairId = this.pair.id;
    return {
      orders: [...this.placed.values()].map((o) => ({ ...o, pairId })),
      makers: [
        ...[...this.restingChanged.values()]
          .filter((m) => !this.restingCancelled.has(m.id))
          .map((m) => ({
            id: m.id,
            filledAmount: this.filledOf(m),
            escrowRemaining: m.escrow,
            state: orderState(m.remaining),
          })),
        ...this.restingCancelled.values(),
      ],
      trades: this.trades,
    };
  }

  /** What an order on the in-memory book (stored, or of this batch) has filled so far. */
  private filledOf(m: BookOrder): Amount {
    const initial = this.placed.get(m.id)?.initialAmount ?? this.restingInitial.get(m.id) ?? 0n;
    return (initial - m.remaining) as Amount;
  }

  /**
   * Self-trade prevention: cancels the owner's resting orders the engine took off the book (stored ones,
   * or earlier orders of this batch) through `refundOpenOrders`, as a normal cancel: the unfilled escrow
   * back to the owner (category 21), state Cancelled.
   */
  private cancelSelfTrades(cancelled: readonly BookOrder[], ownerId: string): void {
    if (cancelled.length === 0) return;
    const orders = cancelled.map((c) => ({
      id: c.id,
      userId: c.ownerId,
      buySide: c.buySide,
      filledAmount: this.filledOf(c),
      escrowRemaining: c.escrow,
    }));
    const note = 'Order cancelled to prevent a self-trade: escrow returned';
    const { entries, updates } = refundOpenOrders(this.pair, orders, ownerId, note);
    for (const e of entries) this.post(e);
    for (const u of updates) {
      const own = this.placed.get(u.id);
      if (own) this.placed.set(u.id, { ...own, ...u });
      else this.restingCancelled.set(u.id, u);
    }
  }

  /** The answer's note on orders cancelled by self-trade prevention (`your resting buy order at …`). */
  private stpNotice(cancelled: readonly BookOrder[]): string {
    const side = cancelled[0]?.buySide ? 'buy' : 'sell';
    const prices = cancelled.map((c) => this.text.sell(c.price)).join(', ');
    return cancelled.length === 1
      ? `your resting ${side} order at ${prices} was cancelled to prevent a self-trade`
      : `your ${cancelled.length} resting ${side} orders at ${prices} were cancelled to prevent a self-trade`;
  }

  /** Posts a fill's money and records its trade; returns the trade's id. */
  private recordFill(f: Fill, executorId: string, takerBuySide: boolean): string {
    const what = `${this.text.buy(f.quantity)} at ${this.text.sell(f.price)}`;
    for (const e of fillEntries(f, this.pair, executorId, what)) this.post(e);
    const id = newObjectId();
    this.trades.push({
      id,
      pairId: this.pair.id,
      buyOrderId: f.buyOrderId,
      sellOrderId: f.sellOrderId,
      takerBuySide,
      price: f.price,
      amount: f.quantity,
      cost: f.cost,
      buyerFee: f.buyerFee,
      sellerFee: f.sellerFee,
    });
    // The buyer's and seller's orders changed; the ledger's posting names the fee collector of its rows.
    this.changes.touchUser(f.buyerId);
    this.changes.touchUser(f.sellerId);
    return id;
  }

  /** Applies an entry to the working balances, so later orders of the batch see it; drops amount 0. */
  private post(e: Entry): void {
    if (e.amount <= 0n) return;
    this.entries.push(e);
    this.balances.apply(e);
  }
}

/**
 * The ledger rows of one fill (DESIGN §5): the cost from the buy order's escrow to the seller and the
 * quantity from the sell order's escrow to the buyer (category 22), the buyer's price improvement back
 * from escrow (22), and each side's fee on its proceeds to the collector, or burned (23). `what` names
 * the trade in the notes ("2.00 SD at 1.50 SN"). Rows of amount 0 are left to the caller to drop.
 */
function fillEntries(f: Fill, pair: PairRow, executorId: string, what: string): Entry[] {
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
function withFill(order: NewOrder, maker: BookOrder): NewOrder {
  const filledAmount = (order.initialAmount - maker.remaining) as Amount;
  return {
    ...order,
    filledAmount,
    escrowRemaining: maker.escrow,
    state: maker.remaining === 0n ? ORDER_STATE.Filled : ORDER_STATE.Placed,
  };
}
