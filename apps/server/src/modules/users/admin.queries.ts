/**
 * SQL of the admin side of accounts (DESIGN §8): the user list, the user stats (kept per day by the
 * triggers of migration 0017, rebuilt by `rebuildUserStats`) and the admin count.
 */
import type { GetUsersQuery, UserStats } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.ts';
import { endOfDay, withinDates } from '../../db/date-range.ts';
import { cappedTotal } from '../../db/paging.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { UserRow } from './users.queries.ts';

/** A user-list row: the account's columns and whether it holds a positive balance of any currency. */
export type AdminUserRecord = Omit<UserRow, 'passwordHash' | 'apiKeyHash' | 'apiKeySealed' | 'isSystem'> & {
  hasCurrency: boolean;
};

/** `EXISTS` a positive balance of the account `u` (the primary key's `user_id` prefix: a few rows). */
const HAS_CURRENCY = sql`EXISTS (SELECT 1 FROM balances b WHERE b.user_id = u.id AND b.amount > 0)`;

/** `text` as a LIKE pattern matching it anywhere: `%`, `_` and `\` escaped, lower-cased. */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * `email` contains `text` (kept lower case, so any case matches). The trigram index is asked only for the
 * part up to and with the `@` when that part has 3 characters or more: the part after it is a domain many
 * members share (each of its trigrams lists most of the table, and GIN reads every list it is given:
 * 0.4 s at a million members for `r4567@scale`, 3 ms for `r4567@`); the whole text is then checked on
 * the few rows found.
 */
function emailFilter(text: string): SQL {
  const lower = text.toLowerCase();
  const at = lower.indexOf('@');
  if (at < 3 || at === lower.length - 1) return sql`u.email LIKE ${containsPattern(lower)}`;
  return sql`u.email LIKE ${containsPattern(lower.slice(0, at + 1))} AND strpos(u.email, ${lower}) > 0`;
}

/** The SQL roles `getUsers` may filter by: a literal in the query, so a partial index's predicate applies. */
const ROLE_LITERAL: Record<string, string> = { admin: "'admin'", user: "'user'", creator: "'creator'" };

/**
 * The WHERE of a user list, each filter in the form its index serves (issue 19 §2):
 * - nickname / e-mail, part of a word in any case: `LIKE '%x%'` on `lower(nickname)` / `email` (kept lower
 *   case), served by the pg_trgm GIN indexes `users_nickname_trgm` / `users_email_trgm` (3 characters or more);
 * - `isActive = false`, `isWalletOnly`, `isAnonymous`, a role other than `user`: the partial indexes
 *   `users_inactive_created`, `users_wallet_only_created`, `users_anonymous_created`, `users_staff_created`,
 *   each in the list's order (flags and roles are written as literals so the planner matches the predicates);
 * - the other flags and `role = user` (most members): `users_created_at`, whose INCLUDE columns answer
 *   them without reading the table; the date range: the same index's `created_at` bounds.
 */
function userFilter(f: GetUsersQuery): SQL {
  const where: SQL[] = [sql`true`];
  const flag = (column: string, value: boolean | undefined) => {
    if (value !== undefined) where.push(sql.raw(value ? `u.${column}` : `NOT u.${column}`));
  };
  if (f.nickname) where.push(sql`lower(u.nickname) LIKE ${containsPattern(f.nickname)}`);
  if (f.email) where.push(emailFilter(f.email));
  if (f.role) {
    const literal = ROLE_LITERAL[f.role];
    where.push(literal ? sql.raw(`u.role = ${literal}`) : sql`u.role = ${f.role}`);
  }
  flag('is_active', f.isActive);
  flag('is_wallet_only', f.isWalletOnly);
  flag('is_email_verified', f.isEmailVerified);
  flag('is_anonymous', f.isAnonymous);
  where.push(...withinDates(sql`u.created_at`, f.createdAfter, f.createdBefore));
  return sql.join(where, sql` AND `);
}

/**
 * The parts of a user-list query (exported for the tests that check each filter's plan): `pageIds`, the
 * ids of the page in the list's order; `from`, what `cappedTotal` counts; `offset`, the page's first row.
 */
export function userListSql(f: GetUsersQuery): { pageIds: SQL; from: SQL; offset: number } {
  const cond = userFilter(f);
  const { limit, page } = f.paging;
  const offset = (page - 1) * limit;
  return {
    pageIds: sql`SELECT u.id FROM users u WHERE ${cond} ORDER BY u.created_at DESC, u.id DESC LIMIT ${limit} OFFSET ${offset}`,
    from: sql`users u WHERE ${cond}`,
    offset,
  };
}

