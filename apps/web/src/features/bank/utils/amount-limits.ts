/**
 * What a member can send from a balance, and what is wrong with an amount they typed, in words (SPEC §5
 * amount rules, DESIGN §4 taxes). All in bigint 10^-9 units, never floats; taxes through `feeOf`, the
 * server's own rounding (up to the currency's smallest unit), so a Max the popup offers always passes.
 */
import {
  type Amount,
  feeOf,
  fitsPrecision,
  floorToPrecision,
  formatAtPrecision,
  MIN_AMOUNT,
  parseAmount,
  precisionMessage,
} from '@starlight/shared';

/** A currency as these checks need it: its ticker and decimals. */
export interface AmountCurrency {
  ticker: string;
  precision: number;
}

/**
 * The most a member holding `balance` can send when the tax comes out of the amount (a transfer: the
 * recipient receives the amount less the tax; a distribution: no tax): the balance rounded down to the
 * currency's `precision`.
 */
export function maxTaxInside(balance: bigint, precision: number): Amount {
  return floorToPrecision(balance < 0n ? 0n : balance, precision);
}

/**
 * The largest amount `a`, a whole number of the currency's smallest units, with `a + feeOf(a, rate)` at
 * most `balance` (a withdrawal: the tax leaves the balance on top of the amount). 0 when not even the
 * smallest unit fits. `rate` is a fraction in 10^-9 units (0.05 = 50_000_000n).
 */
export function maxTaxOnTop(balance: bigint, rate: bigint, precision: number): Amount {
  const step = 10n ** BigInt(9 - precision);
  if (balance <= 0n) return 0n as Amount;
  const debit = (a: bigint) => a + feeOf(a, rate, precision);
  // a * (1 + rate) <= balance, rounded down to a step: the tax's rounding up leaves it a few steps high at most.
  let a = floorToPrecision((balance * 1_000_000_000n) / (1_000_000_000n + rate), precision) as bigint;
  while (a > 0n && debit(a) > balance) a -= step;
  while (debit(a + step) <= balance) a += step;
  return a as Amount;
}

/**
 * What is wrong with the amount `text` for `currency`, in words, or null when it is right (an empty text is
 * not judged: the form says 'Amount is required' on Send). `debitOf` is what the amount takes from the
 * balance (the amount, or the amount and its tax); `available` is the balance, or null when it does not
 * bound the amount (a deposit); `fmt` writes an amount with its ticker.
 */
export function amountProblem(
  text: string,
  currency: AmountCurrency | undefined,
  available: bigint | null,
  debitOf: (a: Amount) => bigint = (a) => a,
  fmt: (a: bigint) => string = (a) => `${formatAtPrecision(a, currency?.precision ?? 9)} ${currency?.ticker ?? ''}`,
): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const a = parseAmount(trimmed);
  if (a === null) return 'Amount must be a number, like 12.50';
  if (a < MIN_AMOUNT) return 'Amount must be at least 0.01';
  if (!currency) return null;
  if (!fitsPrecision(a, currency.precision)) return precisionMessage('Amount', currency.precision);
  if (available !== null) {
    const debit = debitOf(a);
    if (debit > available) {
      return debit === a
        ? `More than you have: your balance is ${fmt(available)}`
        : `The amount and its tax (${fmt(debit)}) are more than your balance of ${fmt(available)}`;
    }
  }
  return null;
}
