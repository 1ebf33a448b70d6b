/**
 * SQL of the admin side of accounts (DESIGN §8): the user list (paged by the kept per-day counts of the
 * reports module's user stats, reports/user-stats.queries.ts) and the admin count.
 * Reads other modules' tables: `users` (the accounts module's: the rows the list pages through), `balances` (the ledger's: the user list shows a member's holdings, joined in the page's one statement) and `user_stats_daily` (the reports module's: the kept per-day counts total every account and place a deep page).
 */
import { COUNT_CAP, type GetUsersQuery } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed, queryOnce, queryPlanned } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import { type CappedTotal, cappedTotal, capTotal, pageSize, readWholeListPage } from '../../db/paging.ts';
import { pgArray } from '../../db/pg-array.ts';
import type { UserRow } from '../accounts/accounts.public.ts';
import { HAS_CURRENCY } from '../ledger/ledger.public.ts';
import {
  emailFilter,
  nicknameFilter,
  nicknamePrefixFilter,
  nicknameSample,
  prefixMatchIds,
} from './admin-search.queries.ts';

/** A user-list row: the account's columns and whether it holds a positive balance of any currency. */
export type AdminUserRecord = Omit<UserRow, 'passwordHash' | 'isSystem'> & {
  hasCurrency: boolean;
};

/** The SQL roles `getUsers` may filter by: a literal in the query, so a partial index's predicate applies. */
const ROLE_LITERAL: Record<string, string> = { admin: "'admin'", user: "'user'", creator: "'creator'" };

/**
 * The conditions of a user list (none: every account), each filter in the form its index serves:
 * - nickname / e-mail, part of a word in any case: `LIKE '%x%'` on `lower(nickname)` / `email` (kept lower
 *   case), served by the pg_trgm GIN indexes `users_nickname_trgm` / `users_email_trgm` (3 characters or more;
 *   `nicknameFilter`, `emailFilter`: the index is asked for a selective part, the whole is checked after);
 * - `isActive = false`, `isWalletOnly`, `isAnonymous`, a role other than `user`: the partial indexes
 *   `users_inactive_created`, `users_wallet_only_created`, `users_anonymous_created`, `users_staff_created`,
 *   each in the list's order (flags and roles are written as literals so the planner matches the predicates);
 * - the other flags and `role = user` (most members): `users_created_at`, whose INCLUDE columns answer
 *   them without reading the table; the date range: the same index's `created_at` bounds.
 */
export function userConditions(f: Omit<GetUsersQuery, 'paging'>, nicknames: readonly string[]): SQL[] {
  const where: SQL[] = [];
  const flag = (column: string, value: boolean | undefined) => {
    if (value !== undefined) where.push(sql.raw(value ? `u.${column}` : `NOT u.${column}`));
  };
  if (f.nickname) where.push(nicknameFilter(f.nickname, nicknames));
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
  return where;
}

/** From this offset on, a page of every account is found by the kept per-day counts (`pageIdsByDay`). */
export const DAY_STEP_MIN_OFFSET = 1_000;

/**
 * The ids of a page of every account (no filter), `limit` rows from row `offset` in the list's order,
 * without walking `offset` index entries. The kept per-day counts (`user_stats_daily`, kept
 * by the triggers of migration 0017 in the same transaction as the rows, so one snapshot sees both agree)
 * give the UTC day the row at `offset` was created in and the number of accounts created after that day;
 * the index `users_created_at` is then walked backward from the end of that day, skipping only the rest
 * (at most a day of registrations). A page past the end
 * finds no day and no rows. Equal to `OFFSET offset` over the whole list (tested in users.admin.list.test.ts).
 */
function pageIdsByDay(limit: SQL | number, offset: SQL | number): SQL {
  return sql`
    WITH days AS MATERIALIZED (
      SELECT day, n, (sum(n) OVER (ORDER BY day DESC) - n)::bigint AS newer
      FROM (SELECT day, sum(total)::bigint AS n FROM user_stats_daily GROUP BY day) d
    ), target AS MATERIALIZED (
      SELECT day, newer FROM days WHERE newer + n > ${offset}::bigint ORDER BY day DESC LIMIT 1
    )
    SELECT u.id FROM users u
    WHERE u.created_at < ((SELECT day FROM target) + 1)::timestamp AT TIME ZONE 'UTC'
    ORDER BY u.created_at DESC, u.id DESC
    LIMIT ${limit} OFFSET (SELECT ${offset}::bigint - newer FROM target)`;
}

