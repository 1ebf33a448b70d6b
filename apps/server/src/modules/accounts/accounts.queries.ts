/**
 * SQL of the accounts module: the account rows every module looks members up in (by id or nickname, as
 * the wire shows them with their balances), new accounts, and the access log a sign-in writes.
 * Reads other modules' tables: `balances` (the ledger's) and `currencies` (the bank's): a member's balances as the wire shows them, in the account's one read;
 * `user_totp` (the mfa module's) and `user_passkeys` (the passkeys module's): whether the member has TOTP on and
 * how many passkeys, `User.mfa` (DESIGN §11.1).
 */
import { formatAtPrecision, fromNumeric, type User as UserDto, type UserMfa } from '@starlight/shared';
import { eq, type SQL, sql } from 'drizzle-orm';
import { type Db, type DbOrTx, queryNamed } from '../../db/client.ts';
import { accessLogs, users } from '../../db/schema/index.ts';
import { inTransaction } from '../../db/transaction.ts';
import { newObjectId } from '../../lib/ids.ts';

export type UserRow = typeof users.$inferSelect;

/** A balance as read for the wire: `amount` as NUMERIC text, `precision` its currency's (0..9). */
export interface BalanceText {
  currencyId: number;
  amount: string;
  precision: number;
}

/** Finds an account by nickname (case-insensitive) or null. */
export async function findUserByNickname(db: DbOrTx, nickname: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(sql`lower(${users.nickname}) = lower(${nickname})`).limit(1);
  return row ?? null;
}

/** Finds an account by id or null. */
export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row ?? null;
}

/** Inserts a new account and returns it. */
export async function insertUser(
  db: DbOrTx,
  values: Omit<typeof users.$inferInsert, 'id'> & { id?: string },
): Promise<UserRow> {
  const [row] = await db
    .insert(users)
    .values({ id: newObjectId(), ...values })
    .returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Writes an access log row (SPEC §3: login type 1-4, IP). */
export async function insertAccessLog(db: DbOrTx, userId: string, address: string, loginType: number): Promise<void> {
  await db.insert(accessLogs).values({ id: newObjectId(), userId, address, loginType });
}

/**
 * The account as the wire sees it (DESIGN §3 `User`), with its non-zero balances and its referrer's
 * nickname, or null when there is no such account. One statement, planned once per connection: it is
 * read on every page load (`/api/user/me`), where three round trips cost more than the reading.
 */
/**
 * `User.mfa` of the account whose id is the SQL `userId` (DESIGN §11.1), as a JSON column: whether TOTP is
 * on, and how many passkeys it has.
 */
export function userMfaColumn(userId: SQL): SQL {
  return sql`json_build_object(
    'totp', EXISTS (SELECT 1 FROM user_totp t WHERE t.user_id = ${userId} AND t.enabled_at IS NOT NULL),
    'passkeys', (SELECT count(*)::int FROM user_passkeys p WHERE p.user_id = ${userId}))`;
}

export async function loadUserDto(db: DbOrTx, id: string): Promise<UserDto | null> {
  const [row] = await queryNamed<
    Omit<Parameters<typeof toUserDto>[0], 'createdAt' | 'updatedAt'> & {
      createdAt: string | Date;
      updatedAt: string | Date;
      referrer: string | null;
      balances: BalanceText[] | null;
      mfa: UserMfa;
    }
  >(
    db,
    'user_dto',
    sql`SELECT u.id, u.nickname, u.email, u.role, u.primary_wallet AS "primaryWallet", u.is_active AS "isActive",
               u.is_wallet_only AS "isWalletOnly", u.is_email_verified AS "isEmailVerified",
               u.is_anonymous AS "isAnonymous", u.fame, u.created_at AS "createdAt", u.updated_at AS "updatedAt",
               r.nickname AS referrer,
               (SELECT json_agg(json_build_object('currencyId', b.currency_id, 'amount', b.amount::text,
                                                  'precision', c.precision) ORDER BY b.currency_id)
                  FROM balances b JOIN currencies c ON c.currency_id = b.currency_id
                 WHERE b.user_id = u.id AND b.amount > 0) AS balances,
               ${userMfaColumn(sql`u.id`)} AS mfa
        FROM users u LEFT JOIN users r ON r.id = u.referrer_id
        WHERE u.id = ${id}`,
  );
  if (!row) return null;
  // Timestamps come back as text from the embedded database's plain queries.
  const at = { createdAt: new Date(row.createdAt), updatedAt: new Date(row.updatedAt) };
  return toUserDto({ ...row, ...at }, row.balances ?? [], row.referrer, row.mfa);
}

/**
 * Maps a row to DESIGN §3 `User`, amounts at their currency's precision, with its second factors
 * (`userMfaColumn`); never the password hash.
 */
export function toUserDto(
  row: Omit<UserRow, 'passwordHash' | 'referrerId' | 'tokenVersion' | 'isSystem'>,
  bals: readonly BalanceText[],
  referrerNickname: string | null,
  mfa: UserMfa,
): UserDto {
  return {
    _id: row.id,
    nickname: row.nickname,
    email: row.email,
    role: row.role,
    primaryWallet: row.primaryWallet,
    isActive: row.isActive,
    isWalletOnly: row.isWalletOnly,
    isEmailVerified: row.isEmailVerified,
    isAnonymous: row.isAnonymous,
    referrer: referrerNickname,
    fame: row.fame,
    balances: bals.map((b) => ({
      currencyId: b.currencyId,
      amount: formatAtPrecision(fromNumeric(String(b.amount)), b.precision),
    })),
    mfa,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Counts every member's access log rows again into `access_log_counts`, under a SHARE lock on
 * `access_logs` so no sign-in slips between the count and the trigger that keeps it. Run after a bulk
 * load that bypassed the triggers (the scale seed). Throws what PostgreSQL throws.
 */
export async function rebuildAccessLogCounts(db: Db): Promise<void> {
  await inTransaction(db, async (tx) => {
    await tx.execute(sql`LOCK TABLE access_logs IN SHARE MODE`);
    await tx.execute(sql`TRUNCATE access_log_counts`);
    await tx.execute(
      sql`INSERT INTO access_log_counts (user_id, n) SELECT user_id, count(*) FROM access_logs GROUP BY user_id`,
    );
  });
}