/**
 * A page of accounts matching `f`, newest first (created_at DESC, id DESC), with the total of matches
 * counted up to `COUNT_CAP` rows past the page (`cappedTotal`; `totalCapped` when more match).
 *
 * The page is found on the index alone (ids only, in the index's order, OFFSET skipping index entries
 * without reading the table), then only its rows are read: a deep page costs its offset in index entries,
 * not in table rows. Keyset paging would need the previous page's last row, which SPEC's `page` does not
 * carry, so this is OFFSET over an index-only scan.
 */
export async function findUsers(
  db: DbOrTx,
  f: GetUsersQuery,
): Promise<{
  users: Array<AdminUserRecord & { referrerNickname: string | null }>;
  total: number;
  totalCapped: boolean;
}> {
  const q = userListSql(f);
  const [rows, count] = await Promise.all([
    db.execute<{
      id: string;
      nickname: string;
      email: string | null;
      role: string;
      primary_wallet: string | null;
      is_active: boolean;
      is_wallet_only: boolean;
      is_email_verified: boolean;
      is_anonymous: boolean;
      referrer_id: string | null;
      referrer_nickname: string | null;
      fame: number;
      token_version: number;
      created_at: string | Date;
      updated_at: string | Date;
      has_currency: boolean;
    }>(sql`
      WITH page AS MATERIALIZED (${q.pageIds})
      SELECT u.id, u.nickname, u.email, u.role, u.primary_wallet, u.is_active, u.is_wallet_only,
             u.is_email_verified, u.is_anonymous, u.referrer_id, r.nickname AS referrer_nickname, u.fame,
             u.token_version, u.created_at, u.updated_at, ${HAS_CURRENCY} AS has_currency
      FROM page JOIN users u ON u.id = page.id LEFT JOIN users r ON r.id = u.referrer_id
      ORDER BY u.created_at DESC, u.id DESC`),
    cappedTotal(db, q.from, q.offset),
  ]);
  return {
    ...count,
    users: rows.rows.map((r) => ({
      id: r.id,
      nickname: r.nickname,
      email: r.email,
      role: r.role,
      primaryWallet: r.primary_wallet,
      isActive: r.is_active,
      isWalletOnly: r.is_wallet_only,
      isEmailVerified: r.is_email_verified,
      isAnonymous: r.is_anonymous,
      referrerId: r.referrer_id,
      referrerNickname: r.referrer_nickname,
      fame: r.fame,
      tokenVersion: r.token_version,
      createdAt: new Date(r.created_at),
      updatedAt: new Date(r.updated_at),
      hasCurrency: r.has_currency,
    })),
  };
}

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

function addStats(a: UserStats, b: UserStats): UserStats {
  const sum = {} as UserStats;
  for (const k of STAT_KEYS) sum[k] = a[k] + b[k];
  return sum;
}

/**
 * SPEC §3 user stats counted from the users rows themselves (the definition; what the kept figures must
 * equal), over the accounts whose `created_at` meets `conds`. Only for short ranges (`created_at` bounds
 * on `users_created_at`): a part of a day at the edges of a range.
 */
export async function countUserStats(db: DbOrTx, conds: SQL[]): Promise<UserStats> {
  const cond = sql.join([sql`true`, ...conds], sql` AND `);
  const res = await db.execute<Record<keyof UserStats, string>>(sql`
    SELECT count(*) AS "total",
           count(*) FILTER (WHERE u.is_email_verified) AS "verifiedEmailAccounts",
           count(*) FILTER (WHERE u.primary_wallet IS NOT NULL) AS "walletUsers",
           count(*) FILTER (WHERE u.is_anonymous) AS "anonymousUsers",
           count(*) FILTER (WHERE NOT u.is_active) AS "disabledAccounts",
           count(*) FILTER (WHERE u.role = 'admin') AS "adminUsers",
           count(*) FILTER (WHERE ${HAS_CURRENCY}) AS "haveCurrency"
    FROM users u WHERE ${cond}`);
  return toStats(res.rows[0]);
}

/** The kept stats (`user_stats_daily`) of the UTC days `from` (inclusive) to `to` (exclusive), each optional. */
async function keptUserStats(db: DbOrTx, from: Date | null, to: Date | null): Promise<UserStats> {
  const day = (d: Date) => d.toISOString().slice(0, 10);
  const conds: SQL[] = [sql`true`];
  if (from) conds.push(sql`day >= ${day(from)}::date`);
  if (to) conds.push(sql`day < ${day(to)}::date`);
  const res = await db.execute<Record<keyof UserStats, string>>(sql`
    SELECT sum(total) AS "total", sum(verified) AS "verifiedEmailAccounts", sum(wallet) AS "walletUsers",
           sum(anonymous) AS "anonymousUsers", sum(disabled) AS "disabledAccounts", sum(admin) AS "adminUsers",
           sum(have_currency) AS "haveCurrency"
    FROM user_stats_daily WHERE ${sql.join(conds, sql` AND `)}`);
  return toStats(res.rows[0]);
}