/**
 * The ids of a page of every account (no filter): `limit` rows from row `offset` in the list's order, read
 * from `users_created_at`, or placed by the kept per-day counts from `DAY_STEP_MIN_OFFSET` on
 * (`pageIdsByDay`). `from` is how the statement gives the offset: `offset` as a parameter, or as text.
 */
function everyonePageIds(limit: SQL | number, offset: number, from: SQL | number = offset): SQL {
  return offset >= DAY_STEP_MIN_OFFSET
    ? pageIdsByDay(limit, from)
    : sql`SELECT u.id FROM users u ORDER BY u.created_at DESC, u.id DESC LIMIT ${limit} OFFSET ${from}`;
}

/**
 * The total of every account (no filter) from the kept per-day counts, bounded as `cappedTotal` bounds it
 * (`offset + COUNT_CAP`, `totalCapped` past it), so the answer is the one a count would give: one row per
 * day and writer slot summed instead of up to `offset + COUNT_CAP` index entries.
 */
async function keptTotal(db: DbOrTx, offset: number): Promise<CappedTotal> {
  const [row] = await queryNamed<{ n: string | null }>(
    db,
    'users_kept_total',
    sql`SELECT sum(total) AS n FROM user_stats_daily`,
  );
  return capTotal(Number(row?.n ?? 0), offset);
}

/**
 * A search's total and page from one pass over its matches (`window`: the page's rows among the matches
 * `ranked` leaves out, the nicknames a nickname search ranks first, `prefixMatchIds`): the ids and creation times of up to
 * `offset + COUNT_CAP + 1` matches, in the order the trigram index finds them (the plan `cappedTotal` has),
 * are counted (`total`, `totalCapped` as `cappedTotal` gives them) and, when they are all the matches,
 * sorted for the page (`ids`, in the list's order: a top-N sort of at most that many rows). So the index is
 * read once, and the page never walks the list's order past rows that do not match (a search matching only
 * old members read most of users_created_at before it had a page). `ids` is null when more match than that:
 * the page is then found in the list's order (`pageIds`), which matches that common reach soon.
 */
async function searchMatches(
  db: DbOrTx,
  from: SQL,
  offset: number,
  window: { offset: number; limit: number },
  ranked: SQL | null,
): Promise<{ ids: string[] | null } & CappedTotal> {
  const bound = offset + COUNT_CAP;
  const res = await db.execute<{ n: string; ids: string[] | null }>(sql`
    WITH m AS MATERIALIZED (SELECT u.id, u.created_at, ${ranked ?? sql`false`} AS ranked FROM ${from} LIMIT ${bound + 1}),
         c AS MATERIALIZED (SELECT count(*) AS n FROM m)
    SELECT c.n, CASE WHEN c.n <= ${bound}
                     THEN ARRAY(SELECT id::text FROM m WHERE NOT ranked ORDER BY created_at DESC, id DESC
                                LIMIT ${window.limit} OFFSET ${window.offset})
                END AS ids
    FROM c`);
  const count = capTotal(Number(res.rows[0]?.n ?? 0), offset);
  return { ...count, ids: count.totalCapped ? null : (res.rows[0]?.ids ?? []) };
}

/**
 * The parts of a user-list query (exported for the tests that check each filter's plan): `pageIds`, the
 * ids of the page in the list's order; `from`, what `cappedTotal` counts; `offset`, the page's first row;
 * `others`, the conditions but the nickname's;
 * `everyone`, no filter (the kept per-day counts then answer the total and deep pages); `search`, a
 * nickname or e-mail filter (`searchMatches` then answers both). `nicknames`: the
 * planner's sample of nicknames (`nicknameSample`), which parts of a nickname search the index is asked for.
 */
export function userListSql(
  f: GetUsersQuery,
  nicknames: readonly string[] = [],
): { pageIds: SQL; from: SQL; others: SQL; offset: number; everyone: boolean; search: boolean } {
  const where = userConditions(f, nicknames);
  const others = sql.join([sql`true`, ...userConditions({ ...f, nickname: undefined }, [])], sql` AND `);
  const cond = sql.join([sql`true`, ...where], sql` AND `);
  const { limit, page } = f.paging;
  const offset = (page - 1) * limit;
  const everyone = where.length === 0;
  return {
    pageIds: everyone
      ? everyonePageIds(limit, offset)
      : sql`SELECT u.id FROM users u WHERE ${cond} ORDER BY u.created_at DESC, u.id DESC LIMIT ${limit} OFFSET ${offset}`,
    from: sql`users u WHERE ${cond}`,
    others,
    offset,
    everyone,
    search: Boolean(f.nickname || f.email),
  };
}

