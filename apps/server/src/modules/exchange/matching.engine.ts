/**
 * The matching engine of the Quantum Hub (DESIGN §5): a pure function, no I/O. The resting book and an
 * incoming order go in; the fills, with every amount of money they move, and the new book come out.
 * The service runs it inside the placing transaction, under the pair's lock.
 *
 * Units: every quantity and price is an Amount (bigint of 10^-9 units). `price` is sellCurrency per one
 * unit of buyCurrency; quantities are buyCurrency.
 *
 * Money rules, exact to the last unit (nothing is created or lost; every unit leaving an escrow is a fill's
 * quantity, cost or refund):
 * - a buy escrows `ceil(quantity x price)` of sellCurrency, rounded UP to sellCurrency's precision
 *   (`buyEscrowFor`); a sell escrows its quantity of buyCurrency;
 * - a fill of `q` at the resting order's price `p` costs the buyer `floor(q x p)` of sellCurrency,
 *   rounded DOWN to sellCurrency's precision (`fillCost`); it goes to the seller, and `q` goes to the buyer;
 * - after a fill the buy order keeps exactly `buyEscrowFor(its remaining quantity, its own price)` in
 *   escrow; the rest (price improvement and rounding) returns to the buyer (`buyerRefund`);
 * - each side pays the pair's fee on its proceeds, rounded UP to the proceeds' currency precision
 *   (DESIGN §4: a positive fee takes at least one smallest unit, so small fills cannot avoid it).
 * Floor for the cost and ceiling for the escrow guarantee the escrow always covers the fills.
 *
 * Self-trade prevention (STP), policy "cancel oldest" (Binance's EXPIRE_MAKER, Coinbase's default): a
 * member's order never trades with the same member's resting order. When matching reaches a resting order
 * of the incoming order's owner (it crosses and the incoming order still has a rest), that resting order is
 * cancelled instead: it leaves the book, the service returns its unfilled escrow to the owner (category 21,
 * as a normal cancel) and matching goes on against the next resting orders in price-time priority. The
 * incoming order is never blocked, and no fee is paid on a self-trade because none happens.
 */
import { type Amount, feeOf, UNIT } from '@starlight/shared';

/** An order on the book. `escrow` is what escrow still holds for it (sellCurrency for a buy). */
export interface BookOrder {
  id: string;
  ownerId: string;
  buySide: boolean;
  price: Amount;
  /** Unfilled quantity, in buyCurrency; always > 0 on the book. */
  remaining: Amount;
  escrow: Amount;
  /** Time priority: lower first. */
  seq: number;
}

/** The open orders of one pair. Each side in priority order (see `sortBook`). */
export interface Book {
  buys: BookOrder[];
  sells: BookOrder[];
}

/** What the engine needs to know of the pair. */
export interface MarketRules {
  /** Decimals of buyCurrency (0..9). */
  buyPrecision: number;
  /** Decimals of sellCurrency (0..9). */
  sellPrecision: number;
  /** Fee fraction as an Amount-scaled number (0.01 = 10_000_000n), 0..UNIT. */
  fee: Amount;
}

/** One execution, with every movement of money it causes. */
export interface Fill {
  makerOrderId: string;
  takerOrderId: string;
  buyOrderId: string;
  sellOrderId: string;
  buyerId: string;
  sellerId: string;
  /** The resting (maker) order's price. */
  price: Amount;
  /** buyCurrency from the sell order's escrow to the buyer. */
  quantity: Amount;
  /** sellCurrency from the buy order's escrow to the seller: floor(quantity x price). */
  cost: Amount;
  /** sellCurrency from the buy order's escrow back to the buyer (price improvement, rounding). */
  buyerRefund: Amount;
  /** buyCurrency the buyer pays to the fee collector out of `quantity`. */
  buyerFee: Amount;
  /** sellCurrency the seller pays to the fee collector out of `cost`. */
  sellerFee: Amount;
}

/** The result of matching one incoming order. */
export interface MatchResult {
  fills: Fill[];
  /** The incoming order after matching (remaining 0 when completely filled). */
  taker: BookOrder;
  /** Resting orders whose remaining or escrow changed, as they are now (remaining 0 = filled). */
  makers: BookOrder[];
  /**
   * Resting orders of the incoming order's owner that it reached, cancelled by self-trade prevention, in
   * priority order and as they were: `escrow` is what returns to the owner (category 21). Off the book.
   */
  cancelled: BookOrder[];
  /** The new book: filled makers and `cancelled` removed, the taker added when something of it remains. */
  book: Book;
}

/** 10^(9 - precision): the smallest step of a currency in 10^-9 units. */
export function unitStep(precision: number): bigint {
  if (!Number.isInteger(precision) || precision < 0 || precision > 9) throw new Error(`Bad precision ${precision}`);
  return 10n ** BigInt(9 - precision);
}

/** sellCurrency a buy of `quantity` at `price` escrows: the product rounded UP to `sellPrecision`. */
export function buyEscrowFor(quantity: Amount | bigint, price: Amount | bigint, sellPrecision: number): Amount {
  const step = unitStep(sellPrecision) * UNIT;
  const raw = quantity * price;
  return (((raw + step - 1n) / step) * unitStep(sellPrecision)) as Amount;
}