const DAY_MS = 86_400_000;
const ts = (d: Date) => sql`${d.toISOString()}::timestamptz`;

/**
 * SPEC §3 user stats over the accounts created between `start` and `end` (every account without them;
 * a date-only `end` covers that whole UTC day, as `withinDates`). Whole UTC days come from the kept
 * per-day counts (`user_stats_daily`: at most 8 rows a day, whatever the number of members); a bound
 * inside a day adds the exact count of that part of the day from `users` (`countUserStats`, bounded by
 * `users_created_at` to less than a day at each end).
 */
export async function findUserStats(db: DbOrTx, start?: string, end?: string): Promise<UserStats> {
  const lo = start ? new Date(start) : null;
  const hi = end ? new Date(endOfDay(end)) : null; // inclusive
  // The whole days: [firstDay, endDay) as midnights.
  const firstDay = lo === null ? null : new Date(Math.ceil(lo.getTime() / DAY_MS) * DAY_MS);
  const hiWholeDay = hi !== null && (hi.getTime() + 1) % DAY_MS === 0;
  const endDay = hi === null ? null : new Date(Math.floor((hi.getTime() + (hiWholeDay ? 1 : 0)) / DAY_MS) * DAY_MS);
  if (lo && hi && lo > hi) return toStats(undefined);
  if (firstDay && endDay && firstDay >= endDay) {
    // Within a day or two, no whole day between: the exact count.
    return countUserStats(db, withinDates(sql`u.created_at`, start, end));
  }
  const parts = [keptUserStats(db, firstDay, endDay)];
  if (lo && firstDay && lo < firstDay) {
    parts.push(countUserStats(db, [sql`u.created_at >= ${ts(lo)}`, sql`u.created_at < ${ts(firstDay)}`]));
  }
  if (hi && endDay && !hiWholeDay) {
    parts.push(countUserStats(db, [sql`u.created_at >= ${ts(endDay)}`, sql`u.created_at <= ${ts(hi)}`]));
  }
  return (await Promise.all(parts)).reduce(addStats);
}

/**
 * Builds the kept user stats from scratch (issue 19 §2): each member's count of positive balances
 * (`user_holdings`) and the per-day counts (`user_stats_daily`), from `users` and `balances`. Holds a
 * SHARE lock on both tables meanwhile, so no write slips between the count and the triggers that keep it
 * (writers wait; seconds at a million members). Run after a bulk load that bypassed the triggers (the
 * scale seed) and whenever the state is missing (`ensureUserStats`).
 */
export async function rebuildUserStats(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`LOCK TABLE users, balances IN SHARE MODE`);
    await tx.execute(sql`TRUNCATE user_holdings, user_stats_daily`);
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
  });
}

/**
 * Rebuilds the kept user stats when they are missing or do not add up: their total is not the number of
 * members, their holders not the members counted holding, or those counts not the number of positive
 * balances (a bulk load that bypassed the triggers, e.g. with `session_replication_role = replica`, or
 * tables emptied by hand). One statement, so one snapshot: writes committed meanwhile cannot make it
 * differ. Run at start: an index-only count of users and one pass over balances (1-2 s at a million
 * members and a few million balances). Returns whether it rebuilt.
 */
export async function ensureUserStats(db: Db): Promise<boolean> {
  const res = await db.execute<{ stale: boolean }>(sql`
    SELECT (SELECT coalesce(sum(total), 0) FROM user_stats_daily) <> (SELECT count(*) FROM users)
        OR (SELECT coalesce(sum(have_currency), 0) FROM user_stats_daily)
           <> (SELECT count(*) FROM user_holdings WHERE positive > 0)
        OR (SELECT coalesce(sum(positive), 0) FROM user_holdings)
           <> (SELECT count(*) FROM balances WHERE amount > 0) AS stale`);
  if (!res.rows[0]?.stale) return false;
  await rebuildUserStats(db);
  return true;
}

/**
 * Locks the active admins' rows (in id order) for the rest of the transaction and returns their ids, so
 * two admins demoting each other at once cannot leave the console without an active admin.
 */
export async function lockActiveAdmins(tx: DbOrTx): Promise<string[]> {
  const res = await tx.execute<{ id: string }>(
    sql`SELECT id FROM users WHERE role = 'admin' AND is_active ORDER BY id FOR UPDATE`,
  );
  return res.rows.map((r) => r.id);
}