/**
 * A page of accounts matching `f`, newest first (created_at DESC, id DESC), with the total of matches
 * counted up to `COUNT_CAP` rows past the page (`cappedTotal`; `totalCapped` when more match). A nickname
 * search ranks first the nicknames that start with the term, the exact one (any case) leading, in
 * `users_nickname_prefix`'s order (`prefixMatchIds`), then the other matches newest first.
 *
 * The page is found on the index alone (ids only, in the index's order, OFFSET skipping index entries
 * without reading the table), then only its rows are read: a deep filtered page costs its offset in index
 * entries, not in table rows. Keyset paging would need the previous page's last row, which SPEC's `page`
 * does not carry, so this is OFFSET over an index-only scan. Without a filter, the kept per-day counts give
 * the total and, from `DAY_STEP_MIN_OFFSET` on, the day a page starts in (`pageIdsByDay`, `keptTotal`): a
 * page half way through a million members and its total read a few rows instead of half the index.
 */
export async function findUsers(
  db: DbOrTx,
  f: GetUsersQuery,
): Promise<{
  users: Array<AdminUserRecord & { referrerNickname: string | null }>;
  total: number;
  totalCapped: boolean;
}> {
  const q = userListSql(f, f.nickname ? await nicknameSample(db) : []);
  // The page's statement is prepared per connection and shape (`queryPlanned`), so PostgreSQL keeps its
  // generic plan where that is no worse: a search's page by its ids, planned on every call, spent as long
  // planning as running. Not a search's page in the list's order,
  // whose best plan depends on how many match (a custom plan knows).
  const readRows = (pageIds: SQL, planned: boolean, on: DbOrTx = db, order = sql`u.created_at DESC, u.id DESC`) =>
    (planned ? queryPlanned : queryOnce)<{
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
    }>(
      on,
      sql`
      WITH page AS MATERIALIZED (${pageIds})
      SELECT u.id, u.nickname, u.email, u.role, u.primary_wallet, u.is_active, u.is_wallet_only,
             u.is_email_verified, u.is_anonymous, u.referrer_id, r.nickname AS referrer_nickname, u.fame,
             u.token_version, u.created_at, u.updated_at, ${HAS_CURRENCY} AS has_currency
      FROM page JOIN users u ON u.id = page.id LEFT JOIN users r ON r.id = u.referrer_id
      ORDER BY ${order}`,
    );
  let rows: Awaited<ReturnType<typeof readRows>>;
  let count: CappedTotal;
  if (q.search) {
    // A nickname search: first the nicknames that start with it (the exact one first), then the other
    // matches in the list's order, the page taking from the first as far as they reach.
    const { limit } = f.paging;
    const reach = f.nickname ? await prefixMatchIds(db, f.nickname, q.others, q.offset + limit) : [];
    const ranked = reach.slice(q.offset);
    const window = { offset: Math.max(0, q.offset - reach.length), limit: limit - ranked.length };
    const rankedBy = f.nickname ? nicknamePrefixFilter(f.nickname) : null;
    const found = await searchMatches(db, q.from, q.offset, window, rankedBy);
    count = found;
    const rest =
      found.ids ??
      (window.limit === 0
        ? []
        : (
            await queryOnce<{ id: string }>(
              db,
              sql`SELECT u.id FROM ${q.from} ${rankedBy ? sql`AND NOT (${rankedBy})` : sql``}
                  ORDER BY u.created_at DESC, u.id DESC LIMIT ${window.limit} OFFSET ${window.offset}`,
            )
          ).map((r) => r.id));
    rows = await readRows(
      sql`SELECT id, n FROM unnest(${pgArray([...ranked, ...rest])}::bpchar[]) WITH ORDINALITY AS p(id, n)`,
      true,
      db,
      sql`page.n`,
    );
  } else {
    // Every account: the page with its generic plan (readWholeListPage), planned on every call before,
    // at a cost near the work's own on any page.
    const size = pageSize(f.paging.limit);
    [rows, count] = await Promise.all([
      q.everyone
        ? readWholeListPage(db, q.offset, (on, from) => readRows(everyonePageIds(size, q.offset, from), true, on))
        : readRows(q.pageIds, true),
      q.everyone ? keptTotal(db, q.offset) : cappedTotal(db, q.from, q.offset),
    ]);
  }
  return {
    ...count,
    users: rows.map((r) => ({
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
