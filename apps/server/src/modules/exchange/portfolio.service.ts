/**
 * A member's portfolio (DESIGN §11.4 `portfolio`): their holdings valued in one currency through the last
 * traded prices of the pairs, and 30 days of the value of their balances.
 *
 * - A holding is the balance plus the escrow of the member's open orders (their money, only set aside).
 * - Prices: a pair trading the currency against the target directly, in either direction (the one that
 *   traded last), else a path through one intermediate currency (the one whose older leg traded last).
 *   None: `price` and `value` null, and the message names the currencies without one.
 * - Money stays exact: a price path is a fraction of integers; a value is rounded down once, to the
 *   target's precision; a price to 9 decimals. The total is the sum of the holdings' values.
 * - History: each UTC day's closing balances, rebuilt back from today's through the member's own ledger
 *   rows of the window, valued at each leg's last close on or before that day (the daily candles). The
 *   ledger's rows naming the member do not tell when another member's fill took an order's escrow, so the
 *   history counts balances alone, not escrow; a currency without a price that day adds nothing.
 */
import {
  type Amount,
  AppError,
  floorToPrecision,
  formatAmount,
  formatAtPrecision,
  PORTFOLIO_DAYS,
  type PortfolioHolding,
  type PortfolioResponse,
  toDecimalString,
  UNIT,
} from '@starlight/shared';
import type { DbOrTx } from '../../db/client.ts';
import type { AuthUser } from '../../http/access.ts';
import { findCurrency } from '../bank/bank.public.ts';
import { findCandles } from './candles.queries.ts';
import { findMemberHoldings, findPrecisions, findPricedPairs, type PricedPair } from './portfolio.queries.ts';

const DAY_MS = 86_400_000;

/** One step of a path: through `pair`, from its buy currency to its sell one (`forward`) or back. */
interface Leg {
  pair: PricedPair;
  forward: boolean;
}

/** Units of the target per unit of a currency, as `num / den` (both in 10^-9 units). */
interface Rate {
  num: bigint;
  den: bigint;
}

/** The leg between currencies `a` and `b` that traded last, if any. */
function bestLeg(pairs: readonly PricedPair[], a: number, b: number): Leg | null {
  let best: Leg | null = null;
  for (const pair of pairs) {
    const forward = pair.buyCurrency === a && pair.sellCurrency === b;
    if (!forward && !(pair.buyCurrency === b && pair.sellCurrency === a)) continue;
    if (!best || pair.seq > best.pair.seq) best = { pair, forward };
  }
  return best;
}

/**
 * The price path from `from` to `to`: [] for the target itself, one leg for a direct pair, two through
 * the intermediate whose older leg traded last, null without one.
 */
export function findPath(pairs: readonly PricedPair[], from: number, to: number): Leg[] | null {
  if (from === to) return [];
  const direct = bestLeg(pairs, from, to);
  if (direct) return [direct];
  let best: { legs: Leg[]; seq: number } | null = null;
  const middles = new Set(pairs.flatMap((p) => [p.buyCurrency, p.sellCurrency]));
  for (const middle of middles) {
    if (middle === from || middle === to) continue;
    const first = bestLeg(pairs, from, middle);
    const second = first && bestLeg(pairs, middle, to);
    if (!first || !second) continue;
    const seq = Math.min(first.pair.seq, second.pair.seq);
    if (!best || seq > best.seq) best = { legs: [first, second], seq };
  }
  return best?.legs ?? null;
}

/** The rate of `legs` at the prices `priceOf` gives each pair (null when a pair has none). */
function rateOf(legs: readonly Leg[], priceOf: (pair: PricedPair) => Amount | undefined): Rate | null {
  let rate: Rate = { num: UNIT, den: UNIT };
  for (const leg of legs) {
    const price = priceOf(leg.pair);
    if (price === undefined || price <= 0n) return null;
    // Forward: sell per buy is the price; back: its inverse.
    rate = leg.forward
      ? { num: rate.num * price, den: rate.den * UNIT }
      : { num: rate.num * UNIT, den: rate.den * price };
  }
  return rate;
}

/** `amount` x `rate`, rounded down to `precision` decimals. */
function valueAt(amount: Amount, rate: Rate, precision: number): Amount {
  return floorToPrecision((amount * rate.num) / rate.den, precision);
}

