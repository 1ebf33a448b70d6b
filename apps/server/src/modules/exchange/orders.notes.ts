/**
 * What a placed order's answer says and records (SPEC §8, DESIGN §11.3, §11.4): its message's head and
 * self-trade note, a market order's price, the order_filled notifications of its fills.
 */
import { type Amount, UNIT } from '@starlight/shared';
import type { NewNotification } from '../notifications/notifications.public.ts';
import { type pairAmountText, pairName } from './exchange.dto.ts';
import { type BookOrder, type Fill, unitStep } from './matching.engine.ts';
import type { PairRow } from './pairs.queries.ts';

/** SPEC §8's head of a placed order's message; a market order names its type and no price. */
export function placedHead(
  text: ReturnType<typeof pairAmountText>,
  buySide: boolean,
  market: boolean,
  initialAmount: Amount,
  price: Amount,
): string {
  if (market) return `Placed a market ${buySide ? 'buy' : 'sell'} order of ${text.buy(initialAmount)}`;
  return buySide
    ? `Placed a buy order of ${text.buy(initialAmount)} at ${text.sell(price)}`
    : `Placed a Sell Order of ${text.buy(initialAmount)} at ${text.sell(price)}`;
}

/**
 * A market order's price on record (DESIGN §11.4): the average of its fills, total cost over total
 * quantity, rounded down to sellCurrency's precision, and never under one step (the column is positive).
 */
export function averagePrice(fills: readonly Fill[], sellPrecision: number): Amount {
  const quantity = fills.reduce((a, f) => a + f.quantity, 0n);
  const cost = fills.reduce((a, f) => a + f.cost, 0n);
  return averageOf(quantity, cost, sellPrecision);
}

/** `cost` over `quantity` (10^-9 units), rounded down to sellCurrency's precision, at least one step. */
function averageOf(quantity: bigint, cost: bigint, sellPrecision: number): Amount {
  const step = unitStep(sellPrecision);
  const average = (((cost * UNIT) / quantity / step) * step) as Amount;
  if (average < step) return step as Amount;
  return average;
}

/** The answer's note on orders cancelled by self-trade prevention (`your resting buy order at …`). */
export function stpNotice(text: ReturnType<typeof pairAmountText>, cancelled: readonly BookOrder[]): string {
  const side = cancelled[0]?.buySide ? 'buy' : 'sell';
  const prices = cancelled.map((c) => text.sell(c.price)).join(', ');
  return cancelled.length === 1
    ? `your resting ${side} order at ${prices} was cancelled to prevent a self-trade`
    : `your ${cancelled.length} resting ${side} orders at ${prices} were cancelled to prevent a self-trade`;
}

/**
 * What one order filled in one placement round (a batch, or a round of triggered stops): its owner, its
 * side, the quantity and cost of its fills, their price when all were at one price (null: several).
 */
export interface FillTally {
  userId: string;
  buyer: boolean;
  quantity: Amount;
  cost: Amount;
  price: Amount | null;
}

/** Adds fill `f` to the tally `t` of one of its two orders (a new tally when `t` is undefined). */
export function addFill(t: FillTally | undefined, f: Fill, buyer: boolean): FillTally {
  if (!t) return { userId: buyer ? f.buyerId : f.sellerId, buyer, quantity: f.quantity, cost: f.cost, price: f.price };
  return {
    ...t,
    quantity: (t.quantity + f.quantity) as Amount,
    cost: (t.cost + f.cost) as Amount,
    price: t.price === f.price ? t.price : null,
  };
}

/**
 * The order_filled notification of one order's fills in one placement round on `pair` (DESIGN §11.3):
 * to its owner, with the pair, the side, the quantity and the price (or, over several prices, their
 * average), and whether the order is now filled in full. One per order and round, however many trades.
 */
export function filledNotice(
  pair: PairRow,
  text: ReturnType<typeof pairAmountText>,
  t: FillTally,
  full: boolean,
): NewNotification {
  const side = t.buyer ? 'buy' : 'sell';
  const at =
    t.price === null
      ? `an average of ${text.sell(averageOf(t.quantity, t.cost, pair.sellPrecision))}`
      : text.sell(t.price);
  return {
    userId: t.userId,
    kind: 'order_filled',
    title: `Your ${side} order was filled${full ? '' : ' in part'}`,
    body: `${pairName(pair.buyName, pair.sellName)}: you ${t.buyer ? 'bought' : 'sold'} ${text.buy(t.quantity)} at ${at}${full ? '; the order is filled in full' : ''}.`,
    link: '/quantumhub',
  };
}
