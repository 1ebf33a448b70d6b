/** The money popups' limits in bigint 10^-9 units: Max never leaves the balance short, and the amount's faults in words. */
import { feeOf, parseAmount } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { amountProblem, maxTaxInside, maxTaxOnTop } from './amount-limits.ts';

const units = (text: string) => {
  const a = parseAmount(text);
  if (a === null) throw new Error(text);
  return a as bigint;
};
const sd = { ticker: 'SD', precision: 2 };

describe('amount limits', () => {
  it('a transfer can send the whole balance, rounded down to the currency decimals', () => {
    expect(maxTaxInside(units('900'), 2)).toBe(units('900'));
    expect(maxTaxInside(units('12.345678'), 2)).toBe(units('12.34'));
    expect(maxTaxInside(units('7.9'), 0)).toBe(units('7'));
  });

  it('a withdrawal Max plus its tax, rounded up as the server rounds it, fits the balance, one unit more does not', () => {
    const cases: Array<[string, string, number]> = [
      ['900', '0.05', 2],
      ['91177.24', '0.03', 2],
      ['0.05', '0.5', 2],
      ['1000000000000', '0.000000001', 9],
      ['10', '1', 0],
      ['999999999.99', '0.07', 2],
    ];
    for (const [balance, rate, precision] of cases) {
      const b = units(balance);
      const r = units(rate);
      const max = maxTaxOnTop(b, r, precision);
      const step = 10n ** BigInt(9 - precision);
      expect(max % step).toBe(0n);
      expect(max + feeOf(max, r, precision)).toBeLessThanOrEqual(b);
      const next = max + step;
      expect(next + feeOf(next, r, precision)).toBeGreaterThan(b);
    }
    expect(maxTaxOnTop(0n, units('0.05'), 2)).toBe(0n);
  });

  it('says what is wrong with an amount in words', () => {
    expect(amountProblem('', sd, units('900'))).toBeNull();
    expect(amountProblem('12.345', sd, units('900'))).toBe('Amount can have at most 2 decimals');
    expect(amountProblem('1.5', { ticker: 'CHIP', precision: 0 }, units('9'))).toBe('Amount must be a whole number');
    expect(amountProblem('abc', sd, units('900'))).toBe('Amount must be a number, like 12.50');
    expect(amountProblem('0.001', sd, units('900'))).toBe('Amount must be at least 0.01');
    expect(amountProblem('999999999', sd, units('900'))).toBe('More than you have: your balance is 900.00 SD');
    expect(amountProblem('900', sd, units('900'))).toBeNull();
    const withTax = (a: bigint) => a + feeOf(a, units('0.05'), 2);
    expect(amountProblem('900', sd, units('900'), withTax)).toBe(
      'The amount and its tax (945.00 SD) are more than your balance of 900.00 SD',
    );
    expect(amountProblem('999999999', sd, null)).toBeNull();
  });
});
