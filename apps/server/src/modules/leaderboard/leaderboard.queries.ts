/**
 * SQL of the leaderboard (DESIGN §6): one currency's holders ranked, in one statement.
 * Reads other modules' tables: `balances` and `bank_transactions` (the ledger's: the job follows its rows and reads the holdings they changed) and `users` (names, privacy and activity of the members shown).
 */
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryNamed } from '../../db/client.ts';
import { pgArray } from '../../db/pg-array.ts';

/** A ranked row: `amount` as numeric text; `mine` marks the viewer's own row. */
export interface RankedRow extends Record<string, unknown> {
  rank: number;
  nickname: string;
  amount: string;
  mine: boolean;
}

/**
 * The holders of `currencyId` with a positive balance (active members only, no system account), ranked by amount, highest
 * first, ties by member id, as the rows ranked 1 to `top` and those within `spread` ranks of the viewer
 * (`viewerId`, null when signed out), in rank order. A private member (`isAnonymous`) is named
 * `Anonymous`, except in the viewer's own row. One statement over the currency's balance rows: the
 * `balances_currency` index finds them; there is deliberately no index on `amount`, which every posting
 * changes (it would end HOT updates of balances, DESIGN §9).
 */
export async function findRanked(
  db: DbOrTx,
  currencyId: number,
  viewerId: string | null,
  top: number,
  spread: number,
): Promise<RankedRow[]> {
  return queryNamed<RankedRow>(
    db,
    'leaderboard_ranked',
    sql`
    WITH ranked AS (
      SELECT b.user_id, b.amount, u.nickname, u.is_anonymous,
             row_number() OVER (ORDER BY b.amount DESC, b.user_id) AS rank
      FROM balances b JOIN users u ON u.id = b.user_id
      WHERE b.currency_id = ${currencyId}::int AND b.amount > 0 AND u.is_active AND NOT u.is_system),
    me AS (SELECT rank FROM ranked WHERE user_id = ${viewerId}::text)
    SELECT r.rank::int AS rank, r.amount::text AS amount, (r.user_id = ${viewerId}::text) IS TRUE AS mine,
           CASE WHEN r.is_anonymous AND (r.user_id = ${viewerId}::text) IS NOT TRUE THEN 'Anonymous' ELSE r.nickname END
             AS nickname
    FROM ranked r
    WHERE r.rank <= ${top}::int
       OR r.rank BETWEEN (SELECT rank FROM me) - ${spread}::int AND (SELECT rank FROM me) + ${spread}::int
    ORDER BY r.rank`,
  );
}

/** A holder's state as the kept ranking needs it: `amount` as numeric text; `ranked` when it belongs in it. */
export interface HolderRow extends Record<string, unknown> {
  currency_id: number;
  user_id: string;
  amount: string;
  ranked: boolean;
}

/**
 * Whether more than `limit` ledger rows were stamped in `[from, to)` (through `bank_tx_created`, reading at
 * most `limit + 1` of them): the kept ranking then rebuilds rather than following them one by one.
 */
export async function ledgerBacklogOver(db: DbOrTx, from: Date, to: Date, limit: number): Promise<boolean> {
  const rows = await queryNamed<{ n: string }>(
    db,
    'leaderboard_backlog',
    sql`SELECT count(*) AS n FROM (
          SELECT 1 FROM bank_transactions WHERE created_at >= ${from.toISOString()}::timestamptz
            AND created_at < ${to.toISOString()}::timestamptz LIMIT ${limit + 1}::int) t`,
  );
  return Number(rows[0]?.n ?? 0) > limit;
}

/**
 * The holders whose place may have changed since `from`, read as they are now: every (member, currency) a
 * ledger row stamped in `[from, to)` names as sender or recipient (`bank_tx_created`), and every balance of
 * a member whose row changed (`updated_at`) in `[usersFrom, to)` (`users_updated_at`: an admin deactivated
 * or reactivated them). `ranked` = positive balance of an active, non-system member (DESIGN §6).
 */
