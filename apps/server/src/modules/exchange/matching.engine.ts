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
 * - each side pays a fee on its proceeds, rounded UP to the proceeds' currency precision (DESIGN §4: a
 *   positive fee takes at least one smallest unit, so small fills cannot avoid it): the resting order's
 *   owner the pair's maker fee, the incoming order's owner its taker fee (DESIGN §11.4).
 * Floor for the cost and ceiling for the escrow guarantee the escrow always covers the fills.
 *
 * Self-trade prevention (STP), policy "cancel oldest" (Binance's EXPIRE_MAKER, Coinbase's default): a
 * member's order never trades with the same member's resting order. When matching reaches a resting order
 * of the incoming order's owner (it crosses and the incoming order still has a rest), that resting order is
 * cancelled instead: it leaves the book, the service returns its unfilled escrow to the owner (category 21,
 * as a normal cancel) and matching goes on against the next resting orders in price-time priority. The
 * incoming order is never blocked, and no fee is paid on a self-trade because none happens.
 *
 * Market orders and times in force (DESIGN §11.4, `MatchOptions`): a market order crosses every resting
 * order; a market buy has no price, its `escrow` is its budget, and each fill takes only what the budget
 * left can pay (`affordable`), so it never spends more than it escrowed, and it stops at a fill that would
 * cost nothing (rounded down), so it never takes a seller's units for free. An order that must not rest
 * (market, IOC, FOK) leaves the book untouched by its rest; the caller cancels that rest.
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
  /** The resting (maker) side's fee fraction, Amount-scaled (0.01 = 10_000_000n), 0..UNIT. */
  makerFee: Amount;
  /** The incoming (taker) side's fee fraction, Amount-scaled, 0..UNIT. */
  takerFee: Amount;
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
  /** buyCurrency the buyer pays to the fee collector out of `quantity` (its side's maker or taker fee). */
  buyerFee: Amount;
  /** sellCurrency the seller pays to the fee collector out of `cost` (its side's maker or taker fee). */
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

/** How `matchOrder` treats the incoming order (DESIGN §11.4); both default to a resting limit order. */
export interface MatchOptions {
  /** A market order: crosses at any price; a buy's `escrow` is its budget and its `price` is ignored. */
  market?: boolean;
  /** False: the unfilled rest does not join the book (market, IOC, FOK); the caller cancels it. */
  rest?: boolean;
}

/**
 * The largest quantity (a multiple of buyCurrency's step) whose `fillCost` at `price` is at most `budget`
 * of sellCurrency: what a market buy's remaining escrow can still pay for at that price.
 */
export function affordable(budget: Amount | bigint, price: Amount | bigint, rules: MarketRules): Amount {
  const sellStep = unitStep(rules.sellPrecision);
  const buyStep = unitStep(rules.buyPrecision);
  // fillCost(q, p) <= budget  <=>  floor(q x p / (sellStep x UNIT)) <= floor(budget / sellStep).
  const q = (((budget / sellStep + 1n) * sellStep * UNIT - 1n) / price) as bigint;
  return ((q / buyStep) * buyStep) as Amount;
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
 * `opts`: a market order, or one whose rest must not join the book (`MatchOptions`).
 * Throws an Error (a programming fault, never a user error) when an escrow does not cover its order.
 */
export function matchOrder(book: Book, incoming: BookOrder, rules: MarketRules, opts: MatchOptions = {}): MatchResult {
  const market = opts.market === true;
  if (incoming.remaining <= 0n || (!market && incoming.price <= 0n))
    throw new Error('An order needs a positive quantity and price');
  /** A market buy: its escrow is a budget, spent fill by fill, nothing returned until the end. */
  const budgeted = market && incoming.buySide;
  const sorted = sortBook(book);
  const opposite = incoming.buySide ? sorted.sells : sorted.buys;
  const taker: BookOrder = { ...incoming };
  const fills: Fill[] = [];
  const buyerFeeRate = incoming.buySide ? rules.takerFee : rules.makerFee;
  const sellerFeeRate = incoming.buySide ? rules.makerFee : rules.takerFee;
  const makers: BookOrder[] = [];
  const cancelled: BookOrder[] = [];
  /** Resting orders gone from the front of `opposite`: filled completely, or cancelled by STP. */
  let consumed = 0;

  for (const resting of opposite) {
    if (taker.remaining === 0n || (!market && !crosses(taker.buySide, taker.price, resting.price))) break;
    // A market buy stops where its budget cannot pay for one step (the resting orders after cost more).
    if (budgeted && affordable(taker.escrow, resting.price, rules) === 0n) break;
    if (resting.ownerId === taker.ownerId) {
      // Self-trade prevention (cancel oldest): the owner's resting order goes, matching goes on.
      cancelled.push({ ...resting });
      consumed++;
      continue;
    }
    const maker: BookOrder = { ...resting };
    const price = maker.price;
    const whole = smaller(taker.remaining, maker.remaining);
    const quantity = budgeted ? smaller(whole, affordable(taker.escrow, price, rules)) : whole;
    const buy = taker.buySide ? taker : maker;
    const sell = taker.buySide ? maker : taker;
    const cost = fillCost(quantity, price, rules.sellPrecision);
    // A market buy takes nothing for free: a fill whose cost rounds to nothing ends it.
    if (budgeted && cost === 0n) break;
    const buyEscrowAfter = (
      budgeted ? buy.escrow - cost : buyEscrowFor(buy.remaining - quantity, buy.price, rules.sellPrecision)
    ) as Amount;
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
      buyerFee: feeOf(quantity, buyerFeeRate, rules.buyPrecision),
      sellerFee: feeOf(cost, sellerFeeRate, rules.sellPrecision),
    });
    buy.remaining = (buy.remaining - quantity) as Amount;
    buy.escrow = buyEscrowAfter;
    sell.remaining = (sell.remaining - quantity) as Amount;
    sell.escrow = (sell.escrow - quantity) as Amount;
    makers.push(maker);
    if (maker.remaining === 0n) consumed++;
    // The budget ran out inside this resting order: the ones after cost at least as much.
    if (budgeted && quantity < whole) break;
  }

  const restOfOpposite = opposite.slice(consumed);
  const partlyFilled = makers.find((m) => m.remaining > 0n);
  if (partlyFilled) restOfOpposite[0] = partlyFilled;
  const own = incoming.buySide ? sorted.buys : sorted.sells;
  const newOwn = taker.remaining > 0n && opts.rest !== false && !market ? [...own, taker].sort(comparePriority) : own;
  return {
    fills,
    taker,
    makers,
    cancelled,
    book: incoming.buySide ? { buys: newOwn, sells: restOfOpposite } : { buys: restOfOpposite, sells: newOwn },
  };
}
