/**
 * SQL of API keys (DESIGN §8): a member's key hash and sealed key (the lookup by hash is in plugins/auth.ts).
 * Reads other modules' tables: `users` (the accounts module's: the key hash and sealed key are columns of the member's row).
 */
import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';

/** The sealed key of a member, or null when they have none. */
export async function findSealedApiKey(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db.select({ sealed: users.apiKeySealed }).from(users).where(eq(users.id, userId)).limit(1);
  return row?.sealed ?? null;
}

/** Replaces a member's key (both null: no key). The old hash stops matching in the same statement. */
export async function setApiKey(
  db: DbOrTx,
  userId: string,
  key: { hash: string; sealed: string } | null,
): Promise<void> {
  await db
    .update(users)
    .set({ apiKeyHash: key?.hash ?? null, apiKeySealed: key?.sealed ?? null })
    .where(eq(users.id, userId));
}

/**
 * Whether a member has a key now, read with the row locked until `tx` ends: a renewal in the same
 * transaction then knows whether it replaces a key, even when two renewals race.
 */
export async function hasApiKeyForUpdate(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx.select({ hash: users.apiKeyHash }).from(users).where(eq(users.id, userId)).for('update');
  return Boolean(row?.hash);
}