export async function changedHolders(db: DbOrTx, from: Date, usersFrom: Date, to: Date): Promise<HolderRow[]> {
  const f = from.toISOString();
  const uf = usersFrom.toISOString();
  const t = to.toISOString();
  return queryNamed<HolderRow>(
    db,
    'leaderboard_changed',
    sql`
    WITH tx AS (
      SELECT currency_id, sender_id, recipient_id FROM bank_transactions
      WHERE created_at >= ${f}::timestamptz AND created_at < ${t}::timestamptz),
    touched AS (
      SELECT currency_id, sender_id AS user_id FROM tx WHERE sender_id IS NOT NULL
      UNION
      SELECT currency_id, recipient_id FROM tx WHERE recipient_id IS NOT NULL
      UNION
      SELECT b.currency_id, b.user_id FROM users u JOIN balances b ON b.user_id = u.id
      WHERE u.updated_at >= ${uf}::timestamptz AND u.updated_at < ${t}::timestamptz)
    SELECT t.currency_id, t.user_id, coalesce(b.amount, 0)::text AS amount,
           coalesce(b.amount > 0 AND u.is_active AND NOT u.is_system, false) AS ranked
    FROM touched t
    LEFT JOIN balances b ON b.user_id = t.user_id AND b.currency_id = t.currency_id
    LEFT JOIN users u ON u.id = t.user_id`,
  );
}

/**
 * One page of the ranked holders of every currency (positive balance, active, not system), in the order
 * of `balances`' primary key after (`afterUser`, `afterCurrency`), at most `limit`: what a rebuild of the
 * Redis store reads. Each page is its own statement; a change made while it pages is stamped at or after
 * the rebuild's mark and the next tick reads it again.
 */
export async function rankedHoldersPage(
  db: DbOrTx,
  afterUser: string,
  afterCurrency: number,
  limit: number,
): Promise<HolderRow[]> {
  return queryNamed<HolderRow>(
    db,
    'leaderboard_rebuild_page',
    sql`
    SELECT b.currency_id, b.user_id, b.amount::text AS amount, true AS ranked
    FROM balances b JOIN users u ON u.id = b.user_id
    WHERE (b.user_id, b.currency_id) > (${afterUser}::bpchar, ${afterCurrency}::int)
      AND b.amount > 0 AND u.is_active AND NOT u.is_system
    ORDER BY b.user_id, b.currency_id
    LIMIT ${limit}::int`,
  );
}

/** A member as a leaderboard row shows them: nickname and whether they are private. */
export interface ShownMember extends Record<string, unknown> {
  id: string;
  nickname: string;
  is_anonymous: boolean;
}

/** The nickname and privacy of each of `ids` (the ~110 rows a leaderboard shows), by primary key. */
export async function findShownMembers(db: DbOrTx, ids: string[]): Promise<ShownMember[]> {
  if (ids.length === 0) return [];
  return queryNamed<ShownMember>(
    db,
    'leaderboard_shown',
    sql`SELECT id, nickname, is_anonymous FROM users WHERE id = ANY(${pgArray(ids)}::bpchar[])`,
  );
}

/**
 * The viewer's own place as of now (read-your-writes): their balance of `currencyId` and
 * whether it is ranked (positive, active, not a system account); null when the member does not exist.
 */
export async function findViewerHolding(
  db: DbOrTx,
  viewerId: string,
  currencyId: number,
): Promise<{ amount: string; ranked: boolean; nickname: string } | null> {
  const rows = await queryNamed<{ amount: string; ranked: boolean; nickname: string }>(
    db,
    'leaderboard_viewer',
    sql`SELECT coalesce(b.amount, 0)::text AS amount, coalesce(b.amount > 0 AND u.is_active AND NOT u.is_system, false) AS ranked,
               u.nickname
        FROM users u LEFT JOIN balances b ON b.user_id = u.id AND b.currency_id = ${currencyId}::int
        WHERE u.id = ${viewerId}::bpchar`,
  );
  return rows[0] ?? null;
}
