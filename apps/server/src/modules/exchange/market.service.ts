/** The exchange's market data (public; SPEC §7 Exchange, DESIGN §5): the book, own orders, trades, candles, depth. */
import type {
  CandleInterval,
  Depth,
  GetBookPageRequest,
  GetMyOrdersPageRequest,
  GetOrdersResponse,
  Order,
  OrdersPageResponse,
  UserOrdersResponse,
} from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { cappedTotal } from '../../db/paging.ts';
import type { AuthUser } from '../../http/access.ts';
import { findCandles } from './candles.queries.ts';
import { toCandleDto, toDepthDto, toOrderDto, toTradeDto } from './exchange.dto.ts';
import { findBook, findBookPage, findDepth, findTrades } from './market.queries.ts';
import { findUserOrders, type OrderRow, userOrdersFrom } from './orders.queries.ts';
import type { PairRow } from './pairs.queries.ts';

/** How many open orders a side of `getOrders` lists, and how many own orders `getUserOrders` lists. */
export const BOOK_LIMIT = 500;
export const USER_ORDERS_LIMIT = 500;

/** The open orders of `pair` as the wire shows them, best price first. */
async function loadBook(db: DbOrTx, pair: PairRow): Promise<{ buys: Order[]; sells: Order[] }> {
  const book = await findBook(db, pair.id, BOOK_LIMIT);
  const dto = (o: OrderRow) => toOrderDto(o, pair);
  return { buys: book.buys.map(dto), sells: book.sells.map(dto) };
}

/**
 * SPEC §7 getOrders (public): `pair`'s open orders without owners, buys highest price first, sells
 * lowest first, each side at most 500. Message `Got N Orders`. The caller checks the viewer may see it.
 */
export async function listBook(db: Db, pair: PairRow): Promise<GetOrdersResponse> {
  const orders = await loadBook(db, pair);
  return { orders, message: `Got ${orders.buys.length + orders.sells.length} Orders` };
}

/** A member's orders on the wire, newest first, at most 500. */
export async function loadUserOrders(db: DbOrTx, userId: string, pairId?: string): Promise<Order[]> {
  return (await findUserOrders(db, userId, { pairId, limit: USER_ORDERS_LIMIT })).map((o) => toOrderDto(o, o));
}

/** SPEC §7 getUserOrders (member): own orders of every state, newest first. Message `Got N Orders`. */
export async function listUserOrders(db: Db, member: AuthUser, pairId?: string): Promise<UserOrdersResponse> {
  const orders = await loadUserOrders(db, member.id, pairId);
  return { orders, message: `Got ${orders.length} Orders` };
}

/**
 * A page of `member`'s own orders of one state (and pair, when given), newest first, with the total
 * counted up to `offset + COUNT_CAP` (DESIGN §3 paging). Never another member's orders.
 */
export async function myOrdersPage(db: Db, member: AuthUser, q: GetMyOrdersPageRequest): Promise<OrdersPageResponse> {
  const offset = (q.paging.page - 1) * q.paging.limit;
  const filter = { pairId: q.pair, state: q.state };
  const [rows, count] = await Promise.all([
    findUserOrders(db, member.id, { ...filter, limit: q.paging.limit, offset }),
    cappedTotal(db, userOrdersFrom(member.id, filter), offset),
  ]);
  const orders = rows.map((o) => toOrderDto(o, o));
  return { orders, ...count, message: `Got ${orders.length} Orders` };
}

/**
 * A page of one side of `pair`'s open book in price-time priority, without owners (public, like
 * getOrders); the total counted up to `offset + COUNT_CAP`. The caller checks the viewer may see the pair.
 */
export async function bookPage(db: Db, pair: PairRow, q: GetBookPageRequest): Promise<OrdersPageResponse> {
  const offset = (q.paging.page - 1) * q.paging.limit;
  const page = await findBookPage(db, { pairId: pair.id, buySide: q.buySide, limit: q.paging.limit, offset });
  const orders = page.orders.map((o) => toOrderDto(o, pair));
  return { orders, total: page.total, totalCapped: page.totalCapped, message: `Got ${orders.length} Orders` };
}

/** Recent trades of `pair` (public, ours), newest first; `limit` default 50. */
export async function listTrades(db: Db, pair: PairRow, limit = 50) {
  const trades = (await findTrades(db, pair.id, limit)).map((t) => toTradeDto(t, pair));
  return { trades, message: `Got ${trades.length} trades` };
}

/** OHLC candles of `pair` (public, ours), oldest first; `limit` buckets, default 200. */
export async function listCandles(db: Db, pair: PairRow, interval: CandleInterval, limit = 200) {
  const candles = (await findCandles(db, pair.id, interval, limit)).map((c) => toCandleDto(c, pair));
  return { candles, message: `Got ${candles.length} candles` };
}

/** The book's open quantity per price level of `pair`, best first (public, ours). */
export async function loadDepth(db: DbOrTx, pair: PairRow, levels = 50): Promise<Depth> {
  return toDepthDto(await findDepth(db, pair.id, levels), pair);
}

/** Order-book depth of `pair` (public, ours); `levels` a side, default 50. */
export async function depthOf(db: Db, pair: PairRow, levels = 50) {
  const depth = await loadDepth(db, pair, levels);
  return { depth, message: `Got ${depth.buys.length + depth.sells.length} price levels` };
}
