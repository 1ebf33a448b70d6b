import { describe, expect, it } from 'vitest';
import {
  abbreviateAmount,
  amount,
  decimalsOf,
  feeOf,
  fitsPrecision,
  floorToPrecision,
  formatAmount,
  formatAtPrecision,
  fromNumeric,
  MIN_AMOUNT,
  mulAmounts,
  parseAmount,
  SCALE,
  sumAmounts,
  toDecimalString,
  UNIT,
  wholeUnits,
  wholeUnitsOf,
} from './money.ts';

/** Parses a decimal text the test knows is valid. */
function parse(text: string): bigint {
  const a = parseAmount(text);
  if (a === null) throw new Error(`bad amount ${text}`);
  return a;
}

/** A decimal text with `decimals` places, all of them used: 0 -> "7", 3 -> "7.001". */
function textWithDecimals(decimals: number): string {
  return decimals === 0 ? '7' : `7.${'0'.repeat(decimals - 1)}1`;
}

describe('parseAmount', () => {
  it('reads decimal strings and JSON numbers into 10^-9 units', () => {
    expect(parseAmount('12.5')).toBe(12_500_000_000n);
    expect(parseAmount(12.5)).toBe(12_500_000_000n);
    expect(parseAmount('0')).toBe(0n);
    expect(parseAmount(0)).toBe(0n);
    expect(parseAmount('0.01')).toBe(MIN_AMOUNT);
    expect(parseAmount('0.000000001')).toBe(1n);
    expect(parseAmount(1e-7)).toBe(100n);
    expect(parseAmount('  3 ')).toBeNull();
    expect(parseAmount(' 10')).toBeNull();
    expect(parseAmount('1000000000000000')).toBe(10n ** 15n * UNIT);
    // Trailing zeros beyond nine places carry no value.
    expect(parseAmount('1.1000000000')).toBe(1_100_000_000n);
  });

  it.each(Array.from({ length: 10 }, (_, p) => p))('reads an amount with %i decimals exactly', (p) => {
    const text = textWithDecimals(p);
    const units = parseAmount(text);
    expect(units).toBe(7n * UNIT + (p === 0 ? 0n : 10n ** BigInt(SCALE - p)));
    expect(parseAmount(Number(text))).toBe(units);
  });

  it.each([
    ['a negative string', '-1'],
    ['a negative number', -1],
    ['a negative fraction', -0.01],
    ['ten decimals', '0.0000000001'],
    ['ten decimals as a number', 1e-10],
    ['eleven decimals', '1.00000000001'],
    ['an exponent string', '1e5'],
    ['an upper-case exponent string', '1E2'],
    ['a number that prints as an exponent', 1e21],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['the text NaN', 'NaN'],
    ['an empty string', ''],
    ['a bare dot', '.'],
    ['a trailing dot', '12.'],
    ['a leading dot', '.5'],
    ['a plus sign', '+1'],
    ['hexadecimal', '0x10'],
    ['a comma', '1,5'],
    ['a float with binary noise', 0.1 + 0.2],
  ])('refuses %s', (_label, input) => {
    expect(parseAmount(input)).toBeNull();
  });
});

describe('precision', () => {
  it.each(Array.from({ length: 10 }, (_, p) => p))(
    'an amount with %i decimals fits precision p and above only',
    (p) => {
      const a = parseAmount(textWithDecimals(p));
      if (a === null) throw new Error('parse failed');
      expect(decimalsOf(a)).toBe(p);
      for (let q = 0; q <= 9; q++) expect(fitsPrecision(a, q)).toBe(q >= p);
    },
  );

  it('counts only the decimals really used', () => {
    expect(decimalsOf(amount(12_500_000_000n))).toBe(1);
    expect(decimalsOf(amount(3n * UNIT))).toBe(0);
    expect(decimalsOf(amount(1n))).toBe(9);
  });
});

