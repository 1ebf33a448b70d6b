/** The exchange's rows as the wire shows them (SPEC §3, DESIGN §3, §5), and the text of its amounts. */
import {
  type Amount,
  type Candle,
  type Depth,
  formatAmount,
  type Order,
  type Pair,
  type Trade,
  toDecimalString,
} from '@starlight/shared';
import type { CandleRow, DepthRow, TradeRow } from './market.queries.ts';
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
export function toOrderDto(o: Omit<OrderRow, 'userId' | 'seq'>): Order {
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
export function toTradeDto(t: Omit<TradeRow, 'seq'>): Trade {
  return {
    _id: t.id,
    pair: t.pairId,
    price: toDecimalString(t.price),
    amount: toDecimalString(t.amount),
    buySide: t.takerBuySide,
    createdAt: t.createdAt.toISOString(),
  };
}

/** The book's depth on the wire: per price level, its open quantity and order count. */
export function toDepthDto(d: { buys: DepthRow[]; sells: DepthRow[] }): Depth {
  const level = (l: DepthRow) => ({
    price: toDecimalString(l.price),
    amount: toDecimalString(l.amount),
    orders: l.orders,
  });
  return { buys: d.buys.map(level), sells: d.sells.map(level) };
}

/** One OHLC candle on the wire. */
export function toCandleDto(c: CandleRow): Candle {
  return {
    time: c.time.toISOString(),
    open: toDecimalString(c.open),
    high: toDecimalString(c.high),
    low: toDecimalString(c.low),
    close: toDecimalString(c.close),
    volume: toDecimalString(c.volume),
  };
}
