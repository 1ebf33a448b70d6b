/**
 * The exchange, the Quantum Hub (SPEC §3, §4, §7 Exchange, §8; DESIGN §5): pairs, orders, matching,
 * cancels, payouts and the public market data. Every movement of money goes through the ledger, in the
 * caller's transaction; every change to a pair's orders runs under the pair's advisory lock.
 *
 * Escrow (DESIGN §4, §5): an order's funds leave the member into escrow held for the order
 * (category 20, ledger rows flagged `escrow`, reference = order id) and only leave escrow as trade
 * proceeds and price improvement (22), refunds on cancel (21) or a payout (22, then burned as 11).
 * `escrowRemaining` on the order always equals what the ledger holds in escrow for it.
 */
import {
  ADMIN_CATEGORY,
  type Amount,
  AppError,
  type Candle,
  type CandleInterval,
  type DeletePairResponse,
  type Depth,
  fitsPrecision,
  formatAmount,
  type GetOrdersResponse,
  ORDER_STATE,
  type Order,
  type OrderResponse,
  type Pair,
  type PairResponse,
  type PairsResponse,
  type PlaceOrderResponse,
  sumAmounts,
  type Trade,
  TX_CATEGORY,
  toDecimalString,
  type UserOrdersResponse,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { Outcome } from '../../lib/group-commit.ts';
import { newObjectId } from '../../lib/ids.ts';
import type { LiveChanges } from '../../lib/live-changes.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { insertAdminLog } from '../audit/audit.queries.ts';
import { findCurrency } from '../bank/bank.queries.ts';
import { type Entry, postEntries } from '../ledger/ledger.posting.ts';
import { findUserByNickname } from '../users/users.queries.ts';
import {
  type CandleRow,
  type DepthRow,
  findBook,
  findCandles,
  findDepth,
  findOpenOrdersOfPair,
  findOrder,
  findOrderContext,
  findPair,
  findPairs,
  findTrades,
  findUserOrders,
  insertPair,
  lockPair,
  markPairDeleted,
  type NewOrder,
  type OrderRow,
  type PairFields,
  type PairRow,
  type PlacedOrderResult,
  type PlacedOrderWrites,
  pairExists,
  parsePlacedOrders,
  placedOrderWrites,
  type SideReach,
  type TradeRow,
  updateOrders,
  updatePair,
} from './exchange.queries.ts';
import {
  type BookOrder,
  buyEscrowFor,
  type Fill,
  fillCost,
  type MarketRules,
  matchOrder,
  unitStep,
} from './matching-engine.ts';

/** How many open orders a side of `getOrders` lists, and how many own orders `getUserOrders` lists. */
export const BOOK_LIMIT = 500;
export const USER_ORDERS_LIMIT = 500;

/**
 * What a request changed, for the live feed: the pairs whose book or trades moved and the members whose
 * orders or balances moved. Collected in the transaction, published after it commits.
 */
/** The caller of a public route: null for a visitor. */
export type Viewer = AuthUser | null;

const isAdmin = (viewer: Viewer) => viewer?.role === 'admin';

/** DESIGN §5: `"<buy currency name> → <sell currency name>"`. */
export function pairName(buyName: string, sellName: string): string {
  return `${buyName} → ${sellName}`;
}

/** SPEC §3 pair on the wire. */
export function toPairDto(p: PairRow): Pair {
  return {
    _id: p.id,
    name: pairName(p.buyName, p.sellName),
    buyCurrency: p.buyCurrency,
    sellCurrency: p.sellCurrency,
    canBuy: p.canBuy,
    canSell: p.canSell,
    visible: p.visible,
    frozen: p.frozen,
    frozenNote: p.frozenNote,
    fee: toDecimalString(p.fee),
    feeCollector: p.feeCollector,
    createdAt: p.createdAt.toISOString(),
  };
}

/** SPEC §3 order on the wire (never its owner). */
export function toOrderDto(o: OrderRow): Order {
  return {
    _id: o.id,
    pair: o.pairId,
    buySide: o.buySide,
    initialAmount: toDecimalString(o.initialAmount),
    filledAmount: toDecimalString(o.filledAmount),
    price: toDecimalString(o.price),
    state: o.state,
    createdAt: o.createdAt.toISOString(),
  };
}

/** A trade on the wire. */
export function toTradeDto(t: TradeRow): Trade {
  return {
    _id: t.id,
    pair: t.pairId,
    price: toDecimalString(t.price),
    amount: toDecimalString(t.amount),
    buySide: t.takerBuySide,
    createdAt: t.createdAt.toISOString(),
  };
}

function toDepthDto(d: { buys: DepthRow[]; sells: DepthRow[] }): Depth {
  const level = (l: DepthRow) => ({
    price: toDecimalString(l.price),
    amount: toDecimalString(l.amount),
    orders: l.orders,
  });
  return { buys: d.buys.map(level), sells: d.sells.map(level) };
}

function toCandleDto(c: CandleRow): Candle {
  return {
    time: c.time.toISOString(),
    open: toDecimalString(c.open),
    high: toDecimalString(c.high),
    low: toDecimalString(c.low),
    close: toDecimalString(c.close),
    volume: toDecimalString(c.volume),
  };
}

/** A live pair the viewer may see (hidden ones only for admins), or NOT_FOUND `Pair not found`. */
export async function requireViewablePair(db: DbOrTx, pairId: string, viewer: Viewer): Promise<PairRow> {
  const pair = await findPair(db, pairId);
  if (!pair || (!pair.visible && !isAdmin(viewer))) throw new AppError('NOT_FOUND', 'Pair not found');
  return pair;
}

/** Resolves a fee collector nickname to a user id; '' means none (fees burned). VALIDATION when unknown. */
async function collectorId(db: DbOrTx, nickname: string | undefined): Promise<string | null | undefined> {
  if (nickname === undefined) return undefined;
  if (nickname === '') return null;
  const user = await findUserByNickname(db, nickname);
  if (!user) throw new AppError('VALIDATION', '"feeCollector" contains an invalid value');
  return user.id;
}

function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return (e.cause?.code ?? e.code) === '23505';
}