describe('formatAmount', () => {
  it.each([
    [0, '1234'],
    [1, '1234.5'],
    [2, '1234.56'],
    [3, '1234.567'],
    [4, '1234.5678'],
    [5, '1234.56789'],
    [6, '1234.567891'],
    [7, '1234.5678912'],
    [8, '1234.56789123'],
    [9, '1234.567891234'],
  ])('at precision %i shows exactly that many decimals, truncated', (p, expected) => {
    expect(formatAmount(amount(1_234_567_891_234n), p)).toBe(expected);
  });

  it('pads with zeros to the precision', () => {
    expect(formatAmount(amount(12_500_000_000n), 2)).toBe('12.50');
    expect(formatAmount(amount(0n), 2)).toBe('0.00');
    expect(formatAmount(amount(0n), 0)).toBe('0');
    expect(formatAmount(amount(5n * UNIT))).toBe('5.000000000');
  });

  it('formats negative amounts (signed stats) with a leading minus', () => {
    expect(formatAmount(-12_500_000_000n, 2)).toBe('-12.50');
  });

  it.each(Array.from({ length: 10 }, (_, p) => p))('round-trips a precision-%i amount through text', (p) => {
    const text = textWithDecimals(p);
    const a = parseAmount(text);
    if (a === null) throw new Error('parse failed');
    expect(formatAmount(a, p)).toBe(text);
    expect(parseAmount(formatAmount(a, p))).toBe(a);
  });
});

describe('toDecimalString and fromNumeric', () => {
  it('shows the fewest decimals that keep the value', () => {
    expect(toDecimalString(12_500_000_000n)).toBe('12.5');
    expect(toDecimalString(3n * UNIT)).toBe('3');
    expect(toDecimalString(1n)).toBe('0.000000001');
    expect(toDecimalString(0n)).toBe('0');
    expect(toDecimalString(-1_500_000_000n)).toBe('-1.5');
  });

  it('reads PostgreSQL NUMERIC text, signed', () => {
    expect(fromNumeric('12.500000000')).toBe(12_500_000_000n);
    expect(fromNumeric('-0.010000000')).toBe(-10_000_000n);
    expect(fromNumeric('0')).toBe(0n);
    expect(() => fromNumeric('abc')).toThrow();
  });
});

describe('floorToPrecision and feeOf', () => {
  it('rounds down to the precision', () => {
    expect(floorToPrecision(1_239_999_999n, 2)).toBe(1_230_000_000n);
    expect(floorToPrecision(1_999_999_999n, 0)).toBe(UNIT);
    expect(floorToPrecision(1n, 9)).toBe(1n);
  });

  it('takes a tax or fee and rounds it up to the smallest unit (DESIGN §4)', () => {
    const onePercent = parseAmount('0.01') ?? 0n;
    // 1% of 50 = 0.50 exactly: nothing to round.
    expect(feeOf(50n * UNIT, onePercent, 2)).toBe(500_000_000n);
    // 1% of 12.34 = 0.1234 -> 0.13 at precision 2.
    expect(feeOf(parseAmount('12.34') ?? 0n, onePercent, 2)).toBe(130_000_000n);
    // 1% of 0.99 = 0.0099 -> 0.01: a small transfer still pays one smallest unit.
    expect(feeOf(parseAmount('0.99') ?? 0n, onePercent, 2)).toBe(10_000_000n);
    // 33% of 0.01 = 0.0033 -> 0.01: the whole amount, which the transfer then refuses.
    expect(feeOf(parseAmount('0.01') ?? 0n, parseAmount('0.33') ?? 0n, 2)).toBe(10_000_000n);
    // 5% of 0.99 at precision 9 keeps every digit.
    expect(feeOf(parseAmount('0.99') ?? 0n, parseAmount('0.05') ?? 0n, 9)).toBe(49_500_000n);
    // 33.3% of 10 at precision 0 = 3.33 -> 4.
    expect(feeOf(10n * UNIT, parseAmount('0.333') ?? 0n, 0)).toBe(4n * UNIT);
    // A rate of 0 takes nothing; a rate of 1 takes everything, never more.
    expect(feeOf(10n * UNIT, 0n, 2)).toBe(0n);
    expect(feeOf(10n * UNIT, UNIT, 2)).toBe(10n * UNIT);
    // A rate below one 10^-9 unit of the product still takes a smallest unit.
    expect(feeOf(1n, 1n, 9)).toBe(1n);
  });

  it('splitting never pays less tax than paying at once', () => {
    const rate = parseAmount('0.3') ?? 0n;
    const whole = feeOf(20n * 10_000_000n, rate, 2);
    let split = 0n;
    for (let i = 0; i < 20; i++) split += feeOf(10_000_000n, rate, 2);
    expect(split).toBeGreaterThanOrEqual(whole);
    expect(split).toBe(20n * 10_000_000n);
  });

  it('multiplies quantity by price, rounding down', () => {
    expect(mulAmounts(parseAmount('1.5') ?? 0n, parseAmount('2.25') ?? 0n, 9)).toBe(3_375_000_000n);
    expect(mulAmounts(parseAmount('1.5') ?? 0n, parseAmount('2.25') ?? 0n, 2)).toBe(3_370_000_000n);
  });

  it('sums amounts', () => {
    expect(sumAmounts([1n, 2n, 3n * UNIT])).toBe(3_000_000_003n);
    expect(sumAmounts([])).toBe(0n);
  });
});

