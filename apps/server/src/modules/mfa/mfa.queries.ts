/**
 * SQL of the second factors (DESIGN §11.1): TOTP secrets, recovery codes, sign-in challenges.
 * Reads other modules' tables: `users` (the accounts module's): the nickname an authenticator app shows beside the code.
 */
import { and, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { mfaTokens, userRecoveryCodes, users, userTotp } from '../../db/schema/index.ts';

/** A member's TOTP row: its sealed secret, whether it is on, and the last accepted time step. */
export interface TotpRow {
  secretSealed: string;
  enabled: boolean;
  lastStep: number | null;
}

/** A member's TOTP row, or null when they never set one up (or turned it off). */
export async function findTotp(db: DbOrTx, userId: string): Promise<TotpRow | null> {
  const [row] = await db
    .select({ secretSealed: userTotp.secretSealed, enabledAt: userTotp.enabledAt, lastStep: userTotp.lastStep })
    .from(userTotp)
    .where(eq(userTotp.userId, userId))
    .limit(1);
  return row ? { secretSealed: row.secretSealed, enabled: row.enabledAt !== null, lastStep: row.lastStep } : null;
}

/** Whether a member has TOTP on. */
export async function isTotpOn(db: DbOrTx, userId: string): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(userTotp)
    .where(and(eq(userTotp.userId, userId), isNotNull(userTotp.enabledAt)))
    .limit(1);
  return row !== undefined;
}

/** A member's nickname (the label in the authenticator app), or null when the account does not exist. */
export async function findNickname(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ nickname: users.nickname }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.nickname ?? null;
}

/** Sets a new pending secret for a member (replacing a pending one), unless TOTP is on. False when it is on. */
export async function putPendingTotp(db: DbOrTx, userId: string, secretSealed: string): Promise<boolean> {
  const rows = await db
    .insert(userTotp)
    .values({ userId, secretSealed })
    .onConflictDoUpdate({
      target: userTotp.userId,
      set: { secretSealed, lastStep: null, createdAt: sql`now()` },
      setWhere: isNull(userTotp.enabledAt),
    })
    .returning({ userId: userTotp.userId });
  return rows.length === 1;
}

/**
 * Accepts time step `step` for a member's TOTP: only when it is later than the last accepted one, in one
 * statement, so of two requests with one code only one passes. True when accepted.
 */
export async function acceptStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(userTotp)
    .set({ lastStep: step })
    .where(and(eq(userTotp.userId, userId), or(isNull(userTotp.lastStep), lt(userTotp.lastStep, step))))
    .returning({ userId: userTotp.userId });
  return rows.length === 1;
}

/** Turns a member's pending TOTP on. */
export async function enableTotp(tx: Tx, userId: string): Promise<void> {
  await tx.update(userTotp).set({ enabledAt: sql`now()` }).where(eq(userTotp.userId, userId));
}

/** Removes a member's TOTP and recovery codes. */
export async function deleteTotp(tx: Tx, userId: string): Promise<void> {
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await tx.delete(userTotp).where(eq(userTotp.userId, userId));
}

/** Replaces a member's recovery codes with `hashes`. */
export async function replaceRecoveryCodes(tx: Tx, userId: string, hashes: readonly string[]): Promise<void> {
  await tx.delete(userRecoveryCodes).where(eq(userRecoveryCodes.userId, userId));
  await tx.insert(userRecoveryCodes).values(hashes.map((codeHash) => ({ codeHash, userId })));
}

/** Uses a member's unused recovery code by its hash, in one statement. True when it was there and unused. */
export async function useRecoveryCode(db: DbOrTx, userId: string, codeHash: string): Promise<boolean> {
  const rows = await db
    .update(userRecoveryCodes)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(userRecoveryCodes.codeHash, codeHash),
        eq(userRecoveryCodes.userId, userId),
        isNull(userRecoveryCodes.usedAt),
      ),
    )
    .returning({ codeHash: userRecoveryCodes.codeHash });
  return rows.length === 1;
}

/** A sign-in challenge as `login/mfa` reads it. */
export interface MfaTokenRow {
  userId: string;
  cAppAuthRequest: string | null;
  loginType: number;
  failures: number;
  expiresAt: Date;
  usedAt: Date | null;
}

/** Stores a sign-in challenge. */
export async function insertMfaToken(
  db: DbOrTx,
  row: { tokenHash: string; userId: string; cAppAuthRequest: string | null; loginType: number; expiresAt: Date },
): Promise<void> {
  await db.insert(mfaTokens).values(row);
}

/** A sign-in challenge by its hash, locked until `tx` ends (its attempts run one at a time), or null. */
export async function lockMfaToken(tx: Tx, tokenHash: string): Promise<MfaTokenRow | null> {
  const [row] = await tx
    .select({
      userId: mfaTokens.userId,
      cAppAuthRequest: mfaTokens.cAppAuthRequest,
      loginType: mfaTokens.loginType,
      failures: mfaTokens.failures,
      expiresAt: mfaTokens.expiresAt,
      usedAt: mfaTokens.usedAt,
    })
    .from(mfaTokens)
    .where(eq(mfaTokens.tokenHash, tokenHash))
    .for('update');
  return row ?? null;
}

/** Marks a challenge used. */
export async function useMfaToken(tx: Tx, tokenHash: string): Promise<void> {
  await tx.update(mfaTokens).set({ usedAt: sql`now()` }).where(eq(mfaTokens.tokenHash, tokenHash));
}

/** Counts a wrong code against a challenge. */
export async function failMfaToken(tx: Tx, tokenHash: string): Promise<void> {
  await tx
    .update(mfaTokens)
    .set({ failures: sql`${mfaTokens.failures} + 1` })
    .where(eq(mfaTokens.tokenHash, tokenHash));
}

/** Deletes the challenges that expired before `before`. */
export async function pruneMfaTokens(db: DbOrTx, before: Date): Promise<void> {
  await db.delete(mfaTokens).where(lt(mfaTokens.expiresAt, before));
}
