import { describe, expect, it } from 'vitest';
import { fractionToPercent, percentToFraction } from './percent.ts';

describe('percentToFraction', () => {
  it('divides by 100 exactly', () => {
    expect(percentToFraction('1.5')).toBe('0.015');
    expect(percentToFraction('100')).toBe('1');
    expect(percentToFraction('0')).toBe('0');
    expect(percentToFraction('0.0000001')).toBe('0.000000001');
    expect(percentToFraction('33.3333333')).toBe('0.333333333');
    expect(percentToFraction(' 2,25 ')).toBe('0.0225');
  });
  it('refuses what is not a plain decimal or needs more than 9 decimals', () => {
    expect(percentToFraction('abc')).toBeNull();
    expect(percentToFraction('-1')).toBeNull();
    expect(percentToFraction('0.00000001')).toBeNull();
  });
});

describe('fractionToPercent', () => {
  it('multiplies by 100 exactly', () => {
    expect(fractionToPercent('0.015')).toBe('1.5');
    expect(fractionToPercent('0.010000000')).toBe('1');
    expect(fractionToPercent('1')).toBe('100');
    expect(fractionToPercent('0')).toBe('0');
  });
});