describe('abbreviateAmount (SPEC §2 Quantum Hub)', () => {
  it.each([
    ['999999.99', '999999.99'],
    ['1000000', '1.00M'],
    ['1234567', '1.23M'],
    ['999999999', '999.99M'],
    ['1000000000', '1.00B'],
    ['123456789000', '123.45B'],
    ['1000000000000', '1.00T'],
    ['1000000000000000', '1.00Q'],
    ['2500000000000000000', '2500.00Q'],
  ])('%s -> %s', (text, expected) => {
    expect(abbreviateAmount(parseAmount(text) ?? -1n)).toBe(expected);
  });

  it('keeps the sign and formats small values at the precision', () => {
    expect(abbreviateAmount(-(10n ** 6n) * UNIT)).toBe('-1.00M');
    expect(abbreviateAmount(12_500_000_000n, 0)).toBe('12');
    expect(abbreviateAmount(12_500_000_000n)).toBe('12.50');
  });
});

describe('formatAtPrecision (amounts on the wire)', () => {
  it.each([
    ['50', 2, '50.00'],
    ['49.5', 2, '49.50'],
    ['7', 0, '7'],
    ['0', 2, '0.00'],
    ['0.125', 2, '0.125'],
    ['123456789012345.123456789', 9, '123456789012345.123456789'],
  ])('%s at precision %i is "%s"', (text, precision, expected) => {
    expect(formatAtPrecision(parse(text), precision)).toBe(expected);
  });

  it('keeps the sign of a negative total and never hides a digit', () => {
    expect(formatAtPrecision(-parse('1.5'), 2)).toBe('-1.50');
    expect(formatAtPrecision(-parse('0.001'), 0)).toBe('-0.001');
  });
});

describe('wholeUnits and wholeUnitsOf (counts in whole currency units)', () => {
  it('turns a count into an amount and back, rounding a part of a unit down', () => {
    expect(wholeUnits(3)).toBe(3_000_000_000n);
    expect(wholeUnits(12n)).toBe(12_000_000_000n);
    expect(wholeUnitsOf(wholeUnits(10_000))).toBe(10_000);
    expect(wholeUnitsOf(2_999_999_999n)).toBe(2);
    expect(wholeUnitsOf(0n)).toBe(0);
    expect(() => wholeUnits(1.5)).toThrow(RangeError);
  });
});
