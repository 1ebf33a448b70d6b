/**
 * Money: one named type and one set of helpers (STYLE: actualbudget).
 * An `Amount` is a bigint count of 10^-9 currency units (DESIGN §3). Never a float.
 */

/** A bigint count of 10^-9 currency units. */
export type Amount = bigint & { readonly __brand: 'Amount' };

/** Decimal places stored for every amount: NUMERIC(38,9). */
export const SCALE = 9;
/** 10^9: the number of units in one currency unit. */
export const UNIT = 1_000_000_000n;
/** SPEC §5: the smallest amount a request may carry, 0.01. */
export const MIN_AMOUNT = 10_000_000n as Amount;
/** The largest amount a request may carry: 10^20 currency units (SPEC's figures reach 10^15). */
export const MAX_AMOUNT = (10n ** 29n) as Amount;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** Wraps a bigint of 10^-9 units as an Amount. */
export function amount(units: bigint): Amount {
  return units as Amount;
}

/**
 * `n` whole currency units (a count: chips, a supply) as an Amount. Throws RangeError when `n` is a number
 * that is not an integer (BigInt's own check).
 */
export function wholeUnits(n: number | bigint): Amount {
  return amount(BigInt(n) * UNIT);
}

/** How many whole currency units `a` holds, rounded down, as a number (counts such as chips, under 2^53). */
export function wholeUnitsOf(a: Amount | bigint): number {
  return Number(a / UNIT);
}

/**
 * Parses a decimal string ("12.5") or a JSON number (12.5) in currency units into an Amount.
 * Returns null when the text is not a plain non-negative decimal (no sign, no spaces, no exponent) or has
 * more than 9 decimals (`" 10"` is refused, not trimmed).
 */
export function parseAmount(input: string | number): Amount | null {
  let text: string;
  if (typeof input === 'number') {
    if (!Number.isFinite(input) || input < 0) return null;
    // A JS number prints its shortest round-trip form; tiny numbers come out as 1e-7.
    text = Math.abs(input) < 1e-6 && input !== 0 ? input.toFixed(SCALE + 1) : String(input);
    if (text.includes('e')) return null;
  } else {
    text = input;
  }
  const m = DECIMAL.exec(text);
  if (!m) return null;
  const whole = m[1] ?? '0';
  const frac = (m[2] ?? '').replace(/0+$/, '');
  if (frac.length > SCALE) return null;
  return (BigInt(whole) * UNIT + BigInt(frac.padEnd(SCALE, '0') || '0')) as Amount;
}

/** Number of decimals an Amount really uses (0..9): 12.50 -> 1, 3 -> 0. */
export function decimalsOf(a: Amount): number {
  let frac = a % UNIT;
  if (frac === 0n) return 0;
  let d = SCALE;
  while (frac % 10n === 0n) {
    frac /= 10n;
    d--;
  }
  return d;
}

/** True when the Amount has no more decimals than `precision` (SPEC §5 precision 0..9). */
export function fitsPrecision(a: Amount, precision: number): boolean {
  return decimalsOf(a) <= precision;
}

/**
 * Formats an Amount as a decimal string with exactly `precision` decimals (truncated toward zero),
 * e.g. formatAmount(12_500_000_000n, 2) === "12.50". Used on the wire and on screen.
 */
export function formatAmount(a: Amount | bigint, precision = SCALE): string {
  const neg = a < 0n;
  const abs = neg ? -a : a;
  const whole = abs / UNIT;
  const frac = (abs % UNIT).toString().padStart(SCALE, '0').slice(0, precision);
  return `${neg ? '-' : ''}${whole}${precision > 0 ? `.${frac}` : ''}`;
}

/** Formats with the fewest decimals that show the value exactly: 12.5, 3, 0.000000001. */
export function toDecimalString(a: Amount | bigint): string {
  const s = formatAmount(a, SCALE);
  return s.includes('.') ? s.replace(/\.?0+$/, '') : s;
}

/** Parses a NUMERIC text from PostgreSQL ("12.500000000") into an Amount. Throws on bad input. */
export function fromNumeric(text: string): Amount {
  const neg = text.startsWith('-');
  const parsed = parseAmount(neg ? text.slice(1) : text);
  if (parsed === null) throw new Error(`Not a NUMERIC amount: ${text}`);
  return (neg ? -parsed : parsed) as Amount;
}

/** Rounds an Amount down (toward zero) to `precision` decimals. */
export function floorToPrecision(a: Amount | bigint, precision: number): Amount {
  const step = 10n ** BigInt(SCALE - precision);
  return (a - (a % step)) as Amount;
}

/**
 * A tax or fee: a non-negative Amount times a rate given as an Amount (0.05 = 50_000_000n), rounded UP
 * to `precision` decimals (DESIGN §4: every tax and fee rounds up to the currency's smallest unit, so a
 * positive rate always takes at least one unit and splitting a payment never avoids it). Never more than
 * `a` while the rate is at most 1 and `a` is a whole number of smallest units.
 */
export function feeOf(a: Amount | bigint, rate: Amount | bigint, precision: number): Amount {
  const step = 10n ** BigInt(SCALE - precision);
  const divisor = UNIT * step;
  return (((a * rate + divisor - 1n) / divisor) * step) as Amount;
}

/** Multiplies two Amounts (quantity x price), rounding down to `precision` decimals. */
export function mulAmounts(a: Amount | bigint, b: Amount | bigint, precision = SCALE): Amount {
  return floorToPrecision((a * b) / UNIT, precision);
}

const SUFFIXES: ReadonlyArray<[bigint, string]> = [
  [10n ** 15n, 'Q'],
  [10n ** 12n, 'T'],
  [10n ** 9n, 'B'],
  [10n ** 6n, 'M'],
];

/**
 * Abbreviates large amounts with M, B, T, Q at 1e6, 1e9, 1e12, 1e15 (SPEC §2 Quantum Hub), two decimals
 * truncated: 1_234_567 -> "1.23M". Below a million it formats at `precision`.
 */
export function abbreviateAmount(a: Amount | bigint, precision = 2): string {
  const abs = a < 0n ? -a : a;
  for (const [threshold, suffix] of SUFFIXES) {
    const t = threshold * UNIT;
    if (abs >= t) {
      const hundredths = (a * 100n) / t;
      const sign = hundredths < 0n ? '-' : '';
      const h = hundredths < 0n ? -hundredths : hundredths;
      return `${sign}${h / 100n}.${(h % 100n).toString().padStart(2, '0')}${suffix}`;
    }
  }
  return formatAmount(a, precision);
}

/** Sum of Amounts. */
export function sumAmounts(values: Iterable<Amount | bigint>): Amount {
  let total = 0n;
  for (const v of values) total += v;
  return total as Amount;
}

/**
 * Formats an Amount as the wire and the screen show a currency's amounts (DESIGN §3): with
 * exactly the currency's `precision` decimals ("50.00" at precision 2, "7" at 0), or with every decimal
 * it really has when that is more, so no digit is ever hidden.
 */
export function formatAtPrecision(a: Amount | bigint, precision: number): string {
  const abs = (a < 0n ? -a : a) as Amount;
  return formatAmount(a, Math.max(precision, decimalsOf(abs)));
}