/** The pair flags a request may set. */
export interface PairInput {
  canBuy?: boolean | undefined;
  canSell?: boolean | undefined;
  visible?: boolean | undefined;
  frozen?: boolean | undefined;
  frozenNote?: string | undefined;
  /** Fraction 0..1 as an Amount-scaled number. */
  fee?: Amount | undefined;
  feeCollector?: string | undefined;
}

async function pairFields(db: DbOrTx, input: PairInput): Promise<PairFields> {
  const fields: PairFields = {};
  if (input.canBuy !== undefined) fields.canBuy = input.canBuy;
  if (input.canSell !== undefined) fields.canSell = input.canSell;
  if (input.visible !== undefined) fields.visible = input.visible;
  if (input.frozen !== undefined) fields.frozen = input.frozen;
  if (input.frozenNote !== undefined) fields.frozenNote = input.frozenNote;
  if (input.fee !== undefined) fields.fee = input.fee;
  const collector = await collectorId(db, input.feeCollector);
  if (collector !== undefined) fields.feeCollectorId = collector;
  return fields;
}

/**
 * Admin: creates a pair trading `buyCurrency` against `sellCurrency` (SPEC §7 createPair, DESIGN §5).
 * The name is composed from the currencies; `visible` defaults to true, `fee` to 0, no collector burns
 * fees. Writes an admin log row (category 20). Answers `{pair, message}`.
 * Throws NOT_FOUND (currency), VALIDATION (same currency twice, unknown collector), CONFLICT (exists).
 */
