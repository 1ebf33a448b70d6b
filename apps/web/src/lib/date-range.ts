/**
 * Date ranges of the admin filters. Admin lists are in UTC (SPEC §2), so "today" is the UTC date and
 * ranges are sent as 'YYYY-MM-DD' (the server reads an end date as the end of that day).
 */
import dayjs from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

export type RangeShortcut = 'day' | 'week' | 'month';

/** SPEC §9: Prev day / week / month span a day, 7 days or one month ago through today. */
export function shortcutRange(kind: RangeShortcut, now: Date = new Date()): { start: string; end: string } {
  const today = dayjs.utc(now);
  const start =
    kind === 'day' ? today.subtract(1, 'day') : kind === 'week' ? today.subtract(7, 'day') : today.subtract(1, 'month');
  return { start: start.format('YYYY-MM-DD'), end: today.format('YYYY-MM-DD') };
}

/** A picker value ('YYYY-MM-DD', a Date or null) as the wire's 'YYYY-MM-DD', or undefined. */
export function toWireDate(value: string | Date | null | undefined): string | undefined {
  if (!value) return undefined;
  if (typeof value === 'string') return value.slice(0, 10);
  return dayjs(value).format('YYYY-MM-DD');
}
