/** SQL of the exchange's market data (DESIGN §5): the book, trades and depth (candles: candles.queries.ts). */
import { type Amount, fromNumeric } from '@starlight/shared';
import { and, desc, eq, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { cappedTotal } from '../../db/paging.ts';
import { exchangeOrders } from '../../db/schema/index.ts';
import { type OrderRow, toOrderRow } from './orders.queries.ts';

/** `buy_side` or `NOT buy_side` as SQL text: the predicate of that side's partial book index. */
function sideIs(buySide: boolean): SQL {
  return buySide ? sql`buy_side` : sql`NOT buy_side`;
}

/** The open book of a pair: buys best (highest) price first, sells lowest first, then by time; `limit` a side. */
export async function findBook(
  db: DbOrTx,
  pairId: string,
  limit: number,
): Promise<{ buys: OrderRow[]; sells: OrderRow[] }> {
  // The side as SQL text, not a parameter, so the planner matches the side's partial index (and reads
  // the first `limit` entries in its order, never the whole side).
  const side = (buySide: boolean) =>
    db
      .select()
      .from(exchangeOrders)
      .where(and(eq(exchangeOrders.pairId, pairId), sql`${exchangeOrders.state} = 1`, sideIs(buySide)))
      .orderBy(buySide ? desc(exchangeOrders.price) : exchangeOrders.price, exchangeOrders.seq)
      .limit(limit);
  const [buys, sells] = await Promise.all([side(true), side(false)]);
  return { buys: buys.map(toOrderRow), sells: sells.map(toOrderRow) };
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

/**
 * The book of a pair by price level, best first, at most `levels` a side: per price the open quantity
 * (initial less filled) and the count of orders. An index walk of the side's book index, never a scan of
 * the side: a recursive step reads the next distinct price below (buys) or above (sells) the last one
 * (one index probe each), and each level's sum reads only that price's range of the index.
 */
export async function findDepth(
  db: DbOrTx,
  pairId: string,
  levels: number,
): Promise<{ buys: DepthRow[]; sells: DepthRow[] }> {
  const side = async (buySide: boolean) => {
    const onSide = sql`o.pair_id = ${pairId} AND o.state = 1 AND ${buySide ? sql`o.buy_side` : sql`NOT o.buy_side`}`;
    const [order, beyond] = buySide ? [sql`DESC`, sql`<`] : [sql`ASC`, sql`>`];
    const res = await db.execute<{ price: string; amount: string; orders: string }>(sql`
      WITH RECURSIVE lv(price, n) AS (
        (SELECT o.price, 1 FROM exchange_orders o WHERE ${onSide} ORDER BY o.price ${order} LIMIT 1)
        UNION ALL
        SELECT (SELECT o.price FROM exchange_orders o WHERE ${onSide} AND o.price ${beyond} lv.price
                ORDER BY o.price ${order} LIMIT 1), lv.n + 1
        FROM lv WHERE lv.n < ${levels} AND lv.price IS NOT NULL)
      SELECT lv.price, a.amount, a.orders FROM lv
      CROSS JOIN LATERAL (SELECT sum(o.initial_amount - o.filled_amount) AS amount, count(*) AS orders
                          FROM exchange_orders o WHERE ${onSide} AND o.price = lv.price) a
      WHERE lv.price IS NOT NULL
      ORDER BY lv.price ${order}`);
    return res.rows.map((r) => ({
      price: fromNumeric(String(r.price)),
      amount: fromNumeric(String(r.amount)),
      orders: Number(r.orders),
    }));
  };
  const [buys, sells] = await Promise.all([side(true), side(false)]);
  return { buys, sells };
}

/**
 * A page of one side of a pair's open book in price-time priority (buys highest price first, sells
 * lowest, then oldest), `limit` from `offset`, with its total counted up to `offset + COUNT_CAP`. Read
 * from the side's book index (the side as SQL text, so the planner matches its partial index).
 */
export async function findBookPage(
  db: DbOrTx,
  q: { pairId: string; buySide: boolean; limit: number; offset: number },
): Promise<{ orders: OrderRow[]; total: number; totalCapped: boolean }> {
  const [orders, count] = await Promise.all([
    db
      .select()
      .from(exchangeOrders)
      .where(and(eq(exchangeOrders.pairId, q.pairId), sql`${exchangeOrders.state} = 1`, sideIs(q.buySide)))
      .orderBy(q.buySide ? desc(exchangeOrders.price) : exchangeOrders.price, exchangeOrders.seq)
      .limit(q.limit)
      .offset(q.offset),
    cappedTotal(db, sql`exchange_orders WHERE pair_id = ${q.pairId} AND state = 1 AND ${sideIs(q.buySide)}`, q.offset),
  ]);
  return { orders: orders.map(toOrderRow), ...count };
}

/** One price level of the book. */
export interface DepthRow {
  price: Amount;
  amount: Amount;
  orders: number;
}