/** sellCurrency a fill of `quantity` at `price` costs: the product rounded DOWN to `sellPrecision`. */
export function fillCost(quantity: Amount | bigint, price: Amount | bigint, sellPrecision: number): Amount {
  const step = unitStep(sellPrecision) * UNIT;
  return (((quantity * price) / step) * unitStep(sellPrecision)) as Amount;
}

/** The smaller of two Amounts (Math.min does not take bigints). */
function smaller(a: Amount, b: Amount): Amount {
  if (a < b) return a;
  return b;
}

/** Price-time priority: buys by price high to low, sells low to high, then by `seq`. */
export function comparePriority(a: BookOrder, b: BookOrder): number {
  if (a.price !== b.price) {
    const better = a.buySide ? a.price > b.price : a.price < b.price;
    return better ? -1 : 1;
  }
  return a.seq - b.seq;
}

/** A copy of the book with both sides in priority order. */
export function sortBook(book: Book): Book {
  return { buys: [...book.buys].sort(comparePriority), sells: [...book.sells].sort(comparePriority) };
}

/** True when an order at `takerPrice` on the taker's side may trade with a resting order at `makerPrice`. */
export function crosses(takerBuySide: boolean, takerPrice: Amount, makerPrice: Amount): boolean {
  return takerBuySide ? makerPrice <= takerPrice : makerPrice >= takerPrice;
}

/**
 * Matches `incoming` against `book` (DESIGN §5): price-time priority, each trade at the resting order's
 * price, partial fills, the unfilled rest joining the book. `incoming.escrow` must be what it escrowed
 * (`buyEscrowFor(remaining, price)` for a buy, `remaining` for a sell), and so for every resting order.
 * A resting order of the incoming order's owner that would trade is cancelled instead (self-trade
 * prevention, cancel oldest: see the file's comment) and listed in `cancelled`; matching goes on past it.
 * Throws an Error (a programming fault, never a user error) when an escrow does not cover its order.
 */
export function matchOrder(book: Book, incoming: BookOrder, rules: MarketRules): MatchResult {
  if (incoming.remaining <= 0n || incoming.price <= 0n) throw new Error('An order needs a positive quantity and price');
  const sorted = sortBook(book);
  const opposite = incoming.buySide ? sorted.sells : sorted.buys;
  const taker: BookOrder = { ...incoming };
  const fills: Fill[] = [];
  const makers: BookOrder[] = [];
  const cancelled: BookOrder[] = [];
  /** Resting orders gone from the front of `opposite`: filled completely, or cancelled by STP. */
  let consumed = 0;

  for (const resting of opposite) {
    if (taker.remaining === 0n || !crosses(taker.buySide, taker.price, resting.price)) break;
    if (resting.ownerId === taker.ownerId) {
      // Self-trade prevention (cancel oldest): the owner's resting order goes, matching goes on.
      cancelled.push({ ...resting });
      consumed++;
      continue;
    }
    const maker: BookOrder = { ...resting };
    const quantity = smaller(taker.remaining, maker.remaining);
    const buy = taker.buySide ? taker : maker;
    const sell = taker.buySide ? maker : taker;
    const price = maker.price;
    const cost = fillCost(quantity, price, rules.sellPrecision);
    const buyEscrowAfter = buyEscrowFor(buy.remaining - quantity, buy.price, rules.sellPrecision);
    const buyerRefund = (buy.escrow - cost - buyEscrowAfter) as Amount;
    if (buyerRefund < 0n || sell.escrow < quantity) throw new Error(`Escrow does not cover order ${buy.id}/${sell.id}`);

    fills.push({
      makerOrderId: maker.id,
      takerOrderId: taker.id,
      buyOrderId: buy.id,
      sellOrderId: sell.id,
      buyerId: buy.ownerId,
      sellerId: sell.ownerId,
      price,
      quantity,
      cost,
      buyerRefund,
      buyerFee: feeOf(quantity, rules.fee, rules.buyPrecision),
      sellerFee: feeOf(cost, rules.fee, rules.sellPrecision),
    });
    buy.remaining = (buy.remaining - quantity) as Amount;
    buy.escrow = buyEscrowAfter;
    sell.remaining = (sell.remaining - quantity) as Amount;
    sell.escrow = (sell.escrow - quantity) as Amount;
    makers.push(maker);
    if (maker.remaining === 0n) consumed++;
  }

  const restOfOpposite = opposite.slice(consumed);
  const partlyFilled = makers.find((m) => m.remaining > 0n);
  if (partlyFilled) restOfOpposite[0] = partlyFilled;
  const own = incoming.buySide ? sorted.buys : sorted.sells;
  const newOwn = taker.remaining > 0n ? [...own, taker].sort(comparePriority) : own;
  return {
    fills,
    taker,
    makers,
    cancelled,
    book: incoming.buySide ? { buys: newOwn, sells: restOfOpposite } : { buys: restOfOpposite, sells: newOwn },
  };
}
