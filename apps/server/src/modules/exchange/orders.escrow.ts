/**
 * Escrow and matching (DESIGN §4, §5, §11.4): a placement batch's in-memory work on one pair between the
 * lock and the write, new orders and triggered stop-limit orders alike. An order's funds leave the member into
 * escrow held for the order (category 20, ledger rows flagged `escrow`, reference = order id) and only
 * leave escrow as trade proceeds and price improvement (22), refunds on cancel (21) or a payout (22).
 */
import { type Amount, AppError, ORDER_STATE, TX_CATEGORY } from '@starlight/shared';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import { matchingSeconds } from '../../lib/metrics.ts';
import type { BatchBalances, Entry } from '../ledger/ledger.public.ts';
import type { NewNotification } from '../notifications/notifications.public.ts';
import { pairAmountText } from './exchange.dto.ts';
import {
  type Book,
  type BookOrder,
  buyEscrowFor,
  type Fill,
  type MarketRules,
  type MatchResult,
  matchOrder,
} from './matching.engine.ts';
import { type Print, triggeredStops } from './matching.stops.ts';
import { fillEntries, refundOpenOrders, toBookOrder, withFill } from './orders.money.ts';
import { addFill, averagePrice, type FillTally, filledNotice, placedHead, stpNotice } from './orders.notes.ts';
import type { OrderRow, PairContext } from './orders.queries.ts';
import type { OrderInput } from './orders.validate.ts';
import type { PairRow } from './pairs.queries.ts';
import type { NewOrder, PlacedOrderWrites } from './placement.queries.ts';

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
  /** The pair's nearest waiting stops when the batch began (`PairContext.stops`). */
  private readonly stops: PairContext['stops'];
  private readonly balances: BatchBalances;
  private readonly changes: LiveChanges;
  private readonly text: ReturnType<typeof pairAmountText>;
  private readonly restingInitial: Map<string, Amount>;
  private readonly restingChanged = new Map<string, BookOrder>();
  /** Stored resting orders cancelled by self-trade prevention: their final update (state Cancelled). */
  private readonly restingCancelled = new Map<string, PlacedOrderWrites['makers'][number]>();
  private readonly placed = new Map<string, NewOrder>();
  /** Stop-limit orders (stored, state Untriggered) this batch placed on the book by `trigger`. */
  private readonly triggered = new Set<string>();
  /** The place in the batch of the order whose matching printed each trade, by trade id. */
  private readonly printedAt = new Map<string, number>();
  private readonly trades: Array<PlacedOrderWrites['trades'][number]> = [];
  /** What the batch's trades filled of each resting order and triggered stop (`notices`), by order id. */
  private readonly filled = new Map<string, FillTally>();

  constructor(context: PairContext, balances: BatchBalances, changes: LiveChanges) {
    const { pair, crossing, stops } = context;
    this.pair = pair;
    this.stops = stops;
    this.balances = balances;
    this.changes = changes;
    this.rules = {
      buyPrecision: pair.buyPrecision,
      sellPrecision: pair.sellPrecision,
      makerFee: pair.makerFee,
      takerFee: pair.takerFee,
    };
    this.text = pairAmountText(pair);
    this.book = {
      buys: crossing.filter((o) => o.buySide).map(toBookOrder),
      sells: crossing.filter((o) => !o.buySide).map(toBookOrder),
    };
    this.restingInitial = new Map(crossing.map((o) => [o.id, o.initialAmount]));
  }

  /**
   * Escrows a checked order's funds (a limit or stop-limit buy escrows initialAmount x price rounded up to
   * sellCurrency's precision, a market buy all the sellCurrency its owner holds, a sell its initialAmount)
   * and matches it by price-time priority at the resting orders' prices (DESIGN §5, §11.4): each fill moves
   * the quantity and the cost out of the two escrows (22), the buyer's price improvement back to the buyer
   * (22) and each side's fee (the maker's or the taker's) to the collector, or burned (23). Resting orders
   * of the same owner it reaches are cancelled instead of traded (self-trade prevention, cancel oldest:
   * `matchOrder`), their escrow returned (21) like any cancel, and the answer's note says so. A market, IOC
   * or FOK order's unfilled rest is cancelled at once and its unused escrow returned (21). A stop-limit
   * order only escrows: it waits off the book in state Untriggered (`trigger` places it). Throws AppError
   * CONFLICT, leaving the batch as it was: `Insufficient funds` (the owner's balance, as the earlier orders
   * left it, does not cover the escrow), `No orders to match` (a market order, no other member's order to
   * trade with), `Order could not be filled in full` (FOK), `Order would take liquidity` (postOnly).
   */
  escrowAndMatch(index: number, ownerId: string, input: Omit<OrderInput, 'pair'>): void {
    const { pair, text } = this;
    const { initialAmount, buySide, type = 'limit', timeInForce = 'GTC', postOnly = false } = input;
    const market = type === 'market';
    const price = (input.price ?? 0n) as Amount;
    const escrowCurrency = buySide ? pair.sellCurrency : pair.buyCurrency;
    const held = this.balances.of(ownerId, escrowCurrency);
    const escrow = buySide ? (market ? held : buyEscrowFor(initialAmount, price, pair.sellPrecision)) : initialAmount;
    const opposite = buySide ? this.book.sells : this.book.buys;
    if (market && !opposite.some((o) => o.ownerId !== ownerId)) throw new AppError('CONFLICT', 'No orders to match');
    // The balance row is locked and holds what earlier orders of the batch left.
    if (escrow <= 0n || held < escrow) throw new AppError('CONFLICT', 'Insufficient funds');

    const stop = type === 'stop_limit';
    const order: NewOrder = {
      id: newObjectId(),
      userId: ownerId,
      buySide,
      initialAmount,
      filledAmount: 0n as Amount,
      price,
      state: stop ? ORDER_STATE.Untriggered : ORDER_STATE.Placed,
      escrowRemaining: escrow,
      type,
      timeInForce,
      postOnly,
      stopPrice: input.stopPrice ?? null,
      expiresAt: input.expiresAt === undefined ? null : new Date(input.expiresAt),
      expired: false,
    };
    // Pure: nothing of the batch changes until the order passes the checks on its result.
    const result = stop ? null : this.match(order, index, market);
    const sideText = `${market ? 'market ' : stop ? 'stop-limit ' : ''}${buySide ? 'buy' : 'sell'} order of ${text.buy(initialAmount)}`;
    this.post({
      category: TX_CATEGORY.CexOrderSubmitted,
      currencyId: escrowCurrency,
      amount: escrow,
      executorId: ownerId,
      senderId: ownerId,
      recipientId: null,
      escrow: true,
      note: `Escrow for ${sideText}${market ? '' : ` at ${text.sell(price)}`}`,
      reference: order.id,
    });
    const head = placedHead(text, buySide, market, initialAmount, price);
    if (!result) {
      this.placed.set(order.id, order);
      const when = `${buySide ? 'at or above' : 'at or below'} ${text.sell(order.stopPrice ?? price)}`;
      this.answers.push({ index, order, tradeIds: [], note: `${head}; it waits for a trade ${when}` });
      this.changes.touchUser(ownerId);
      return;
    }
    this.answers.push({ index, ...this.apply(order, result, index, head) });
  }

  /**
   * Places a triggered stop-limit order (state Untriggered, its escrow held since it was placed) as a limit
   * order at its price, with its time in force and postOnly, its time priority starting now (DESIGN
   * §11.4): matched as `escrowAndMatch` matches a limit order. One that cannot be placed (FOK not filled in
   * full, postOnly that would take liquidity) is cancelled instead and its escrow returned (21).
   */
  trigger(index: number, stop: OrderRow): void {
    const { text } = this;
    const order: NewOrder = { ...stop, state: ORDER_STATE.Placed };
    const side = stop.buySide ? 'buy' : 'sell';
    const head = `Stop-limit ${side} order of ${text.buy(stop.initialAmount)} at ${text.sell(stop.price)} triggered`;
    this.triggered.add(order.id);
    let result: MatchResult;
    try {
      result = this.match(order, index, false);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      const refund = refundOpenOrders(this.pair, [order], stop.userId, `${head} and cancelled: escrow returned`);
      for (const e of refund.entries) this.post(e);
      const cancelled = { ...order, ...refund.updates[0] };
      this.placed.set(order.id, cancelled);
      this.answers.push({ index, order: cancelled, tradeIds: [], note: `${head}; ${error.message}` });
      this.changes.touchUser(stop.userId);
      return;
    }
    this.answers.push({ index, ...this.apply(order, result, index, head) });
  }

  /** Matches `order` (not yet on the book) at place `index`; throws the CONFLICTs `escrowAndMatch` names. */
  private match(order: NewOrder, index: number, market: boolean): MatchResult {
    const incoming: BookOrder = {
      id: order.id,
      ownerId: order.userId,
      buySide: order.buySide,
      price: order.price,
      remaining: (order.initialAmount - order.filledAmount) as Amount,
      escrow: order.escrowRemaining,
      seq: BATCH_SEQ_BASE + index,
    };
    const stopTimer = matchingSeconds.startTimer();
    const rest = !market && order.timeInForce === 'GTC';
    const result = matchOrder(this.book, incoming, this.rules, { market, rest });
    stopTimer();
    if (market && result.fills.length === 0) throw new AppError('CONFLICT', 'Insufficient funds');
    if (order.timeInForce === 'FOK' && result.taker.remaining > 0n)
      throw new AppError('CONFLICT', 'Order could not be filled in full');
    if (order.postOnly && result.fills.length > 0) throw new AppError('CONFLICT', 'Order would take liquidity');
    return result;
  }

  /**
   * Applies a checked match of `placing` (its escrow already posted): the new book, self-trade cancels,
   * fills (tallied for their notices), the makers' new state, the refund of a rest that must not rest (21). Returns
   * the order as it now is, its trades and its answer's note, which begins with `head`.
   */
  private apply(placing: NewOrder, result: MatchResult, index: number, head: string) {
    const { pair, text } = this;
    const { id, userId: ownerId, buySide, initialAmount } = placing;
    const market = placing.type === 'market';
    this.book = result.book;
    this.cancelSelfTrades(result.cancelled, ownerId);
    const tradeIds = result.fills.map((f) => this.recordFill(f, ownerId, buySide, index));
    // Makers are stored orders or orders of this batch: keep the latest state of each.
    for (const m of result.makers) {
      const own = this.placed.get(m.id);
      if (own) this.placed.set(m.id, withFill(own, m));
      else this.restingChanged.set(m.id, m);
    }
    const filledAmount = (initialAmount - result.taker.remaining) as Amount;
    const rests = this.book[buySide ? 'buys' : 'sells'].some((o) => o.id === id);
    let order: NewOrder = {
      ...placing,
      filledAmount,
      price: market ? averagePrice(result.fills, pair.sellPrecision) : placing.price,
      state: orderState(result.taker.remaining),
      escrowRemaining: result.taker.escrow,
    };
    if (!rests && order.escrowRemaining > 0n) {
      // Market, IOC, FOK: the rest is cancelled and what its escrow still holds goes back (21).
      const note = 'Unfilled rest cancelled: escrow returned';
      const refund = refundOpenOrders(pair, [order], ownerId, note);
      for (const e of refund.entries) this.post(e);
      order = { ...order, escrowRemaining: 0n as Amount };
      if (result.taker.remaining > 0n) order = { ...order, state: ORDER_STATE.Cancelled };
    }
    this.placed.set(id, order);
    const average = market ? ` at an average of ${text.sell(order.price)}` : '';
    let note = filledAmount > 0n ? `${head}; ${text.buy(filledAmount)} filled at once${average}` : head;
    if (result.taker.remaining > 0n && !rests) note = `${note}; the rest was cancelled`;
    if (result.cancelled.length > 0) note = `${note}; ${stpNotice(text, result.cancelled)}`;
    this.changes.touchUser(ownerId);
    return { order, tradeIds, note };
  }

  /** What the batch writes besides the money: its new orders, the resting orders it changed, its trades. */
  writes(): PlacedOrderWrites {
    const pairId = this.pair.id;
    return {
      orders: [...this.placed.values()].filter((o) => !this.triggered.has(o.id)).map((o) => ({ ...o, pairId })),
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

  /**
   * The order_filled notifications of the batch's trades (DESIGN §11.3): one to the owner of each resting
   * order or triggered stop they filled, summing its fills, in full or in part as the batch leaves it. The
   * member whose request placed the taker reads its fills in the answer (SPEC §8 `filled at once`).
   */
  notices(): NewNotification[] {
    const left = (id: string) => {
      const own = this.placed.get(id);
      return own ? own.initialAmount - own.filledAmount : this.restingChanged.get(id)?.remaining;
    };
    return [...this.filled].map(([id, t]) => filledNotice(this.pair, this.text, t, left(id) === 0n));
  }

  /** The stop-limit orders this batch triggered, as they now are, in the order they were triggered. */
  triggeredOrders(): NewOrder[] {
    return [...this.triggered].map((id) => this.placed.get(id) as NewOrder);
  }

  /** The prices of the batch's trades, each with the place of the order that printed it (`Print`). */
  prints(): Print[] {
    return this.trades.map((t) => ({ price: t.price, at: this.printedAt.get(t.id) ?? -1 }));
  }

  /**
   * True when the batch's trades may trigger a stop-limit order (DESIGN §11.4): one reaches the pair's
   * nearest waiting stop of a side, or one of the batch's own stops that was placed before it.
   */
  mayTrigger(): boolean {
    const prints = this.prints();
    const { lowestBuy, highestSell } = this.stops;
    if (
      prints.some(
        (p) => (lowestBuy !== null && p.price >= lowestBuy) || (highestSell !== null && p.price <= highestSell),
      )
    )
      return true;
    const waiting = [...this.placed.values()].filter((o) => o.state === ORDER_STATE.Untriggered);
    const placedAt = this.stopsPlaced();
    return (
      triggeredStops(
        waiting.map((o) => ({ ...o, seq: 0 })),
        prints,
        (s) => placedAt.get(s.id) ?? -1,
      ).length > 0
    );
  }

  /** The place in the batch of each stop-limit order it placed (still waiting), by id. */
  stopsPlaced(): Map<string, number> {
    return new Map(
      this.answers.filter((a) => a.order.state === ORDER_STATE.Untriggered).map((a) => [a.order.id, a.index]),
    );
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

  /** Posts a fill's money, records its trade and tallies it for its notices; returns the trade's id. */
  private recordFill(f: Fill, executorId: string, takerBuySide: boolean, index: number): string {
    const what = `${this.text.buy(f.quantity)} at ${this.text.sell(f.price)}`;
    for (const e of fillEntries(f, this.pair, executorId, what)) this.post(e);
    const id = newObjectId();
    this.printedAt.set(id, index);
    // The member who placed the taker saw its fills in the answer; a triggered stop's owner did not.
    for (const orderId of this.triggered.has(f.takerOrderId) ? [f.makerOrderId, f.takerOrderId] : [f.makerOrderId])
      this.filled.set(orderId, addFill(this.filled.get(orderId), f, orderId === f.buyOrderId));
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
