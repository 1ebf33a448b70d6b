/**
 * SQL of the user list's CSV export (DESIGN §11.6): the accounts matching the list's filters
 * (`userConditions`, each filter in the form its index serves) in keyset pages, newest first (created_at
 * DESC, id DESC), each page the rows before the last one's `(created_at, id)`: no OFFSET, however deep.
 * Reads other modules' tables: `users` (the accounts module's: the rows exported) and `balances` (the ledger's: whether each account holds any currency).
 */
import type { GetUsersQuery } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { type DbOrTx, queryPlanned } from '../../db/client.ts';
import { pageSize } from '../../db/paging.ts';
import { HAS_CURRENCY } from '../ledger/ledger.public.ts';
import { userConditions } from './admin.queries.ts';
import { nicknameSample } from './admin-search.queries.ts';

/** An account as the CSV shows it; `at` is its exact creation time as PostgreSQL's text (the cursor). */
export interface ExportedUser {
  id: string;
  at: string;
  createdAt: string;
  nickname: string;
  email: string | null;
  role: string;
  primaryWallet: string | null;
  isActive: boolean;
  isWalletOnly: boolean;
  isEmailVerified: boolean;
  isAnonymous: boolean;
  referrer: string | null;
  fame: number;
  hasCurrency: boolean;
}

/** Up to `limit` accounts matching `f` after the account `after` (null: from the newest), newest first. */
export async function findUsersAfter(
  db: DbOrTx,
  f: Omit<GetUsersQuery, 'paging'>,
  after: Pick<ExportedUser, 'id' | 'at'> | null,
  limit: number,
): Promise<ExportedUser[]> {
  const where = [sql`true`, ...userConditions(f, f.nickname ? await nicknameSample(db) : [])];
  if (after) where.push(sql`(u.created_at, u.id) < (${after.at}::timestamptz, ${after.id}::bpchar)`);
  const rows = await queryPlanned<{
    id: string;
    at: string;
    created_at: string | Date;
    nickname: string;
    email: string | null;
    role: string;
    primary_wallet: string | null;
    is_active: boolean;
    is_wallet_only: boolean;
    is_email_verified: boolean;
    is_anonymous: boolean;
    referrer: string | null;
    fame: number;
    has_currency: boolean;
  }>(
    db,
    sql`
    WITH page AS MATERIALIZED (
      SELECT u.id FROM users u WHERE ${sql.join(where, sql` AND `)}
      ORDER BY u.created_at DESC, u.id DESC LIMIT ${pageSize(limit)})
    SELECT u.id, u.created_at::text AS at, u.created_at, u.nickname, u.email, u.role, u.primary_wallet,
           u.is_active, u.is_wallet_only, u.is_email_verified, u.is_anonymous, r.nickname AS referrer, u.fame,
           ${HAS_CURRENCY} AS has_currency
    FROM page JOIN users u ON u.id = page.id LEFT JOIN users r ON r.id = u.referrer_id
    ORDER BY u.created_at DESC, u.id DESC`,
  );
  return rows.map((r) => ({
    id: r.id,
    at: r.at,
    createdAt: new Date(r.created_at).toISOString(),
    nickname: r.nickname,
    email: r.email,
    role: r.role,
    primaryWallet: r.primary_wallet,
    isActive: r.is_active,
    isWalletOnly: r.is_wallet_only,
    isEmailVerified: r.is_email_verified,
    isAnonymous: r.is_anonymous,
    referrer: r.referrer,
    fame: Number(r.fame),
    hasCurrency: r.has_currency,
  }));
}
