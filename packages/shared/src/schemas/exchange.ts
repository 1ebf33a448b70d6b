/**
 * Request and response schemas of the exchange, the Quantum Hub (SPEC §3 exchange entities, §7 Exchange;
 * DESIGN §3 wire shapes, §5), and the messages of the live feed at `/api/ws`.
 * Amounts and prices are decimal strings on the wire; `price` is sellCurrency per one unit of buyCurrency,
 * `initialAmount`, `filledAmount` and trade `amount` are in buyCurrency.
 */
import { z } from 'zod';
import {
  amountInput,
  currencyId,
  decimalString,
  feeFraction,
  isoDate,
  name,
  nickname,
  note,
  objectId,
  paging,
  totalCapped,
} from './common.ts';

/** SPEC §3 exchange pair. `name` is `"<buy currency name> → <sell currency name>"` (DESIGN §5). */
export const pair = z.object({
  _id: z.string(),
  name: z.string(),
  buyCurrency: z.number().int(),
  sellCurrency: z.number().int(),
  canBuy: z.boolean(),
  canSell: z.boolean(),
  visible: z.boolean(),
  frozen: z.boolean(),
  frozenNote: z.string(),
  /** SPEC §3's one fee: the larger of `makerFee` and `takerFee`, a fraction 0..1 ("0.002"). */
  fee: decimalString,
  /** Fraction 0..1 of the proceeds paid by the side whose order rested on the book (DESIGN §11.4). */
  makerFee: decimalString,
  /** Fraction 0..1 of the proceeds paid by the side whose incoming order matched (DESIGN §11.4). */
  takerFee: decimalString,
  /** Nickname of the fee collector; '' when fees are burned. */
  feeCollector: z.string(),
  createdAt: z.string(),
});
export type Pair = z.infer<typeof pair>;

/**
 * SPEC §3 exchange order (DESIGN §3). `state`: 1 Placed, 2 Cancelled, 3 Filled, 5 Untriggered (a stop-limit
 * order waiting for its stop, escrow held: DESIGN §11.4). Never the owner.
 */
export const order = z.object({
  _id: z.string(),
  pair: z.string(),
  buySide: z.boolean(),
  initialAmount: decimalString,
  filledAmount: decimalString,
  price: decimalString,
  state: z.number().int(),
  createdAt: z.string(),
  /** DESIGN §11.4: `limit`, `market` (its `price` is the average of its fills) or `stop_limit`. */
  type: z.string(),
  /** DESIGN §11.4: `GTC`, `IOC` or `FOK`. */
  timeInForce: z.string(),
  postOnly: z.boolean(),
  stopPrice: decimalString.nullable(),
  expiresAt: z.string().nullable(),
  /** Cancelled by reaching `expiresAt` (state 2, DESIGN §11.4), not by its member or an admin. */
  expired: z.boolean(),
});
export type Order = z.infer<typeof order>;

/** One execution. `buySide` is the taker's side: true when an incoming buy lifted a resting sell. */
export const trade = z.object({
  _id: z.string(),
  pair: z.string(),
  price: decimalString,
  amount: decimalString,
  buySide: z.boolean(),
  createdAt: z.string(),
});
export type Trade = z.infer<typeof trade>;

const collector = z.union([nickname, z.literal('')]);

/**
 * `createPair` (admin). SPEC's `name` is accepted but the server composes the name from the currencies
 * (DESIGN §5). `visible` defaults to true, `frozen` to false, fees to 0, `feeCollector` to '' (burn).
 * `fee` sets both `makerFee` and `takerFee` (DESIGN §11.4); a `makerFee` or `takerFee` given beside it wins.
 */
export const createPairRequest = z.strictObject({
  name: name.optional(),
  buyCurrency: currencyId,
  sellCurrency: currencyId,
  canBuy: z.boolean(),
  canSell: z.boolean(),
  visible: z.boolean().optional(),
  frozen: z.boolean().optional(),
  frozenNote: note.optional(),
  fee: feeFraction.optional(),
  makerFee: feeFraction.optional(),
  takerFee: feeFraction.optional(),
  feeCollector: collector.optional(),
});
export type CreatePairRequest = z.input<typeof createPairRequest>;
/** `createPair` as the server receives it, parsed (`fee` an Amount fraction). */
export type CreatePairInput = z.output<typeof createPairRequest>;

/**
 * `modifyPair` (admin): `pairId` and any subset of the flags; the currencies never change. `fee` sets both
 * `makerFee` and `takerFee` (DESIGN §11.4); a `makerFee` or `takerFee` given beside it wins.
 */