/** The UTC dates of the history, oldest first, ending today. */
function historyDates(now: Date): string[] {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Array.from({ length: PORTFOLIO_DAYS }, (_, i) =>
    new Date(today - (PORTFOLIO_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
  );
}

/** Each pair's daily closes, oldest first: the last `PORTFOLIO_DAYS + 1` days that traded. */
async function loadCloses(db: DbOrTx, pairs: Iterable<PricedPair>) {
  const closes = new Map<string, Array<{ date: string; close: Amount }>>();
  for (const pair of pairs) {
    const candles = await findCandles(db, pair.id, '1d', PORTFOLIO_DAYS + 1);
    closes.set(
      pair.id,
      candles.map((c) => ({ date: c.time.toISOString().slice(0, 10), close: c.close })),
    );
  }
  return closes;
}

/** The last close of `list` (oldest first) on or before `date`. */
function closeOn(list: ReadonlyArray<{ date: string; close: Amount }> | undefined, date: string): Amount | undefined {
  let found: Amount | undefined;
  for (const c of list ?? []) {
    if (c.date > date) break;
    found = c.close;
  }
  return found;
}

/**
 * DESIGN §11.4 `portfolio` (member): `member`'s holdings valued in `currencyId` and 30 days of history,
 * as the module comment says. Throws NOT_FOUND `Currency not found` for an unknown currency.
 * Reads only the member's own balances, orders and ledger rows.
 */
export async function getPortfolio(db: DbOrTx, member: AuthUser, currencyId: number): Promise<PortfolioResponse> {
  const target = await findCurrency(db, currencyId);
  if (!target) throw new AppError('NOT_FOUND', 'Currency not found');
  const now = new Date();
  const dates = historyDates(now);
  // Balances at the end of the first day: today's less every move from the next day on.
  const since = new Date(Date.parse(`${dates[0]}T00:00:00Z`) + DAY_MS);
  const [pairs, precisions, held] = await Promise.all([
    findPricedPairs(db),
    findPrecisions(db),
    findMemberHoldings(db, member.id, since),
  ]);
  const precisionOf = (id: number) => precisions.get(id) ?? 9;

  const currencies = new Set([...held.balances.keys(), ...held.escrow.keys()]);
  for (const day of held.moves.values()) for (const id of day.keys()) currencies.add(id);
  const paths = new Map([...currencies].map((id) => [id, findPath(pairs, id, currencyId)]));

  const holdings: PortfolioHolding[] = [];
  const unpriced: number[] = [];
  let total = 0n;
  const lastPrice = (p: PricedPair) => p.price;
  for (const id of [...currencies].sort((a, b) => a - b)) {
    const amount = ((held.balances.get(id) ?? 0n) + (held.escrow.get(id) ?? 0n)) as Amount;
    if (amount <= 0n) continue;
    const path = paths.get(id) ?? null;
    const rate = path && rateOf(path, lastPrice);
    const value = rate ? valueAt(amount, rate, target.precision) : null;
    if (value === null) unpriced.push(id);
    else total += value;
    holdings.push({
      currencyId: id,
      amount: formatAtPrecision(amount, precisionOf(id)),
      price: rate ? toDecimalString((UNIT * rate.num) / rate.den) : null,
      value: value === null ? null : formatAmount(value, target.precision),
    });
  }

  const legs = new Map<string, PricedPair>();
  for (const path of paths.values()) for (const leg of path ?? []) legs.set(leg.pair.id, leg.pair);
  const closes = await loadCloses(db, legs.values());
  const history = historyPoints(dates, held, paths, closes, target.precision);

  const missing = unpriced.length > 0 ? `; no price path to ${target.ticker} for ${unpriced.length}` : '';
  return {
    value: formatAmount(total, target.precision),
    holdings,
    history,
    message: `Got ${holdings.length} holding(s) valued in ${target.ticker}${missing}`,
  };
}

/** The value of each day's closing balances at that day's closes (see the module comment). */
function historyPoints(
  dates: readonly string[],
  held: Awaited<ReturnType<typeof findMemberHoldings>>,
  paths: ReadonlyMap<number, Leg[] | null>,
  closes: ReadonlyMap<string, ReadonlyArray<{ date: string; close: Amount }>>,
  precision: number,
): PortfolioResponse['history'] {
  const balances = new Map(held.balances);
  const points: PortfolioResponse['history'] = [];
  // Walk back from today: a day's closing balances are the next day's less the next day's moves.
  for (let i = dates.length - 1; i >= 0; i--) {
    const date = dates[i] as string;
    if (i < dates.length - 1) {
      for (const [id, move] of held.moves.get(dates[i + 1] as string) ?? [])
        balances.set(id, ((balances.get(id) ?? 0n) - move) as Amount);
    }
    let value = 0n;
    for (const [id, amount] of balances) {
      const path = paths.get(id);
      const rate = path && amount > 0n ? rateOf(path, (p) => closeOn(closes.get(p.id), date)) : null;
      if (rate) value += valueAt(amount, rate, precision);
    }
    points.push({ date, value: formatAmount(value, precision) });
  }
  return points.reverse();
}
