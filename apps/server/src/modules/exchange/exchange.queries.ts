/** SQL of the exchange module: pairs, orders, trades, the book's depth and candles (DESIGN §5). */
import { type Amount, type CandleInterval, formatAmount, fromNumeric } from '@starlight/shared';
import { and, desc, eq, isNull, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';
import { exchangeOrders, exchangePairs } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';
import { type BatchBalances, lockBalances } from '../ledger/ledger.balances.ts';
import type { PostAlong } from '../ledger/ledger.posting.ts';

/** Namespace of the exchange's advisory locks (the first key of the two-key form). */
const PAIR_LOCK_NAMESPACE = 0x5eac;

/**
 * Takes the pair's transaction-scoped advisory lock (DESIGN §5): every change to a pair's orders runs
 * under it, so matching, cancels and payouts on one pair happen one at a time on every replica.
 */
export async function lockPair(tx: DbOrTx, pairId: string): Promise<void> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(${PAIR_LOCK_NAMESPACE}, hashtext(${pairId}))`);
}

/** A pair with what the exchange needs of its currencies and the fee collector's nickname. */
export interface PairRow {
  id: string;
  buyCurrency: number;
  sellCurrency: number;
  canBuy: boolean;
  canSell: boolean;
  visible: boolean;
  frozen: boolean;
  frozenNote: string;
  fee: Amount;
  feeCollectorId: string | null;
  feeCollector: string;
  createdAt: Date;
  buyName: string;
  buyTicker: string;
  buyPrecision: number;
  buyFrozen: boolean;
  buyFrozenNote: string;
  sellName: string;
  sellTicker: string;
  sellPrecision: number;
  sellFrozen: boolean;
  sellFrozenNote: string;
}

type PairSqlRow = {
  id: string;
  buy_currency: number;
  sell_currency: number;
  can_buy: boolean;
  can_sell: boolean;
  visible: boolean;
  frozen: boolean;
  frozen_note: string;
  fee: string;
  fee_collector_id: string | null;
  fee_collector: string | null;
  created_at: string | Date;
  buy_name: string;
  buy_ticker: string;
  buy_precision: number;
  buy_frozen: boolean;
  buy_frozen_note: string;
  sell_name: string;
  sell_ticker: string;
  sell_precision: number;
  sell_frozen: boolean;
  sell_frozen_note: string;
};

/** Live pairs matching `where` with their currencies and collector: the columns of `PairSqlRow`. */
function pairRows(where: SQL): SQL {
  return sql`
    SELECT p.id, p.buy_currency, p.sell_currency, p.can_buy, p.can_sell, p.visible, p.frozen, p.frozen_note,
           p.fee, p.fee_collector_id, u.nickname AS fee_collector, p.created_at,
           bc.name AS buy_name, bc.ticker AS buy_ticker, bc.precision AS buy_precision,
           bc.is_frozen AS buy_frozen, bc.frozen_note AS buy_frozen_note,
           sc.name AS sell_name, sc.ticker AS sell_ticker, sc.precision AS sell_precision,
           sc.is_frozen AS sell_frozen, sc.frozen_note AS sell_frozen_note
    FROM exchange_pairs p
    JOIN currencies bc ON bc.currency_id = p.buy_currency
    JOIN currencies sc ON sc.currency_id = p.sell_currency
    LEFT JOIN users u ON u.id = p.fee_collector_id
    WHERE p.deleted_at IS NULL AND ${where}`;
}

function selectPairs(where: SQL): SQL {
  return sql`${pairRows(where)} ORDER BY p.created_at, p.id`;
}

function toPairRow(r: PairSqlRow): PairRow {
  return {
    id: r.id,
    buyCurrency: Number(r.buy_currency),
    sellCurrency: Number(r.sell_currency),
    canBuy: r.can_buy,
    canSell: r.can_sell,
    visible: r.visible,
    frozen: r.frozen,
    frozenNote: r.frozen_note,
    fee: fromNumeric(String(r.fee)),
    feeCollectorId: r.fee_collector_id,
    feeCollector: r.fee_collector ?? '',
    createdAt: new Date(r.created_at),
    buyName: r.buy_name,
    buyTicker: r.buy_ticker,
    buyPrecision: Number(r.buy_precision),
    buyFrozen: r.buy_frozen,
    buyFrozenNote: r.buy_frozen_note,
    sellName: r.sell_name,
    sellTicker: r.sell_ticker,
    sellPrecision: Number(r.sell_precision),
    sellFrozen: r.sell_frozen,
    sellFrozenNote: r.sell_frozen_note,
  };
}

/** One pair that is not deleted, or null. */
export async function findPair(db: DbOrTx, pairId: string): Promise<PairRow | null> {
  const res = await db.execute<PairSqlRow>(selectPairs(sql`p.id = ${pairId}`));
  const row = res.rows[0];
  return row ? toPairRow(row) : null;
}

/** Every pair that is not deleted, oldest first; hidden ones only when `includeHidden`. */
export async function findPairs(db: DbOrTx, includeHidden: boolean): Promise<PairRow[]> {
  const res = await db.execute<PairSqlRow>(selectPairs(includeHidden ? sql`true` : sql`p.visible`));
  return res.rows.map(toPairRow);
}

/** True when a live pair already trades `buyCurrency` against `sellCurrency`. */
export async function pairExists(db: DbOrTx, buyCurrency: number, sellCurrency: number): Promise<boolean> {
  const rows = await db
    .select({ id: exchangePairs.id })
    .from(exchangePairs)
    .where(
      and(
        eq(exchangePairs.buyCurrency, buyCurrency),
        eq(exchangePairs.sellCurrency, sellCurrency),
        isNull(exchangePairs.deletedAt),
      ),
    )
    .limit(1);
  return rows.length > 0;
}

/** The columns a pair is created or modified with. */
export interface PairFields {
  canBuy?: boolean;
  canSell?: boolean;
  visible?: boolean;
  frozen?: boolean;
  frozenNote?: string;
  fee?: Amount;
  feeCollectorId?: string | null;
}

function pairColumns(f: PairFields): Partial<typeof exchangePairs.$inferInsert> {
  const out: Partial<typeof exchangePairs.$inferInsert> = {};
  if (f.canBuy !== undefined) out.canBuy = f.canBuy;
  if (f.canSell !== undefined) out.canSell = f.canSell;
  if (f.visible !== undefined) out.visible = f.visible;
  if (f.frozen !== undefined) out.frozen = f.frozen;
  if (f.frozenNote !== undefined) out.frozenNote = f.frozenNote;
  if (f.fee !== undefined) out.fee = formatAmount(f.fee);
  if (f.feeCollectorId !== undefined) out.feeCollectorId = f.feeCollectorId;
  return out;
}

/** Inserts a pair and returns its id. */
export async function insertPair(
  db: DbOrTx,
  row: PairFields & { buyCurrency: number; sellCurrency: number },
): Promise<string> {
  const id = newObjectId();
  await db
    .insert(exchangePairs)
    .values({ ...pairColumns(row), id, buyCurrency: row.buyCurrency, sellCurrency: row.sellCurrency });
  return id;
}

/** Changes the given columns of a live pair. */
export async function updatePair(db: DbOrTx, pairId: string, fields: PairFields): Promise<void> {
  await db
    .update(exchangePairs)
    .set({ ...pairColumns(fields), updatedAt: new Date() })
    .where(and(eq(exchangePairs.id, pairId), isNull(exchangePairs.deletedAt)));
}

/** Marks a pair deleted (its row stays for the order history). */
export async function markPairDeleted(db: DbOrTx, pairId: string): Promise<void> {
  await db
    .update(exchangePairs)
    .set({ deletedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(exchangePairs.id, pairId), isNull(exchangePairs.deletedAt)));
}

/** An order as the service sees it; amounts are Amounts. */
export interface OrderRow {
  id: string;
  seq: number;
  pairId: string;
  userId: string;
  buySide: boolean;
  initialAmount: Amount;
  filledAmount: Amount;
  price: Amount;
  state: number;
  escrowRemaining: Amount;
  createdAt: Date;
}

function toOrderRow(r: typeof exchangeOrders.$inferSelect): OrderRow {
  return {
    id: r.id,
    seq: Number(r.seq),
    pairId: r.pairId,
    userId: r.userId,
    buySide: r.buySide,
    initialAmount: fromNumeric(r.initialAmount),
    filledAmount: fromNumeric(r.filledAmount),
    price: fromNumeric(r.price),
    state: r.state,
    escrowRemaining: fromNumeric(r.escrowRemaining),
    createdAt: r.createdAt,
  };
}

/** One order (any pair, any state), or null. */
export async function findOrder(db: DbOrTx, orderId: string): Promise<OrderRow | null> {
  const [row] = await db.select().from(exchangeOrders).where(eq(exchangeOrders.id, orderId)).limit(1);
  return row ? toOrderRow(row) : null;
}

/** What placing a batch of orders reads under the pair's lock (see `findOrderContext`). */
export interface OrderContext {
  pair: PairRow;
  /** Every balance row the batch can touch, locked. */
  balances: BatchBalances;
  /** The resting orders the batch can reach, both sides, each side in priority order. */
  crossing: OrderRow[];
}

/** How far a batch's orders of one side can reach into the other side of the book. */
export interface SideReach {
  /** The best limit among the side's orders: the highest buy price, or the lowest sell price. */
  limit: Amount;
  /** The side's total quantity: the batch cannot consume more than this of the other side. */
  quantity: Amount;
}

/** A reach that selects nothing (no order of that side in the batch). */
const NO_REACH = { limit: '0', quantity: '0' };

/**
 * One statement, run right after the pair's lock so it sees every order committed before (DESIGN §5):
 * the live pair; the resting orders the batch can trade with (for its buys, the sells at or under
 * `buys.limit` in price-time priority, only as many as cover `buys.quantity`; for its sells, the buys at
 * or over `sells.limit` likewise); and every existing balance row the batch can touch, locked in the
 * global order by the ledger's `lockBalances`: those of `userIds`, of the reached orders' owners and
 * of the fee collector, in both currencies of the pair. Null when the pair does not exist or is deleted.
 * Whatever sequence of these orders is matched, it only consumes a prefix of each side of the book in
 * priority order, and never more than the other side's total quantity: so this is all it can reach.
 */
export async function findOrderContext(
  tx: Tx,
  q: { pairId: string; userIds: readonly string[]; buys: SideReach | null; sells: SideReach | null },
): Promise<OrderContext | null> {
  const reach = (r: SideReach | null) =>
    r ? { limit: formatAmount(r.limit), quantity: formatAmount(r.quantity) } : NO_REACH;
  const buys = reach(q.buys);
  const sells = reach(q.sells);
  const locked = await lockBalances<PairSqlRow & { crossing: Array<Record<string, string | number | boolean>> | null }>(
    tx,
    'exchange_order_context',
    {
      ctes: sql`
    p AS MATERIALIZED (${pairRows(sql`p.id = ${q.pairId}`)}),
    crossing AS MATERIALIZED (
      SELECT * FROM (
        SELECT *, sum(initial_amount - filled_amount) OVER (ORDER BY price ASC, seq ASC) AS running
        FROM exchange_orders
        WHERE pair_id = ${q.pairId} AND state = 1 AND NOT buy_side AND price <= ${buys.limit}::numeric) s
      WHERE s.running - (s.initial_amount - s.filled_amount) < ${buys.quantity}::numeric
      UNION ALL
      SELECT * FROM (
        SELECT *, sum(initial_amount - filled_amount) OVER (ORDER BY price DESC, seq ASC) AS running
        FROM exchange_orders
        WHERE pair_id = ${q.pairId} AND state = 1 AND buy_side AND price >= ${sells.limit}::numeric) b
      WHERE b.running - (b.initial_amount - b.filled_amount) < ${sells.quantity}::numeric)`,
      userIds: sql`SELECT unnest(${pgArray(q.userIds)}::text[]) UNION ALL SELECT user_id FROM crossing
                   UNION ALL SELECT fee_collector_id FROM p`,
      currencyIds: sql`SELECT buy_currency FROM p UNION ALL SELECT sell_currency FROM p`,
      columns: sql`p.*,
      (SELECT json_agg(json_build_object(
                'id', o.id, 'seq', o.seq::text, 'userId', o.user_id, 'buySide', o.buy_side,
                'initialAmount', o.initial_amount::text, 'filledAmount', o.filled_amount::text,
                'price', o.price::text, 'state', o.state, 'escrowRemaining', o.escrow_remaining::text,
                'createdAt', o.created_at)) FROM crossing o) AS crossing`,
      from: sql`FROM p`,
    },
  );
  if (!locked) return null;
  const { row, balances } = locked;
  return {
    pair: toPairRow(row),
    balances,
    crossing: (row.crossing ?? []).map((o) => ({
      id: String(o.id),
      seq: Number(o.seq),
      pairId: q.pairId,
      userId: String(o.userId),
      buySide: o.buySide === true,
      initialAmount: fromNumeric(String(o.initialAmount)),
      filledAmount: fromNumeric(String(o.filledAmount)),
      price: fromNumeric(String(o.price)),
      state: Number(o.state),
      escrowRemaining: fromNumeric(String(o.escrowRemaining)),
      createdAt: new Date(String(o.createdAt)),
    })),
  };
}

/** Sets filled amount, escrow and state of several orders in one statement. */
export async function updateOrders(
  db: DbOrTx,
  updates: ReadonlyArray<{ id: string; filledAmount: Amount; escrowRemaining: Amount; state: number }>,
): Promise<void> {
  if (updates.length === 0) return;
  await db.execute(sql`
    UPDATE exchange_orders o
    SET filled_amount = v.filled, escrow_remaining = v.escrow, state = v.state, updated_at = now()
    FROM unnest(
      ${pgArray(updates.map((u) => u.id))}::text[],
      ${pgArray(updates.map((u) => formatAmount(u.filledAmount)))}::numeric[],
      ${pgArray(updates.map((u) => formatAmount(u.escrowRemaining)))}::numeric[],
      ${pgArray(updates.map((u) => u.state))}::int[]
    ) AS v(id, filled, escrow, state)
    WHERE o.id = v.id`);
}

/** A new order as its batch leaves it (already matched); its pair, `seq` and time come from the insert. */
export type NewOrder = Omit<OrderRow, 'pairId' | 'seq' | 'createdAt'>;

/** What placing a batch of orders writes besides the money (see `placedOrderWrites`). */
export interface PlacedOrderWrites {
  pairId: string;
  /** The new orders in arrival order (their `seq`, time priority, follows it). */
  orders: readonly NewOrder[];
  /** Resting orders whose fill, escrow or state changed. */
  makers: ReadonlyArray<{ id: string; filledAmount: Amount; escrowRemaining: Amount; state: number }>;
  /** The trades in execution order (their `seq` follows it). */
  trades: ReadonlyArray<NewTrade & { id: string; takerBuySide: boolean }>;
}

/**
 * The exchange's part of placing a batch of orders, as the `along` part of `postEntries` (the ledger posts the
 * money in the same statement): the new orders (their `seq` assigned under the pair's lock), the resting
 * orders' new fills and escrow, and the trades. `parsePlacedOrders` reads the statement's row.
 */
export function placedOrderWrites(w: PlacedOrderWrites): PostAlong {
  const od = (f: (o: NewOrder) => string | number | boolean) => pgArray(w.orders.map(f));
  const mk = (f: (m: PlacedOrderWrites['makers'][number]) => string | number) => pgArray(w.makers.map(f));
  const tr = (f: (t: PlacedOrderWrites['trades'][number]) => string | boolean) => pgArray(w.trades.map(f));
  return {
    name: 'exchange_place_orders',
    ctes: sql`
    placed AS (
      INSERT INTO exchange_orders
        (id, pair_id, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining)
      SELECT id, ${w.pairId}, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining
      FROM unnest(
        ${od((o) => o.id)}::text[],
        ${od((o) => o.userId)}::text[],
        ${od((o) => o.buySide)}::bool[],
        ${od((o) => formatAmount(o.initialAmount))}::numeric[],
        ${od((o) => formatAmount(o.filledAmount))}::numeric[],
        ${od((o) => formatAmount(o.price))}::numeric[],
        ${od((o) => o.state)}::int[],
        ${od((o) => formatAmount(o.escrowRemaining))}::numeric[]
      ) WITH ORDINALITY AS v(id, user_id, buy_side, initial_amount, filled_amount, price, state, escrow_remaining, n)
      ORDER BY n
      RETURNING id, seq, created_at),
    makers AS (
      UPDATE exchange_orders m
      SET filled_amount = v.filled, escrow_remaining = v.escrow, state = v.state, updated_at = now()
      FROM unnest(${mk((m) => m.id)}::text[], ${mk((m) => formatAmount(m.filledAmount))}::numeric[],
                  ${mk((m) => formatAmount(m.escrowRemaining))}::numeric[], ${mk((m) => m.state)}::int[])
           AS v(id, filled, escrow, state)
      WHERE m.id = v.id AND m.state = 1
      RETURNING 1),
    trades AS (
      INSERT INTO exchange_trades
        (id, pair_id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost, buyer_fee, seller_fee)
      SELECT id, ${w.pairId}, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost, buyer_fee, seller_fee
      FROM unnest(
        ${tr((t) => t.id)}::text[],
        ${tr((t) => t.buyOrderId)}::text[],
        ${tr((t) => t.sellOrderId)}::text[],
        ${tr((t) => t.takerBuySide)}::bool[],
        ${tr((t) => formatAmount(t.price))}::numeric[],
        ${tr((t) => formatAmount(t.amount))}::numeric[],
        ${tr((t) => formatAmount(t.cost))}::numeric[],
        ${tr((t) => formatAmount(t.buyerFee))}::numeric[],
        ${tr((t) => formatAmount(t.sellerFee))}::numeric[]
      ) WITH ORDINALITY AS v(id, buy_order_id, sell_order_id, taker_buy_side, price, amount, cost, buyer_fee,
                             seller_fee, n)
      ORDER BY n
      RETURNING id, seq, created_at)`,
    columns: sql`
      (SELECT json_agg(json_build_object('id', id, 'seq', seq::text, 'createdAt', created_at)) FROM placed) AS placed,
      (SELECT count(*) FROM makers)::int AS makers_updated,
      (SELECT json_agg(json_build_object('id', id, 'seq', seq::text, 'createdAt', created_at)) FROM trades) AS trades`,
  };
}

/** The row `postEntries` returns for `placedOrderWrites`. */
export type PlacedOrderResult = {
  placed: Array<{ id: string; seq: string; createdAt: string }> | null;
  makers_updated: number;
  trades: Array<{ id: string; seq: string; createdAt: string }> | null;
};

/**
 * `seq` and creation time of each new order and each trade, by id. Throws an Error when a resting
 * order was not open any more (impossible under the pair's lock: the transaction then rolls back).
 */
export function parsePlacedOrders(
  w: PlacedOrderWrites,
  r: PlacedOrderResult,
): Map<string, { seq: number; createdAt: Date }> {
  if (Number(r.makers_updated) !== w.makers.length) throw new Error('a resting order changed under the pair lock');
  const rows = [...(r.placed ?? []), ...(r.trades ?? [])];
  return new Map(rows.map((x) => [String(x.id), { seq: Number(x.seq), createdAt: new Date(String(x.createdAt)) }]));
}

/** Every open order of a pair (both sides), oldest first: what deleting a pair must cancel. */
export async function findOpenOrdersOfPair(db: DbOrTx, pairId: string): Promise<OrderRow[]> {
  const rows = await db
    .select()
    .from(exchangeOrders)
    .where(and(eq(exchangeOrders.pairId, pairId), eq(exchangeOrders.state, 1)))
    .orderBy(exchangeOrders.seq);
  return rows.map(toOrderRow);
}

/** The open book of a pair: buys best (highest) price first, sells lowest first, then by time; `limit` a side. */
export async function findBook(
  db: DbOrTx,
  pairId: string,
  limit: number,
): Promise<{ buys: OrderRow[]; sells: OrderRow[] }> {
  const side = (buySide: boolean) =>
    db
      .select()
      .from(exchangeOrders)
      .where(and(eq(exchangeOrders.pairId, pairId), eq(exchangeOrders.state, 1), eq(exchangeOrders.buySide, buySide)))
      .orderBy(buySide ? desc(exchangeOrders.price) : exchangeOrders.price, exchangeOrders.seq)
      .limit(limit);
  const [buys, sells] = await Promise.all([side(true), side(false)]);
  return { buys: buys.map(toOrderRow), sells: sells.map(toOrderRow) };
}

/** A member's orders, newest first, optionally of one pair; at most `limit`. */
export async function findUserOrders(
  db: DbOrTx,
  userId: string,
  pairId: string | undefined,
  limit: number,
): Promise<OrderRow[]> {
  const where = pairId
    ? and(eq(exchangeOrders.userId, userId), eq(exchangeOrders.pairId, pairId))
    : eq(exchangeOrders.userId, userId);
  const rows = await db.select().from(exchangeOrders).where(where).orderBy(desc(exchangeOrders.seq)).limit(limit);
  return rows.map(toOrderRow);
}

/** A trade to record. */
export interface NewTrade {
  buyOrderId: string;
  sellOrderId: string;
  price: Amount;
  amount: Amount;
  cost: Amount;
  buyerFee: Amount;
  sellerFee: Amount;
}

/** A recorded trade. */
export interface TradeRow {
  id: string;
  seq: number;
  pairId: string;
  takerBuySide: boolean;
  price: Amount;
  amount: Amount;
  createdAt: Date;
}

type TradeSqlRow = {
  id: string;
  seq: string | number;
  pair_id: string;
  taker_buy_side: boolean;
  price: string;
  amount: string;
  created_at: string | Date;
};

function toTradeRow(r: TradeSqlRow): TradeRow {
  return {
    id: r.id,
    seq: Number(r.seq),
    pairId: r.pair_id,
    takerBuySide: r.taker_buy_side,
    price: fromNumeric(String(r.price)),
    amount: fromNumeric(String(r.amount)),
    createdAt: new Date(r.created_at),
  };
}

/** The latest trades of a pair, newest first; only those after `afterSeq` when given. */
export async function findTrades(db: DbOrTx, pairId: string, limit: number, afterSeq?: number): Promise<TradeRow[]> {
  const after = afterSeq === undefined ? sql`true` : sql`seq > ${afterSeq}`;
  const res = await db.execute<TradeSqlRow>(sql`
    SELECT id, seq, pair_id, taker_buy_side, price, amount, created_at FROM exchange_trades
    WHERE pair_id = ${pairId} AND ${after}
    ORDER BY seq DESC LIMIT ${limit}`);
  return res.rows.map(toTradeRow);
}

/** The highest trade `seq` of a pair (0 when none). */
export async function findLastTradeSeq(db: DbOrTx, pairId: string): Promise<number> {
  const res = await db.execute<{ seq: string | null }>(
    sql`SELECT max(seq) AS seq FROM exchange_trades WHERE pair_id = ${pairId}`,
  );
  return Number(res.rows[0]?.seq ?? 0);
}

/** The open quantity of a pair per price level, best first, `levels` a side. */
export async function findDepth(
  db: DbOrTx,
  pairId: string,
  levels: number,
): Promise<{ buys: DepthRow[]; sells: DepthRow[] }> {
  const side = async (buySide: boolean) => {
    const res = await db.execute<{ price: string; amount: string; orders: string }>(sql`
      SELECT price, sum(initial_amount - filled_amount) AS amount, count(*) AS orders
      FROM exchange_orders WHERE pair_id = ${pairId} AND state = 1 AND buy_side = ${buySide}
      GROUP BY price ORDER BY price ${buySide ? sql`DESC` : sql`ASC`} LIMIT ${levels}`);
    return res.rows.map((r) => ({
      price: fromNumeric(String(r.price)),
      amount: fromNumeric(String(r.amount)),
      orders: Number(r.orders),
    }));
  };
  const [buys, sells] = await Promise.all([side(true), side(false)]);
  return { buys, sells };
}

/** One price level of the book. */
export interface DepthRow {
  price: Amount;
  amount: Amount;
  orders: number;
}

const INTERVALS: Record<CandleInterval, string> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '4h': '4 hours',
  '1d': '1 day',
};

/** One OHLC bucket. */
export interface CandleRow {
  time: Date;
  open: Amount;
  high: Amount;
  low: Amount;
  close: Amount;
  volume: Amount;
}

/** The last `limit` buckets of `interval` that hold trades, oldest first (buckets aligned to the epoch, UTC). */
export async function findCandles(
  db: DbOrTx,
  pairId: string,
  interval: CandleInterval,
  limit: number,
): Promise<CandleRow[]> {
  const width = INTERVALS[interval];
  const res = await db.execute<{
    bucket: string | Date;
    open: string;
    high: string;
    low: string;
    close: string;
    volume: string;
  }>(sql`
    SELECT * FROM (
      SELECT date_bin(${width}::interval, created_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket,
             (array_agg(price ORDER BY seq))[1] AS open, max(price) AS high, min(price) AS low,
             (array_agg(price ORDER BY seq DESC))[1] AS close, sum(amount) AS volume
      FROM exchange_trades WHERE pair_id = ${pairId}
      GROUP BY bucket ORDER BY bucket DESC LIMIT ${limit}
    ) c ORDER BY bucket ASC`);
  return res.rows.map((r) => ({
    time: new Date(r.bucket),
    open: fromNumeric(String(r.open)),
    high: fromNumeric(String(r.high)),
    low: fromNumeric(String(r.low)),
    close: fromNumeric(String(r.close)),
    volume: fromNumeric(String(r.volume)),
  }));
}
