/** Date-range filters of the list queries (SPEC §2 start/end dates; DESIGN §3 ISO 8601 UTC). */
import { type SQL, sql } from 'drizzle-orm';

/** A date-only end bound covers that whole day (UTC); a date-time is taken as it is. ISO text. */
export function endOfDay(date: string): string {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) ? `${date}T23:59:59.999Z` : new Date(date).toISOString();
}

/** The conditions `column >= start` and `column <= end of day(end)` for the bounds that are given. */
export function withinDates(column: SQL, start: string | undefined, end: string | undefined): SQL[] {
  const where: SQL[] = [];
  if (start) where.push(sql`${column} >= ${new Date(start).toISOString()}::timestamptz`);
  if (end) where.push(sql`${column} <= ${endOfDay(end)}::timestamptz`);
  return where;
}
