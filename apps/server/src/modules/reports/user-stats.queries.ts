/**
 * SQL of the user stats (SPEC §2 User Logs; DESIGN §8), a read model of the reports module: counts of
 * accounts by kind in a date range, kept per UTC day and hour by the triggers of migrations 0017 and 0029
 * (`user_stats_daily`, `user_stats_hourly`, `user_holdings`, written in the transaction that writes the
 * account or the balance) and rebuilt by `rebuildUserStats`.
 * Reads other modules' tables: `users` (the accounts module's: the part of an hour the kept counts do not cover, and the rebuild) and `balances` (the ledger's: who holds a currency, on a rebuild).
 */
import type { UserStats } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryPlanned } from '../../db/client.ts';
import { endOfDay } from '../../db/date-range.ts';
import { inTransaction, readWithGenericPlans } from '../../db/transaction.ts';
import { HAS_CURRENCY } from '../ledger/ledger.public.ts';

const STAT_KEYS = [
  'total',
  'verifiedEmailAccounts',
  'walletUsers',
  'anonymousUsers',
  'disabledAccounts',
  'adminUsers',
  'haveCurrency',
] as const satisfies ReadonlyArray<keyof UserStats>;

function toStats(row: Partial<Record<keyof UserStats, string | number | null>> | undefined): UserStats {
  const stats = {} as UserStats;
  for (const k of STAT_KEYS) stats[k] = Number(row?.[k] ?? 0);
  return stats;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;
const ts = (ms: number) => sql`${new Date(ms).toISOString()}::timestamptz`;

/**
 * The kept counts of the UTC days (`user_stats_daily`) or hours (`user_stats_hourly`) in `[from, to)`
 * (ms since the epoch, on the unit's boundaries; infinite: unbounded), as stat rows.
 */
function keptPart(unit: 'day' | 'hour', from: number, to: number): SQL {
  const conds: SQL[] = [sql`true`];
  const col = unit === 'day' ? sql`day` : sql`hour`;
  // A day is compared as a date, not as a moment: the session's time zone does not move it.
  const value = (ms: number) => (unit === 'day' ? sql`${new Date(ms).toISOString().slice(0, 10)}::date` : ts(ms));
  if (Number.isFinite(from)) conds.push(sql`${col} >= ${value(from)}`);
  if (Number.isFinite(to)) conds.push(sql`${col} < ${value(to)}`);
  return sql`SELECT total, verified, wallet, anonymous, disabled, admin, have_currency
             FROM ${unit === 'day' ? sql`user_stats_daily` : sql`user_stats_hourly`} WHERE ${sql.join(conds, sql` AND `)}`;
}

/**
 * The accounts created from `from` to `to`, each bound included or not (`fromIncluded`, default yes;
 * `toIncluded`), counted from `users` (less than an hour of them), as stat rows; `subtract`: negated, to
 * take them away from a kept hour.
 */
function countedPart(
  from: number,
  to: number,
  toIncluded: boolean,
  { subtract = false, fromIncluded = true }: { subtract?: boolean; fromIncluded?: boolean } = {},
): SQL {
  const s = sql.raw(subtract ? '-1' : '1');
  return sql`SELECT ${s}, ${s} * u.is_email_verified::int, ${s} * (u.primary_wallet IS NOT NULL)::int,
                    ${s} * u.is_anonymous::int, ${s} * (NOT u.is_active)::int, ${s} * (u.role = 'admin')::int,
                    ${s} * (${HAS_CURRENCY})::int
             FROM users u WHERE u.created_at ${fromIncluded ? sql`>=` : sql`>`} ${ts(from)}
                            AND u.created_at ${toIncluded ? sql`<=` : sql`<`} ${ts(to)}`;
}

/**
 * The accounts created in the part of the UTC hour starting at `hour` that a range keeps: from `from` to
 * the hour's end (`from` inside the hour), or from the hour's start to `to` included (`to` inside it). The
 * part is counted from `users`, or, when it is the longer part of the hour, the hour's kept count less the
 * other part counted: the fewer accounts read either way, the same answer (the kept counts are written in
 * the transaction that writes the account). A range that ends now reads the hour's kept row and the
 * accounts created after now (none), not every account of the hour so far: after a burst of registrations
 * (the bench's write cases) that was thousands of rows on every call.
 */
function partOfHour(hour: number, bound: { from: number } | { to: number }): SQL[] {
  const end = hour + HOUR_MS;
  if ('from' in bound) {
    return bound.from - hour >= end - bound.from
      ? [countedPart(bound.from, end, false)]
      : [keptPart('hour', hour, end), countedPart(hour, bound.from, false, { subtract: true })];
  }
  return bound.to - hour < end - bound.to
    ? [countedPart(hour, bound.to, true)]
    : [keptPart('hour', hour, end), countedPart(bound.to, end, false, { subtract: true, fromIncluded: false })];
}

/**
 * SPEC §3 user stats over the accounts created between `start` and `end` (every account without them;
 * a date-only `end` covers that whole UTC day, as `withinDates`), in one statement whatever the number of
 * members: whole UTC days from the kept per-day counts (`user_stats_daily`: at most 8 rows a day), whole
 * hours at either end from the kept per-hour counts (`user_stats_hourly`), and the part of an hour at each
 * end counted from `users` (a range on `users_created_at`: at most an hour of registrations, where the part
 * of a day would be a whole day's), or the hour's kept count less the rest of it (`partOfHour`).
 */
export async function findUserStats(db: DbOrTx, start?: string, end?: string): Promise<UserStats> {
  const lo = start ? new Date(start).getTime() : Number.NEGATIVE_INFINITY;
  const hi = end ? new Date(endOfDay(end)).getTime() : Number.POSITIVE_INFINITY; // inclusive
  if (lo > hi) return toStats(undefined);
  const hiEx = hi + 1; // the first millisecond after the range
  const ceil = (t: number, unit: number) => (Number.isFinite(t) ? Math.ceil(t / unit) * unit : t);
  const floor = (t: number, unit: number) => (Number.isFinite(t) ? Math.floor(t / unit) * unit : t);
  const h0 = ceil(lo, HOUR_MS);
  const h1 = floor(hiEx, HOUR_MS);
  const parts: SQL[] = [];
  if (h0 >= h1) {
    // No whole hour in the range: counted.
    parts.push(countedPart(lo, hi, true));
  } else {
    // [lo, h0) part of an hour, [h0, d0) hours, [d0, d1) days, [d1, h1) hours, [h1, hi] part of an hour;
    // empty parts left out.
    const d0 = ceil(lo, DAY_MS);
    const d1 = floor(hiEx, DAY_MS);
    const hourly = (from: number, to: number) => keptPart('hour', from, to);
    if (lo < h0) parts.push(...partOfHour(h0 - HOUR_MS, { from: lo }));
    if (d0 < d1) {
      if (h0 < d0) parts.push(hourly(h0, d0));
      parts.push(keptPart('day', d0, d1));
      if (d1 < h1) parts.push(hourly(d1, h1));
    } else {
      parts.push(hourly(h0, h1));
    }
    if (Number.isFinite(h1) && h1 <= hi) parts.push(...partOfHour(h1, { to: hi }));
  }
  // A range: its generic plan (one of a few shapes, each named once per connection), ranges of the kept
  // counts' keys and of `users_created_at`, which PostgreSQL otherwise parsed and planned on every call. All
  // time: the kept days alone, a named statement (PostgreSQL keeps its plan itself).
  const read = (q: DbOrTx) =>
    queryPlanned<Record<keyof UserStats, string>>(
      q,
      sql`
    SELECT sum(total) AS "total", sum(verified) AS "verifiedEmailAccounts", sum(wallet) AS "walletUsers",
           sum(anonymous) AS "anonymousUsers", sum(disabled) AS "disabledAccounts", sum(admin) AS "adminUsers",
           sum(have_currency) AS "haveCurrency"
    FROM (${sql.join(parts, sql` UNION ALL `)}) AS p(total, verified, wallet, anonymous, disabled, admin, have_currency)`,
    );
  const [row] = start || end ? await readWithGenericPlans(db, read) : await read(db);
  return toStats(row);
}

/**
 * Builds the kept user stats from scratch: each member's count of positive balances
 * (`user_holdings`) and the per-day and per-hour counts (`user_stats_daily`, `user_stats_hourly`), from
 * `users` and `balances`. Holds a
 * SHARE lock on both tables meanwhile, so no write slips between the count and the triggers that keep it
 * (writers wait; seconds at a million members). Run after a bulk load that bypassed the triggers (the
 * scale seed) and whenever the state is missing (`ensureUserStats`).
 */
export async function rebuildUserStats(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`LOCK TABLE users, balances IN SHARE MODE`);
    await tx.execute(sql`TRUNCATE user_holdings, user_stats_daily, user_stats_hourly`);
    await tx.execute(sql`
      INSERT INTO user_holdings (user_id, positive)
      SELECT user_id, count(*) FROM balances WHERE amount > 0 GROUP BY user_id`);
    await tx.execute(sql`
      INSERT INTO user_stats_daily (day, slot, total, verified, wallet, anonymous, disabled, admin, have_currency)
      SELECT (u.created_at AT TIME ZONE 'UTC')::date, 0, count(*), count(*) FILTER (WHERE u.is_email_verified),
             count(*) FILTER (WHERE u.primary_wallet IS NOT NULL), count(*) FILTER (WHERE u.is_anonymous),
             count(*) FILTER (WHERE NOT u.is_active), count(*) FILTER (WHERE u.role = 'admin'),
             count(*) FILTER (WHERE h.positive > 0)
      FROM users u LEFT JOIN user_holdings h ON h.user_id = u.id GROUP BY 1`);
    await tx.execute(sql`
      INSERT INTO user_stats_hourly (hour, slot, total, verified, wallet, anonymous, disabled, admin, have_currency)
      SELECT date_trunc('hour', u.created_at, 'UTC'), 0, count(*), count(*) FILTER (WHERE u.is_email_verified),
             count(*) FILTER (WHERE u.primary_wallet IS NOT NULL), count(*) FILTER (WHERE u.is_anonymous),
             count(*) FILTER (WHERE NOT u.is_active), count(*) FILTER (WHERE u.role = 'admin'),
             count(*) FILTER (WHERE h.positive > 0)
      FROM users u LEFT JOIN user_holdings h ON h.user_id = u.id GROUP BY 1`);
  });
}

