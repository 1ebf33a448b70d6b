import { describe, expect, it } from 'vitest';
import {
  citizenRank,
  formatDate,
  formatDuration,
  nextPage,
  pageAfterError,
  pageCount,
  previousPage,
  shortenNickname,
} from './format.ts';
import { parseAmount, UNIT } from './money.ts';

describe('shortenNickname (SPEC §2, §9)', () => {
  it('keeps names of up to 11 characters', () => {
    expect(shortenNickname('abcdefghijk')).toBe('abcdefghijk');
    expect(shortenNickname('abc')).toBe('abc');
  });

  it('shows names of 12+ characters as the first 6, an ellipsis and the last 6', () => {
    expect(shortenNickname('abcdefghijkl')).toBe('abcdef…ghijkl');
    expect(shortenNickname('abcdefghijklmnopqrstuvwxyz')).toBe('abcdef…uvwxyz');
    expect(shortenNickname('0x1234567890abcdef1234567890abcdef12345678')).toBe('0x1234…345678');
  });
});

describe('citizenRank (SPEC §6)', () => {
  const units = (text: string) => parseAmount(text) ?? -1n;
  it.each([
    ['0', 'Citizen'],
    ['999.999999999', 'Citizen'],
    ['1000', 'Ethereal'],
    ['9999.99', 'Ethereal'],
    ['10000', 'Extraterrestrial'],
    ['49999.99', 'Extraterrestrial'],
    ['50000', 'Stellar'],
    ['99999.99', 'Stellar'],
    ['100000', 'Celestial'],
    ['1000000000', 'Celestial'],
  ])('holding %s SD is %s', (holding, rank) => {
    expect(citizenRank(units(holding))).toBe(rank);
  });

  it('takes the holding in 10^-9 units, not whole units', () => {
    expect(citizenRank(1000n)).toBe('Citizen');
    expect(citizenRank(1000n * UNIT)).toBe('Ethereal');
  });
});

describe('paging (SPEC §4)', () => {
  it('previous does nothing on page 1, goes to 1 from 2 and decrements above 2', () => {
    expect(previousPage(1)).toBe(1);
    expect(previousPage(2)).toBe(1);
    expect(previousPage(3)).toBe(2);
    expect(previousPage(5)).toBe(4);
  });

  it('next increments', () => {
    expect(nextPage(1)).toBe(2);
    expect(nextPage(9)).toBe(10);
  });

  it('on error goes back by one, never below page 1', () => {
    expect(pageAfterError(1)).toBe(1);
    expect(pageAfterError(2)).toBe(1);
    expect(pageAfterError(6)).toBe(5);
  });

  it('counts pages, at least one', () => {
    expect(pageCount(0, 10)).toBe(1);
    expect(pageCount(10, 10)).toBe(1);
    expect(pageCount(11, 10)).toBe(2);
    expect(pageCount(50, 20)).toBe(3);
  });
});

describe('formatDate and formatDuration', () => {
  it('formats dates in en-GB, in UTC for admin lists', () => {
    expect(formatDate('2024-03-05T14:07:09Z', true)).toBe('05/03/2024, 14:07:09');
  });

  it('formats a forge time as days/hours/min/sec', () => {
    expect(formatDuration(0)).toBe('0 sec');
    expect(formatDuration(59)).toBe('59 sec');
    expect(formatDuration(3600)).toBe('1 hour');
    expect(formatDuration(90061)).toBe('1 day 1 hour 1 min 1 sec');
    expect(formatDuration(2 * 86400 + 2 * 3600 + 30)).toBe('2 days 2 hours 30 sec');
  });
});
