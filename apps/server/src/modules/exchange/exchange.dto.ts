/** The exchange's rows as the wire shows them (SPEC §3, DESIGN §3, §5), and the text of its amounts. */
import {
  type Amount,
  type Candle,
  type Depth,
  formatAmount,
  formatAtPrecision,
  type Order,
  type Pair,
  type Trade,
  toDecimalString,
} from '@starlight/shared';
import type { CandleRow } from './candles.queries.ts';
import type { DepthRow, TradeRow } from './market.queries.ts';
import type { OrderRow } from './orders.queries.ts';
import type { PairRow } from './pairs.queries.ts';

/** DESIGN §5: `"<buy currency name> → <sell currency name>"`. */
export function pairName(buyName: string, sellName: string): string {
  return `${buyName} → ${sellName}`;
}

/** Amounts of a pair as messages and notes show them: `"2.00 SD"` in buyCurrency, `"1.50 SN"` in sellCurrency. */
export function pairAmountText(pair: Pick<PairRow, 'buyPrecision' | 'buyTicker' | 'sellPrecision' | 'sellTicker'>): {
  buy: (a: Amount) => string;
  sell: (a: Amount) => string;
} {
  return {
    buy: (a) => `${formatAmount(a, pair.buyPrecision)} ${pair.buyTicker}`,
    sell: (a) => `${formatAmount(a, pair.sellPrecision)} ${pair.sellTicker}`,
  };
}

/**
 * The precisions a pair's amounts are written at: quantities (`initialAmount`, `filledAmount`,
 * trade and level amounts, volume) in its buyCurrency's, prices in its sellCurrency's (DESIGN §5).
 */
export interface PairPrecision {
  buyPrecision: number;
  sellPrecision: number;
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
    makerFee: toDecimalString(p.makerFee),
    takerFee: toDecimalString(p.takerFee),
    feeCollector: p.feeCollector,
    createdAt: p.createdAt.toISOString(),
  };
}

/** SPEC §3 order on the wire (never its owner), amounts at the pair's precisions `p`. */
export function toOrderDto(o: Omit<OrderRow, 'userId' | 'seq'>, p: PairPrecision): Order {
  return {
    _id: o.id,
    pair: o.pairId,
    buySide: o.buySide,
    initialAmount: formatAtPrecision(o.initialAmount, p.buyPrecision),
    filledAmount: formatAtPrecision(o.filledAmount, p.buyPrecision),
    price: formatAtPrecision(o.price, p.sellPrecision),
    state: o.state,
    createdAt: o.createdAt.toISOString(),
    type: o.type,
    timeInForce: o.timeInForce,
    postOnly: o.postOnly,
    stopPrice: o.stopPrice === null ? null : formatAtPrecision(o.stopPrice, p.sellPrecision),
    expiresAt: o.expiresAt?.toISOString() ?? null,
    expired: o.expired,
  };
}

/** A trade on the wire, amounts at the pair's precisions `p`. */
export function toTradeDto(t: Omit<TradeRow, 'seq'>, p: PairPrecision): Trade {
  return {
    _id: t.id,
    pair: t.pairId,
    price: formatAtPrecision(t.price, p.sellPrecision),
    amount: formatAtPrecision(t.amount, p.buyPrecision),
    buySide: t.takerBuySide,
    createdAt: t.createdAt.toISOString(),
  };
}

/** The book's depth on the wire: per price level, its open quantity and order count, at the pair's precisions. */
export function toDepthDto(d: { buys: DepthRow[]; sells: DepthRow[] }, p: PairPrecision): Depth {
  const level = (l: DepthRow) => ({
    price: formatAtPrecision(l.price, p.sellPrecision),
    amount: formatAtPrecision(l.amount, p.buyPrecision),
    orders: l.orders,
  });
  return { buys: d.buys.map(level), sells: d.sells.map(level) };
}

/** One OHLC candle on the wire: prices at the sellCurrency's precision, volume at the buyCurrency's. */
export function toCandleDto(c: CandleRow, p: PairPrecision): Candle {
  const price = (a: Amount) => formatAtPrecision(a, p.sellPrecision);
  return {
    time: c.time.toISOString(),
    open: price(c.open),
    high: price(c.high),
    low: price(c.low),
    close: price(c.close),
    volume: formatAtPrecision(c.volume, p.buyPrecision),
  };
}