/**
 * Rebuilds the kept user stats when they are missing or do not add up: their total is not the number of
 * members, their holders not the members counted holding, or those counts not the number of positive
 * balances (a bulk load that bypassed the triggers, e.g. with `session_replication_role = replica`, or
 * tables emptied by hand). One statement, so one snapshot: writes committed meanwhile cannot make it
 * differ. Run at start: an index-only count of users and one pass over balances (a long pass at a
 * million members and a few million balances). Returns whether it rebuilt.
 */
export async function ensureUserStats(db: Db): Promise<boolean> {
  const res = await db.execute<{ stale: boolean }>(sql`
    SELECT (SELECT coalesce(sum(total), 0) FROM user_stats_daily) <> (SELECT count(*) FROM users)
        OR (SELECT coalesce(sum(have_currency), 0) FROM user_stats_daily)
           <> (SELECT count(*) FROM user_holdings WHERE positive > 0)
        OR (SELECT coalesce(sum(total), 0) FROM user_stats_hourly) <> (SELECT count(*) FROM users)
        OR (SELECT coalesce(sum(have_currency), 0) FROM user_stats_hourly)
           <> (SELECT count(*) FROM user_holdings WHERE positive > 0)
        OR (SELECT coalesce(sum(positive), 0) FROM user_holdings)
           <> (SELECT count(*) FROM balances WHERE amount > 0) AS stale`);
  if (!res.rows[0]?.stale) return false;
  await rebuildUserStats(db);
  return true;
}