export const modifyPairRequest = z.strictObject({
  pairId: objectId,
  name: name.optional(),
  canBuy: z.boolean().optional(),
  canSell: z.boolean().optional(),
  visible: z.boolean().optional(),
  frozen: z.boolean().optional(),
  frozenNote: note.optional(),
  fee: feeFraction.optional(),
  makerFee: feeFraction.optional(),
  takerFee: feeFraction.optional(),
  feeCollector: collector.optional(),
});
export type ModifyPairRequest = z.input<typeof modifyPairRequest>;
/** `modifyPair` as the server receives it, parsed. */
export type ModifyPairInput = z.output<typeof modifyPairRequest>;

export const pairResponse = z.object({ pair, message: z.string() });
export type PairResponse = z.infer<typeof pairResponse>;

/** `deletePair` (admin): open orders are cancelled and refunded first. */
export const deletePairRequest = z.strictObject({ pairId: objectId });
export const deletePairResponse = z.object({ cancelledOrders: z.number().int(), message: z.string() });
export type DeletePairResponse = z.infer<typeof deletePairResponse>;

/** `getPairs` (public): visible pairs; an admin also sees hidden ones. Message `Got N pair(s)`. */
export const pairsResponse = z.object({ pairs: z.array(pair), message: z.string() });
export type PairsResponse = z.infer<typeof pairsResponse>;

/** Order types `placeOrder` takes (DESIGN §11.4). */
export const ORDER_TYPES = ['limit', 'market', 'stop_limit'] as const;
export type OrderType = (typeof ORDER_TYPES)[number];
/** Times in force `placeOrder` takes (DESIGN §11.4): good till cancelled, immediate or cancel, fill or kill. */
export const TIME_IN_FORCE = ['GTC', 'IOC', 'FOK'] as const;
export type TimeInForce = (typeof TIME_IN_FORCE)[number];

/**
 * SPEC §5 order placement: pair, buySide, initialAmount, price (amounts: number or decimal string), and
 * DESIGN §11.4's `type` (default limit), `timeInForce` (default GTC), `postOnly` (default false), `stopPrice`,
 * `expiresAt`. `price`
 * is required except for a market order, which takes none (the server says so).
 */
export const placeOrderRequest = z.strictObject({
  pair: objectId,
  buySide: z.boolean(),
  initialAmount: amountInput,
  price: amountInput.optional(),
  type: z.enum(ORDER_TYPES).default('limit'),
  timeInForce: z.enum(TIME_IN_FORCE).default('GTC'),
  postOnly: z.boolean().default(false),
  /**
   * A stop-limit order's trigger (required for `stop_limit`, refused for other types): it waits, escrow
   * held, until a trade prints at or past it (buys at or above, sells at or below), then is placed as a
   * limit order at `price` (DESIGN §11.4).
   */
  stopPrice: amountInput.optional(),
  /** Good till this time (a resting GTC order): then cancelled, its escrow returned (DESIGN §11.4). */
  expiresAt: isoDate.optional(),
});
export type PlaceOrderRequest = z.input<typeof placeOrderRequest>;
/** `placeOrder` as the server receives it, parsed (amounts as Amounts). */
export type PlaceOrderInput = z.output<typeof placeOrderRequest>;
/** DESIGN §3: `{order, tx:{note}, message}`; `trades` lists the executions the order made at once. */
export const placeOrderResponse = z.object({
  order,
  trades: z.array(trade),
  tx: z.object({ note: z.string() }),
  message: z.string(),
});
export type PlaceOrderResponse = z.infer<typeof placeOrderResponse>;

/** `cancelOrder` (owner or admin) and `payoutOrder` (admin, sell orders). */
export const orderIdRequest = z.strictObject({ orderId: objectId });
export const orderResponse = z.object({ order, message: z.string() });
export type OrderResponse = z.infer<typeof orderResponse>;

/**
 * `cancelAllOrders` (member, DESIGN §11.4): the caller's open orders, all of them or those of one `pair`,
 * cancelled with their escrow returned. `cancelled` counts the orders this call cancelled.
 */
export const cancelAllOrdersRequest = z.strictObject({ pair: objectId.optional() });
export type CancelAllOrdersRequest = z.infer<typeof cancelAllOrdersRequest>;
export const cancelAllOrdersResponse = z.object({ cancelled: z.number().int(), message: z.string() });
export type CancelAllOrdersResponse = z.infer<typeof cancelAllOrdersResponse>;