export async function createPair(
  db: Db,
  admin: AuthUser,
  input: PairInput & { buyCurrency: number; sellCurrency: number; canBuy: boolean; canSell: boolean },
  address: string,
): Promise<PairResponse> {
  if (input.buyCurrency === input.sellCurrency) {
    throw new AppError('VALIDATION', '"sellCurrency" contains an invalid value');
  }
  try {
    return await inTransaction(db, async (tx) => {
      const [buy, sell] = await Promise.all([
        findCurrency(tx, input.buyCurrency),
        findCurrency(tx, input.sellCurrency),
      ]);
      if (!buy || !sell) throw new AppError('NOT_FOUND', 'Currency not found');
      if (await pairExists(tx, buy.currencyId, sell.currencyId)) {
        throw new AppError('CONFLICT', 'This pair already exists');
      }
      const fields = await pairFields(tx, input);
      const id = await insertPair(tx, { ...fields, buyCurrency: buy.currencyId, sellCurrency: sell.currencyId });
      const pair = await findPair(tx, id);
      if (!pair) throw new Error('pair vanished');
      const name = pairName(buy.name, sell.name);
      await insertAdminLog(tx, {
        adminId: admin.id,
        address,
        category: ADMIN_CATEGORY.CexTradePairCreated,
        action: `Created trade pair ${name} (${id})`,
      });
      return { pair: toPairDto(pair), message: `Pair ${name} created` };
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'This pair already exists');
    throw err;
  }
}

/**
 * Admin: changes a pair's flags, fee or collector (SPEC §7 modifyPair); currencies never change, the
 * name follows them. Writes an admin log row (category 21). Answers `{pair, message: 'Pair modified'}`.
 * Throws NOT_FOUND (pair), VALIDATION (unknown collector).
 */
export async function modifyPair(
  db: Db,
  admin: AuthUser,
  input: PairInput & { pairId: string },
  address: string,
): Promise<PairResponse> {
  return inTransaction(db, async (tx) => {
    await lockPair(tx, input.pairId);
    const before = await findPair(tx, input.pairId);
    if (!before) throw new AppError('NOT_FOUND', 'Pair not found');
    const fields = await pairFields(tx, input);
    await updatePair(tx, before.id, fields);
    const pair = await findPair(tx, before.id);
    if (!pair) throw new Error('pair vanished');
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CexTradePairModified,
      action: `Modified trade pair ${pairName(pair.buyName, pair.sellName)}: ${Object.keys(fields).join(', ') || 'no changes'}`,
    });
    return { pair: toPairDto(pair), message: 'Pair modified' };
  });
}

