/** SQL of the admin side of accounts (DESIGN §8): the user list, the user stats and the admin count. */
import type { GetUsersQuery, UserStats } from '@starlight/shared';
import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { withinDates } from '../../db/date-range.ts';
import type { UserRow } from './users.queries.ts';

/** A user-list row: the account's columns and whether it holds a positive balance of any currency. */
export type AdminUserRecord = Omit<UserRow, 'passwordHash' | 'apiKeyHash' | 'apiKeySealed' | 'isSystem'> & {
  hasCurrency: boolean;
};

/** `EXISTS` a positive balance of the account `u`. */
const HAS_CURRENCY = sql`EXISTS (SELECT 1 FROM balances b WHERE b.user_id = u.id AND b.amount > 0)`;

/** A page of accounts matching `f`, newest first, with the total count of matches. */
export async function findUsers(
  db: DbOrTx,
  f: GetUsersQuery,
): Promise<{ users: Array<AdminUserRecord & { referrerNickname: string | null }>; total: number }> {
  const where: SQL[] = [sql`true`];
  if (f.nickname) where.push(sql`strpos(lower(u.nickname), lower(${f.nickname})) > 0`);
  if (f.email) where.push(sql`strpos(u.email, lower(${f.email})) > 0`);
  if (f.role) where.push(sql`u.role = ${f.role}`);
  if (f.isActive !== undefined) where.push(sql`u.is_active = ${f.isActive}`);
  if (f.isWalletOnly !== undefined) where.push(sql`u.is_wallet_only = ${f.isWalletOnly}`);
  if (f.isEmailVerified !== undefined) where.push(sql`u.is_email_verified = ${f.isEmailVerified}`);
  if (f.isAnonymous !== undefined) where.push(sql`u.is_anonymous = ${f.isAnonymous}`);
  where.push(...withinDates(sql`u.created_at`, f.createdAfter, f.createdBefore));
  const cond = sql.join(where, sql` AND `);
  const { limit, page } = f.paging;
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
      SELECT u.id, u.nickname, u.email, u.role, u.primary_wallet, u.is_active, u.is_wallet_only,
             u.is_email_verified, u.is_anonymous, u.referrer_id, r.nickname AS referrer_nickname, u.fame,
             u.token_version, u.created_at, u.updated_at, ${HAS_CURRENCY} AS has_currency
      FROM users u LEFT JOIN users r ON r.id = u.referrer_id
      WHERE ${cond}
      ORDER BY u.created_at DESC, u.id DESC
      LIMIT ${limit} OFFSET ${(page - 1) * limit}`),
    db.execute<{ n: string }>(sql`SELECT count(*) AS n FROM users u WHERE ${cond}`),
  ]);
  return {
    total: Number(count.rows[0]?.n ?? 0),
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

/** SPEC §3 user stats over the accounts created between `start` and `end` (every account without them). */
export async function findUserStats(db: DbOrTx, start?: string, end?: string): Promise<UserStats> {
  const cond = sql.join([sql`true`, ...withinDates(sql`u.created_at`, start, end)], sql` AND `);
  const res = await db.execute<Record<keyof UserStats, string>>(sql`
    SELECT count(*) AS "total",
           count(*) FILTER (WHERE u.is_email_verified) AS "verifiedEmailAccounts",
           count(*) FILTER (WHERE u.primary_wallet IS NOT NULL) AS "walletUsers",
           count(*) FILTER (WHERE u.is_anonymous) AS "anonymousUsers",
           count(*) FILTER (WHERE NOT u.is_active) AS "disabledAccounts",
           count(*) FILTER (WHERE u.role = 'admin') AS "adminUsers",
           count(*) FILTER (WHERE ${HAS_CURRENCY}) AS "haveCurrency"
    FROM users u WHERE ${cond}`);
  const row = res.rows[0];
  const n = (k: keyof UserStats) => Number(row?.[k] ?? 0);
  return {
    total: n('total'),
    verifiedEmailAccounts: n('verifiedEmailAccounts'),
    walletUsers: n('walletUsers'),
    anonymousUsers: n('anonymousUsers'),
    disabledAccounts: n('disabledAccounts'),
    adminUsers: n('adminUsers'),
    haveCurrency: n('haveCurrency'),
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