/** `getOrders` (public): the open orders of a pair, best price first, without owners. */
export const getOrdersRequest = z.strictObject({ pair: objectId });
export const bookOrders = z.object({ buys: z.array(order), sells: z.array(order) });
export const getOrdersResponse = z.object({ orders: bookOrders, message: z.string() });
export type GetOrdersResponse = z.infer<typeof getOrdersResponse>;

/** `getUserOrders` (member, GET): own orders, newest first; `?pair=` narrows to one pair. */
export const getUserOrdersQuery = z.strictObject({ pair: objectId.optional() });
export const userOrdersResponse = z.object({ orders: z.array(order), message: z.string() });
export type UserOrdersResponse = z.infer<typeof userOrdersResponse>;

/** A page of orders: `total` counted up to `COUNT_CAP` past the page's first row (`totalCapped`). */
export const ordersPageResponse = z.object({
  orders: z.array(order),
  total: z.number().int(),
  totalCapped,
  message: z.string(),
});
export type OrdersPageResponse = z.infer<typeof ordersPageResponse>;

/**
 * `getMyOrdersPage` (member, ours): a page of the caller's own orders, newest first, of one `state`
 * (1 Placed, 2 Cancelled, 3 Filled, 5 Untriggered) and optionally one pair.
 */
export const getMyOrdersPageRequest = z.strictObject({
  paging,
  state: z.union([z.literal(1), z.literal(2), z.literal(3), z.literal(5)]),
  pair: objectId.optional(),
});
export type GetMyOrdersPageRequest = z.infer<typeof getMyOrdersPageRequest>;

/** `getBookPage` (public, ours): a page of one side of a pair's open orders in price-time priority. */
export const getBookPageRequest = z.strictObject({ pair: objectId, buySide: z.boolean(), paging });
export type GetBookPageRequest = z.infer<typeof getBookPageRequest>;

/** `getTrades` (public, ours): the latest trades of a pair, newest first. `limit` 1..200, default 50. */
export const getTradesRequest = z.strictObject({ pair: objectId, limit: z.number().int().min(1).max(200).optional() });
export const tradesResponse = z.object({ trades: z.array(trade), message: z.string() });
export type TradesResponse = z.infer<typeof tradesResponse>;

/** Candle widths of `getCandles`. */
export const CANDLE_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type CandleInterval = (typeof CANDLE_INTERVALS)[number];

/** `getCandles` (public, ours): OHLC buckets with trades, oldest first. `limit` 1..1000, default 200. */
export const getCandlesRequest = z.strictObject({
  pair: objectId,
  interval: z.enum(CANDLE_INTERVALS),
  limit: z.number().int().min(1).max(1000).optional(),
});
/** One bucket: `time` is its start (ISO 8601 UTC); `volume` in buyCurrency. */
export const candle = z.object({
  time: z.string(),
  open: decimalString,
  high: decimalString,
  low: decimalString,
  close: decimalString,
  volume: decimalString,
});
export type Candle = z.infer<typeof candle>;
export const candlesResponse = z.object({ candles: z.array(candle), message: z.string() });
export type CandlesResponse = z.infer<typeof candlesResponse>;

/**
 * `getDepth` (public, ours): the book by price level, best first: per price the open quantity and how
 * many orders rest there. `levels` a side, 1..500, default 50 (the Quantum Hub's book shows 20).
 */
export const getDepthRequest = z.strictObject({ pair: objectId, levels: z.number().int().min(1).max(500).optional() });
export const depthLevel = z.object({ price: decimalString, amount: decimalString, orders: z.number().int() });
export type DepthLevel = z.infer<typeof depthLevel>;
export const depth = z.object({ buys: z.array(depthLevel), sells: z.array(depthLevel) });
export type Depth = z.infer<typeof depth>;
export const depthResponse = z.object({ depth, message: z.string() });
export type DepthResponse = z.infer<typeof depthResponse>;

/**
 * Messages a client sends on `/api/ws` (JSON text frames):
 * `auth` signs the socket in with the session JWT (own orders and balances follow);
 * `subscribe` / `unsubscribe` a pair's book and trades; `ping` answers `pong`.
 */
export const wsClientMessage = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('auth'), token: z.string().min(1).max(4096) }),
  z.strictObject({ type: z.literal('subscribe'), pair: objectId }),
  z.strictObject({ type: z.literal('unsubscribe'), pair: objectId }),
  z.strictObject({ type: z.literal('ping') }),
]);
export type WsClientMessage = z.infer<typeof wsClientMessage>;
// What the server pushes back: `../ws-server.ts`.
