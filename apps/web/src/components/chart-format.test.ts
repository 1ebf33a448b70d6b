import { describe, expect, it } from 'vitest';
import { abbreviateNumber, axisTick, bucketLabel } from './chart-format.ts';

describe('abbreviateNumber', () => {
  it('uses K, M, B, T, Q, two decimals truncated', () => {
    expect(abbreviateNumber(350_000)).toBe('350K');
    expect(abbreviateNumber(1_500)).toBe('1.5K');
    expect(abbreviateNumber(1_250_000)).toBe('1.25M');
    expect(abbreviateNumber(999_999_999)).toBe('999.99M');
    expect(abbreviateNumber(3_000_000_000)).toBe('3B');
    expect(abbreviateNumber(4.5e12)).toBe('4.5T');
    expect(abbreviateNumber(2e15)).toBe('2Q');
    expect(abbreviateNumber(-1_500_000)).toBe('-1.5M');
  });
  it('shows smaller numbers as they are', () => {
    expect(abbreviateNumber(999)).toBe('999');
    expect(abbreviateNumber(12.345)).toBe('12.34');
    expect(abbreviateNumber(0)).toBe('0');
  });
});

describe('bucketLabel', () => {
  it('shows the day for daily buckets and the hour for hourly ones', () => {
    const iso = new Date(2025, 2, 3, 14, 0).toISOString();
    expect(bucketLabel(iso, '1d')).toBe('03 Mar');
    expect(bucketLabel(iso, '1h')).toBe('03 Mar, 14:00');
  });
});

describe('axisTick', () => {
  it('keeps hourly ticks short: the time, or the day at midnight; daily as they are', () => {
    expect(axisTick('03 Mar, 22:00', '1h')).toBe('22:00');
    expect(axisTick('04 Mar, 00:00', '1h')).toBe('04 Mar');
    expect(axisTick('04 Mar', '1d')).toBe('04 Mar');
  });
});
