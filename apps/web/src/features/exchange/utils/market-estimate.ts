/**
 * A market order's expected outcome from the book the page already shows (the depth by price level, best
 * first), before it is sent (DESIGN §11.4): how much of it the levels fill, at what average price, and the
 * slippage of that average against the best price. bigint Amounts only; an estimate, since the book may
 * move, and one's own resting orders are cancelled rather than traded (self-trade prevention).
 */
import { type Amount, type DepthLevel, fromNumeric } from '@starlight/shared';

export interface MarketEstimate {
  /** What the levels shown can fill of the order, in the pair's buy currency. */
  filled: Amount;
  /** True when they fill all of it. */
  complete: boolean;
  /** The best price, and the average over the fill (sell currency per one unit). */
  best: Amount;
  average: Amount;
  /** How much worse the average is than the best price, in hundredths of a percent (basis points). */
  slippageBps: bigint;
}

/**
 * Walks `levels` (the other side of the book, best first) for an order of `quantity`; null when the book
 * side is empty or the quantity is not positive.
 */
export function estimateMarket(levels: readonly DepthLevel[], quantity: Amount): MarketEstimate | null {
  const first = levels[0];
  if (!first || quantity <= 0n) return null;
  const best = fromNumeric(first.price);
  let left: bigint = quantity;
  let cost = 0n;
  for (const level of levels) {
    if (left === 0n) break;
    const take = fromNumeric(level.amount) < left ? fromNumeric(level.amount) : left;
    cost += take * fromNumeric(level.price);
    left -= take;
  }
  const filled = (quantity - left) as Amount;
  if (filled === 0n) return null;
  const average = (cost / filled) as Amount;
  const worse = average > best ? average - best : best - average;
  return { filled, complete: left === 0n, best, average, slippageBps: (worse * 10_000n) / best };
}

/** Basis points as a percent with two decimals: 125n -> "1.25". */
export function bpsToPercent(bps: bigint): string {
  return `${bps / 100n}.${String(bps % 100n).padStart(2, '0')}`;
}