/** Ledger rows returning each order's remaining escrow to its owner (category 21), and the order updates. */
function refundOpenOrders(pair: PairRow, orders: readonly OrderRow[], executorId: string, note: string) {
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

/**
 * Admin: deletes a pair (SPEC §7 deletePair). Its open orders are cancelled first and their escrow
 * refunded (category 21); the pair disappears from every list but its orders stay in members' history.
 * Writes an admin log row (category 22). Answers `{cancelledOrders, message}`. Throws NOT_FOUND.
 */
export async function deletePair(
  db: Db,
  admin: AuthUser,
  pairId: string,
  address: string,
  changes: LiveChanges,
): Promise<DeletePairResponse> {
  return inTransaction(db, async (tx) => {
    await lockPair(tx, pairId);
    const pair = await findPair(tx, pairId);
    if (!pair) throw new AppError('NOT_FOUND', 'Pair not found');
    const open = await findOpenOrdersOfPair(tx, pair.id);
    const { entries, updates } = refundOpenOrders(pair, open, admin.id, 'Order cancelled: pair deleted');
    await postEntries(tx, entries);
    await updateOrders(tx, updates);
    await markPairDeleted(tx, pair.id);
    const name = pairName(pair.buyName, pair.sellName);
    await insertAdminLog(tx, {
      adminId: admin.id,
      address,
      category: ADMIN_CATEGORY.CexTradePairDeleted,
      action: `Deleted trade pair ${name} (${pair.id}); cancelled ${open.length} open orders`,
    });
    changes.touchPair(pair.id);
    for (const o of open) changes.touchUser(o.userId);
    return { cancelledOrders: open.length, message: `Pair deleted (${open.length} open orders cancelled)` };
  });
}

/** SPEC §7 getPairs (public): visible pairs, and hidden ones for an admin. Message `Got N pair(s)`. */
export async function listPairs(db: Db, viewer: Viewer): Promise<PairsResponse> {
  const pairs = (await findPairs(db, isAdmin(viewer))).map(toPairDto);
  return { pairs, message: `Got ${pairs.length} pair(s)` };
}

/** Refuses an order the pair's state or currencies forbid (DESIGN §5); CONFLICT with the reason. */
function requireOpenForTrading(pair: PairRow, buySide: boolean): void {
  if (pair.frozen) throw new AppError('CONFLICT', pair.frozenNote || 'This pair is frozen');
  if (buySide && !pair.canBuy) throw new AppError('CONFLICT', 'Buying is disabled on this pair');
  if (!buySide && !pair.canSell) throw new AppError('CONFLICT', 'Selling is disabled on this pair');
  if (pair.buyFrozen) throw new AppError('CONFLICT', pair.buyFrozenNote || `${pair.buyTicker} is frozen`);
  if (pair.sellFrozen) throw new AppError('CONFLICT', pair.sellFrozenNote || `${pair.sellTicker} is frozen`);
}

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

/** One order to place: who places it and what (SPEC §7 placeOrder). */
export interface OrderJob {
  member: AuthUser;
  input: { pair: string; buySide: boolean; initialAmount: Amount; price: Amount };
}

/** Time priority of the batch's own orders on the in-memory book: after every stored order. */
const BATCH_SEQ_BASE = 2 ** 52;

/**
 * Places a batch of orders on ONE pair (`pairId`) in the caller's transaction `tx`, as if they came one
 * after the other in the given order (SPEC §7 placeOrder, DESIGN §5): takes the pair's lock, reads the
 * pair, the resting orders the batch can reach and the balance rows it can touch (locked), then for each
 * order in turn checks it, escrows its funds (category 20; a buy escrows initialAmount x price rounded up
 * to sellCurrency's precision, a sell its initialAmount) and matches it by price-time priority at the
 * resting orders' prices; each fill posts the quantity and the cost out of the two escrows (22), the
 * buyer's price improvement back to the buyer (22), each side's fee on its proceeds to the collector or
 * burned (23). Everything is written in one statement (DESIGN §9: a batch costs the round trips of one
 * order). An order that is refused leaves no trace and does not stop the others; its outcome carries the
 * error: NOT_FOUND (pair, or hidden to a member), CONFLICT (frozen pair: its `frozenNote`; disabled side;
 * frozen currency; `Insufficient funds`), VALIDATION (amount or price beyond the currencies' precision,
 * an order worth less than one unit of sellCurrency's precision). An accepted order answers
 * `{order, trades, tx:{note}, message}` with SPEC §8's message (`Placed a buy order of …` /
 * `Placed a Sell Order of …`), its state as its own matching left it. Throws (rolling back the whole
 * batch) only on a database failure.
 */
export async function placeOrders(
  tx: Tx,
  pairId: string,
  jobs: readonly OrderJob[],
  changes: LiveChanges,
): Promise<Outcome<PlaceOrderResponse>[]> {
  const reach = (buySide: boolean): SideReach | null => {
    const side = jobs.filter((j) => j.input.buySide === buySide).map((j) => j.input);
    if (side.length === 0) return null;
    // Ascending prices: a buy reaches furthest at the highest, a sell at the lowest.
    const prices = side.map((o) => o.price).sort((x, y) => (x < y ? -1 : x > y ? 1 : 0));
    const best = (buySide ? prices[prices.length - 1] : prices[0]) as Amount;
    return { limit: best, quantity: sumAmounts(side.map((o) => o.initialAmount)) };
  };
  await lockPair(tx, pairId);
  const context = await findOrderContext(tx, {
    pairId,
    userIds: [...new Set(jobs.map((j) => j.member.id))],
    buys: reach(true),
    sells: reach(false),
  });
  const outcomes: Array<Outcome<PlaceOrderResponse> | null> = jobs.map(() => null);
  if (!context) return jobs.map(() => ({ ok: false, error: new AppError('NOT_FOUND', 'Pair not found') }));
  const { pair, balances } = context;
  const rules: MarketRules = { buyPrecision: pair.buyPrecision, sellPrecision: pair.sellPrecision, fee: pair.fee };
  const fmtBuy = (a: Amount) => `${formatAmount(a, pair.buyPrecision)} ${pair.buyTicker}`;
  const fmtSell = (a: Amount) => `${formatAmount(a, pair.sellPrecision)} ${pair.sellTicker}`;

  let book = {
    buys: context.crossing.filter((o) => o.buySide).map(toBookOrder),
    sells: context.crossing.filter((o) => !o.buySide).map(toBookOrder),
  };
  const restingInitial = new Map(context.crossing.map((o) => [o.id, o.initialAmount]));
  const restingChanged = new Map<string, BookOrder>();
  const placed = new Map<string, NewOrder>();
  const entries: Entry[] = [];
  const trades: PlacedOrderWrites['trades'][number][] = [];
  const answers: Array<{ index: number; order: NewOrder; tradeIds: string[]; note: string }> = [];
  const state = (remaining: Amount) => (remaining === 0n ? ORDER_STATE.Filled : ORDER_STATE.Placed);
  /** Applies an entry to the locked balances, so later orders of the batch see it. */
  const post = (e: Entry) => {
    if (e.amount <= 0n) return;
    entries.push(e);
    balances.apply(e);
  };

  for (const [index, { member, input }] of jobs.entries()) {
    const { initialAmount, price, buySide } = input;
    try {
      if (!pair.visible && !isAdmin(member)) throw new AppError('NOT_FOUND', 'Pair not found');
      requireOpenForTrading(pair, buySide);
      if (!fitsPrecision(initialAmount, pair.buyPrecision)) {
        throw new AppError('VALIDATION', '"initialAmount" contains an invalid value');
      }
      if (!fitsPrecision(price, pair.sellPrecision)) {
        throw new AppError('VALIDATION', '"price" contains an invalid value');
      }
      if (fillCost(initialAmount, price, pair.sellPrecision) === 0n) {
        throw new AppError(
          'VALIDATION',
          `The order is worth less than ${formatAmount(unitStep(pair.sellPrecision), pair.sellPrecision)} ${pair.sellTicker}`,
        );
      }
    } catch (error) {
      outcomes[index] = { ok: false, error };
      continue;
    }
    const escrowCurrency = buySide ? pair.sellCurrency : pair.buyCurrency;
    const escrow = buySide ? buyEscrowFor(initialAmount, price, pair.sellPrecision) : initialAmount;
    // The balance row is locked and holds what earlier orders of the batch left: the escrow is covered.
    if (!balances.covers(member.id, escrowCurrency, escrow)) {
      outcomes[index] = { ok: false, error: new AppError('CONFLICT', 'Insufficient funds') };
      continue;
    }

    const orderId = newObjectId();
    const orderText = `${buySide ? 'buy' : 'sell'} order of ${fmtBuy(initialAmount)} at ${fmtSell(price)}`;
    const executorId = member.id;
    post({
      category: TX_CATEGORY.CexOrderSubmitted,
      currencyId: escrowCurrency,
      amount: escrow,
      executorId,
      senderId: member.id,
      recipientId: null,
      escrow: true,
      note: `Escrow for ${orderText}`,
      reference: orderId,
    });
    const incoming: BookOrder = {
      id: orderId,
      ownerId: member.id,
      buySide,
      price,
      remaining: initialAmount,
      escrow,
      seq: BATCH_SEQ_BASE + index,
    };
    const result = matchOrder(book, incoming, rules);
    book = result.book;
    const tradeIds: string[] = [];
    for (const f of result.fills) {
      for (const e of fillEntries(f, pair, executorId, `${fmtBuy(f.quantity)} at ${fmtSell(f.price)}`)) post(e);
      const tradeId = newObjectId();
      tradeIds.push(tradeId);
      trades.push({
        id: tradeId,
        buyOrderId: f.buyOrderId,
        sellOrderId: f.sellOrderId,
        takerBuySide: buySide,
        price: f.price,
        amount: f.quantity,
        cost: f.cost,
        buyerFee: f.buyerFee,
        sellerFee: f.sellerFee,
      });
      changes.touchUser(f.buyerId);
      changes.touchUser(f.sellerId);
      changes.touchUser(pair.feeCollectorId);
    }
    // Makers are stored orders or orders of this batch: keep the latest state of each.
    for (const m of result.makers) {
      const own = placed.get(m.id);
      if (own) placed.set(m.id, withFill(own, m));
      else restingChanged.set(m.id, m);
    }
    const order: NewOrder = {
      id: orderId,
      userId: member.id,
      buySide,
      initialAmount,
      filledAmount: (initialAmount - result.taker.remaining) as Amount,
      price,
      state: state(result.taker.remaining),
      escrowRemaining: result.taker.escrow,
    };
    placed.set(orderId, order);
    const head = buySide
      ? `Placed a buy order of ${fmtBuy(initialAmount)} at ${fmtSell(price)}`
      : `Placed a Sell Order of ${fmtBuy(initialAmount)} at ${fmtSell(price)}`;
    const note = order.filledAmount > 0n ? `${head}; ${fmtBuy(order.filledAmount)} filled at once` : head;
    answers.push({ index, order, tradeIds, note });
    changes.touchUser(member.id);
  }

  if (answers.length > 0) {
    const writes: PlacedOrderWrites = {
      pairId: pair.id,
      orders: [...placed.values()],
      makers: [...restingChanged.values()].map((m) => ({
        id: m.id,
        filledAmount: ((restingInitial.get(m.id) ?? 0n) - m.remaining) as Amount,
        escrowRemaining: m.escrow,
        state: state(m.remaining),
      })),
      trades,
    };
    const row = await postEntries<PlacedOrderResult>(tx, entries, placedOrderWrites(writes));
    const stored = parsePlacedOrders(writes, row);
    const tradeById = new Map(trades.map((t) => [t.id, t]));
    for (const { index, order, tradeIds, note } of answers) {
      const at = stored.get(order.id);
      if (!at) throw new Error(`order ${order.id} was not stored`);
      const tradeDtos = tradeIds.map((id) => {
        const t = tradeById.get(id);
        const tAt = stored.get(id);
        if (!t || !tAt) throw new Error(`trade ${id} was not stored`);
        return toTradeDto({
          id,
          pairId: pair.id,
          takerBuySide: t.takerBuySide,
          price: t.price,
          amount: t.amount,
          ...tAt,
        });
      });
      outcomes[index] = {
        ok: true,
        value: {
          order: toOrderDto({ ...order, pairId: pair.id, ...at }),
          trades: tradeDtos,
          tx: { note },
          message: note,
        },
      };
    }
    changes.touchPair(pair.id);
  }
  return outcomes.map((o) => o ?? { ok: false, error: new Error('order left without an outcome') });
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

/**
 * A member places one order (SPEC §7 placeOrder): `placeOrders` with a batch of one, in the caller's
 * transaction. Answers `{order, trades, tx:{note}, message}`; throws the order's error (see `placeOrders`).
 */
export async function placeOrder(
  tx: Tx,
  member: AuthUser,
  input: OrderJob['input'],
  changes: LiveChanges,
): Promise<PlaceOrderResponse> {
  const [outcome] = await placeOrders(tx, input.pair, [{ member, input }], changes);
  if (!outcome) throw new Error('no outcome');
  if (!outcome.ok) throw outcome.error;
  return outcome.value;
}

/** Finds an order the caller may act on (its owner, or any admin), locks its pair and reads it again. */
async function lockOwnOrder(tx: Tx, caller: AuthUser, orderId: string, adminOnly: boolean): Promise<OrderRow> {
  const first = await findOrder(tx, orderId);
  const mayAct = first && (caller.role === 'admin' || (!adminOnly && first.userId === caller.id));
  if (!first || !mayAct) throw new AppError('NOT_FOUND', 'Order not found');
  await lockPair(tx, first.pairId);
  const order = await findOrder(tx, orderId);
  if (!order) throw new AppError('NOT_FOUND', 'Order not found');
  if (order.state !== ORDER_STATE.Placed) throw new AppError('CONFLICT', 'Order is not open');
  return order;
}

async function requireOrderPair(tx: Tx, order: OrderRow): Promise<PairRow> {
  // Deleting a pair cancels its open orders under the same lock, so an open order's pair is live.
  const pair = await findPair(tx, order.pairId);
  if (!pair) throw new Error(`open order ${order.id} on a deleted pair`);
  return pair;
}

/**
 * Cancels an open order (SPEC §7 cancelOrder): its owner or an admin; another member's order answers
 * NOT_FOUND. Returns the unfilled escrow to the owner (category 21) under the pair's lock, so concurrent
 * cancels refund once. Answers `{order, message}`: `Sell order cancelled` / `Buy order cancelled` (SPEC §8).
 * Throws NOT_FOUND, CONFLICT `Order is not open`.
 */
export async function cancelOrder(
  tx: Tx,
  caller: AuthUser,
  orderId: string,
  changes: LiveChanges,
): Promise<OrderResponse> {
  const order = await lockOwnOrder(tx, caller, orderId, false);
  const pair = await requireOrderPair(tx, order);
  const { entries, updates } = refundOpenOrders(pair, [order], caller.id, 'Order cancelled: escrow returned');
  await postEntries(tx, entries);
  await updateOrders(tx, updates);
  changes.touchPair(pair.id);
  changes.touchUser(order.userId);
  return {
    order: toOrderDto({ ...order, state: ORDER_STATE.Cancelled, escrowRemaining: 0n as Amount }),
    message: order.buySide ? 'Buy order cancelled' : 'Sell order cancelled',
  };
}

/**
 * Admin: pays out the rest of a sell order that was settled outside the platform (SPEC §7 payoutOrder,
 * DESIGN §5): the escrowed remainder leaves escrow to the seller (category 22) and is burned from them
 * (category 11), the order becomes Filled, and an admin log row (Manual Burn) records it.
 * Answers `{order, message: 'Sell order paid out'}`. Throws NOT_FOUND, CONFLICT (a buy order, not open).
 */
export async function payoutOrder(
  tx: Tx,
  admin: AuthUser,
  orderId: string,
  address: string,
  changes: LiveChanges,
): Promise<OrderResponse> {
  const order = await lockOwnOrder(tx, admin, orderId, true);
  if (order.buySide) throw new AppError('CONFLICT', 'Only sell orders can be paid out');
  const pair = await requireOrderPair(tx, order);
  const rest = order.escrowRemaining;
  const text = `${formatAmount(rest, pair.buyPrecision)} ${pair.buyTicker}`;
  if (rest > 0n) {
    const common = { currencyId: pair.buyCurrency, amount: rest, executorId: admin.id, reference: order.id };
    await postEntries(tx, [
      {
        ...common,
        category: TX_CATEGORY.CexTradeExecuted,
        senderId: null,
        recipientId: order.userId,
        escrow: true,
        note: 'Sell order paid out: settled outside the platform',
      },
      {
        ...common,
        category: TX_CATEGORY.Burn,
        senderId: order.userId,
        recipientId: null,
        note: 'Sell order paid out: escrow burned',
      },
    ]);
  }
  await updateOrders(tx, [
    { id: order.id, filledAmount: order.initialAmount, escrowRemaining: 0n as Amount, state: ORDER_STATE.Filled },
  ]);
  await insertAdminLog(tx, {
    adminId: admin.id,
    affectedUserId: order.userId,
    address,
    category: ADMIN_CATEGORY.ManualBurn,
    action: `Paid out sell order ${order.id} on ${pairName(pair.buyName, pair.sellName)}: burned ${text} from escrow`,
  });
  changes.touchPair(pair.id);
  changes.touchUser(order.userId);
  return {
    order: toOrderDto({
      ...order,
      filledAmount: order.initialAmount,
      escrowRemaining: 0n as Amount,
      state: ORDER_STATE.Filled,
    }),
    message: 'Sell order paid out',
  };
}

/** The open orders of a pair as the wire shows them, best price first. */
export async function loadBook(db: DbOrTx, pairId: string): Promise<{ buys: Order[]; sells: Order[] }> {
  const book = await findBook(db, pairId, BOOK_LIMIT);
  return { buys: book.buys.map(toOrderDto), sells: book.sells.map(toOrderDto) };
}

/**
 * SPEC §7 getOrders (public): a pair's open orders without owners, buys highest price first, sells
 * lowest first, each side at most 500. Message `Got N Orders`. Throws NOT_FOUND.
 */
export async function listBook(db: Db, viewer: Viewer, pairId: string): Promise<GetOrdersResponse> {
  await requireViewablePair(db, pairId, viewer);
  const orders = await loadBook(db, pairId);
  return { orders, message: `Got ${orders.buys.length + orders.sells.length} Orders` };
}

/** A member's orders on the wire, newest first, at most 500. */
export async function loadUserOrders(db: DbOrTx, userId: string, pairId?: string): Promise<Order[]> {
  return (await findUserOrders(db, userId, pairId, USER_ORDERS_LIMIT)).map(toOrderDto);
}

/** SPEC §7 getUserOrders (member): own orders of every state, newest first. Message `Got N Orders`. */
export async function listUserOrders(db: Db, member: AuthUser, pairId?: string): Promise<UserOrdersResponse> {
  const orders = await loadUserOrders(db, member.id, pairId);
  return { orders, message: `Got ${orders.length} Orders` };
}

/** Recent trades of a pair (public, ours), newest first; `limit` default 50. Throws NOT_FOUND. */
export async function listTrades(db: Db, viewer: Viewer, pairId: string, limit = 50) {
  await requireViewablePair(db, pairId, viewer);
  const trades = (await findTrades(db, pairId, limit)).map(toTradeDto);
  return { trades, message: `Got ${trades.length} trades` };
}

/** OHLC candles of a pair (public, ours), oldest first; `limit` buckets, default 200. Throws NOT_FOUND. */
export async function listCandles(db: Db, viewer: Viewer, pairId: string, interval: CandleInterval, limit = 200) {
  await requireViewablePair(db, pairId, viewer);
  const candles = (await findCandles(db, pairId, interval, limit)).map(toCandleDto);
  return { candles, message: `Got ${candles.length} candles` };
}

/** The book's open quantity per price level, best first (public, ours). */
export async function loadDepth(db: DbOrTx, pairId: string, levels = 50): Promise<Depth> {
  return toDepthDto(await findDepth(db, pairId, levels));
}

/** Order-book depth of a pair (public, ours); `levels` a side, default 50. Throws NOT_FOUND. */
export async function depthOf(db: Db, viewer: Viewer, pairId: string, levels = 50) {
  await requireViewablePair(db, pairId, viewer);
  const depth = await loadDepth(db, pairId, levels);
  return { depth, message: `Got ${depth.buys.length + depth.sells.length} price levels` };
}
