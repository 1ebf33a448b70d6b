/** The exchange's market data (public; SPEC §7 Exchange, DESIGN §5): the book, own orders, trades, candles, depth. */
import type { CandleInterval, Depth, GetOrdersResponse, Order, UserOrdersResponse } from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import type { AuthUser } from '../../plugins/auth.ts';
import { findCandles } from './candles.queries.ts';
import { toCandleDto, toDepthDto, toOrderDto, toTradeDto } from './exchange.dto.ts';
import { findBook, findDepth, findTrades } from './market.queries.ts';
import { findUserOrders, type OrderRow } from './orders.queries.ts';
import type { PairRow } from './pairs.queries.ts';
import { requireViewablePair, type Viewer } from './pairs.service.ts';

/** How many open orders a side of `getOrders` lists, and how many own orders `getUserOrders` lists. */
export const BOOK_LIMIT = 500;
export const USER_ORDERS_LIMIT = 500;

/** The open orders of `pair` as the wire shows them, best price first. */
export async function loadBook(db: DbOrTx, pair: PairRow): Promise<{ buys: Order[]; sells: Order[] }> {
  const book = await findBook(db, pair.id, BOOK_LIMIT);
  const dto = (o: OrderRow) => toOrderDto(o, pair);
  return { buys: book.buys.map(dto), sells: book.sells.map(dto) };
}

/**
 * SPEC §7 getOrders (public): a pair's open orders without owners, buys highest price first, sells
 * lowest first, each side at most 500. Message `Got N Orders`. Throws NOT_FOUND.
 */
export async function listBook(db: Db, viewer: Viewer, pairId: string): Promise<GetOrdersResponse> {
  const pair = await requireViewablePair(db, pairId, viewer);
  const orders = await loadBook(db, pair);
  return { orders, message: `Got ${orders.buys.length + orders.sells.length} Orders` };
}

/** A member's orders on the wire, newest first, at most 500. */
export async function loadUserOrders(db: DbOrTx, userId: string, pairId?: string): Promise<Order[]> {
  return (await findUserOrders(db, userId, pairId, USER_ORDERS_LIMIT)).map((o) => toOrderDto(o, o));
}

/** SPEC §7 getUserOrders (member): own orders of every state, newest first. Message `Got N Orders`. */
export async function listUserOrders(db: Db, member: AuthUser, pairId?: string): Promise<UserOrdersResponse> {
  const orders = await loadUserOrders(db, member.id, pairId);
  return { orders, message: `Got ${orders.length} Orders` };
}

/** Recent trades of a pair (public, ours), newest first; `limit` default 50. Throws NOT_FOUND. */
export async function listTrades(db: Db, viewer: Viewer, pairId: string, limit = 50) {
  const pair = await requireViewablePair(db, pairId, viewer);
  const trades = (await findTrades(db, pairId, limit)).map((t) => toTradeDto(t, pair));
  return { trades, message: `Got ${trades.length} trades` };
}

/** OHLC candles of a pair (public, ours), oldest first; `limit` buckets, default 200. Throws NOT_FOUND. */
export async function listCandles(db: Db, viewer: Viewer, pairId: string, interval: CandleInterval, limit = 200) {
  const pair = await requireViewablePair(db, pairId, viewer);
  const candles = (await findCandles(db, pairId, interval, limit)).map((c) => toCandleDto(c, pair));
  return { candles, message: `Got ${candles.length} candles` };
}

/** The book's open quantity per price level of `pair`, best first (public, ours). */
export async function loadDepth(db: DbOrTx, pair: PairRow, levels = 50): Promise<Depth> {
  return toDepthDto(await findDepth(db, pair.id, levels), pair);
}

/** Order-book depth of a pair (public, ours); `levels` a side, default 50. Throws NOT_FOUND. */
export async function depthOf(db: Db, viewer: Viewer, pairId: string, levels = 50) {
  const pair = await requireViewablePair(db, pairId, viewer);
  const depth = await loadDepth(db, pair, levels);
  return { depth, message: `Got ${depth.buys.length + depth.sells.length} price levels` };
}
