/** Display helpers shared by server and web. Pure functions, no I/O. */
import { type Amount, UNIT } from './money.ts';
import { CITIZEN_RANKS } from './tables.ts';

/** SPEC §2/§9: names of 12+ characters are shown as the first 6 + ellipsis + the last 6. */
export function shortenNickname(nickname: string): string {
  return nickname.length >= 12 ? `${nickname.slice(0, 6)}…${nickname.slice(-6)}` : nickname;
}

/** SPEC §6: the citizen rank for a holding of the main token (an Amount). */
export function citizenRank(holding: Amount | bigint): string {
  let rank = CITIZEN_RANKS[0]?.name ?? 'Citizen';
  for (const r of CITIZEN_RANKS) if (holding >= BigInt(r.min) * UNIT) rank = r.name;
  return rank;
}

/** SPEC §4 paging: previous goes to 1 from 2, decrements above 2, does nothing on page 1. */
export function previousPage(page: number): number {
  return page <= 1 ? 1 : page - 1;
}

/** SPEC §4 paging: next increments. */
export function nextPage(page: number): number {
  return page + 1;
}

/** SPEC §4 paging: on error the page goes back by one (never below 1). */
export function pageAfterError(page: number): number {
  return Math.max(1, page - 1);
}

/** Number of pages for `total` rows at `limit` a page (at least 1). */
export function pageCount(total: number, limit: number): number {
  return Math.max(1, Math.ceil(total / limit));
}

/** A list's total for display: `1,234`, or `10,000+` when the count stopped at a bound (`totalCapped`). */
export function formatTotal(total: number, capped = false): string {
  return `${total.toLocaleString('en-GB')}${capped ? '+' : ''}`;
}

/** Formats an ISO date in en-GB (SPEC §9); `utc` for admin lists. */
export function formatDate(iso: string | Date, utc = false): string {
  const d = typeof iso === 'string' ? new Date(iso) : iso;
  return d.toLocaleString('en-GB', utc ? { timeZone: 'UTC' } : undefined);
}

/** Formats a duration in seconds as days/hours/min/sec (SPEC §2 forge cards). */
export function formatDuration(seconds: number): string {
  const parts: string[] = [];
  const d = Math.floor(seconds / 86400);
  const h = Math.floor((seconds % 86400) / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  if (d) parts.push(`${d} ${d === 1 ? 'day' : 'days'}`);
  if (h) parts.push(`${h} ${h === 1 ? 'hour' : 'hours'}`);
  if (m) parts.push(`${m} min`);
  if (s || parts.length === 0) parts.push(`${s} sec`);
  return parts.join(' ');
}
