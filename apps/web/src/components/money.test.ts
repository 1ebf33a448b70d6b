import type { Currency } from '@starlight/shared';
import { describe, expect, it } from 'vitest';
import { formatMoney, formatMoneyWithTicker } from './Money.tsx';

const credits = { currencyId: 3, ticker: 'CR', name: 'Credits', precision: 2 } as Currency;

describe('money on screen (one format)', () => {
  it('groups thousands at the precision, the ticker after the amount', () => {
    expect(formatMoneyWithTicker('1000', credits)).toBe('1,000.00 CR');
    expect(formatMoneyWithTicker('1234567.5', credits)).toBe('1,234,567.50 CR');
    expect(formatMoney('1000', credits)).toBe('1,000.00');
  });

  it('uses the fallback ticker while the currency is unknown, and the amount as given', () => {
    expect(formatMoneyWithTicker('1000.00', undefined, 'CR')).toBe('1000.00 CR');
    expect(formatMoneyWithTicker('5', undefined)).toBe('5');
  });
});
