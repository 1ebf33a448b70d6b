/**
 * SQL of API keys (DESIGN §8, §11.2): a member's keys, their one SPEC key (`Default`, the sealed one), and
 * revocation (the lookup of a key by its hash, per request, is in plugins/auth.ts).
 * Reads other modules' tables: `users` (the accounts module's: a member's row is locked while their keys
 * are counted, so two creations at once cannot pass the limit together).
 */
import { and, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { apiKeys, users } from '../../db/schema/index.ts';

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/** Locks the member's row until `tx` ends; false when there is no such member. */
export async function lockMember(tx: Tx, userId: string): Promise<boolean> {
  const rows = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  return rows.length > 0;
}

const live = (userId: string) => and(eq(apiKeys.userId, userId), isNull(apiKeys.revokedAt));

/** How many keys of a member are live: neither revoked nor expired. */
export async function countLiveKeys(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(apiKeys)
    .where(and(live(userId), sql`(${apiKeys.expiresAt} IS NULL OR ${apiKeys.expiresAt} > now())`));
  return row?.n ?? 0;
}

/** Stores a new key. */
export async function insertKey(db: DbOrTx, row: typeof apiKeys.$inferInsert): Promise<ApiKeyRow> {
  const [inserted] = await db.insert(apiKeys).values(row).returning();
  if (!inserted) throw new Error('API key not stored');
  return inserted;
}

/** A member's keys that are not revoked (expired ones included), newest first. */
export async function listKeys(db: DbOrTx, userId: string): Promise<ApiKeyRow[]> {
  return db.select().from(apiKeys).where(live(userId)).orderBy(desc(apiKeys.createdAt), desc(apiKeys.id));
}

/** Revokes one of a member's keys; false when they have no such unrevoked key. */
export async function revokeKey(db: DbOrTx, userId: string, id: string): Promise<ApiKeyRow | null> {
  const [row] = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(live(userId), eq(apiKeys.id, id)))
    .returning();
  return row ?? null;
}

/** The sealed copy of the member's `Default` key (SPEC's one key), or null when they have none. */
export async function findSealedDefaultKey(db: DbOrTx, userId: string): Promise<string | null> {
  const [row] = await db
    .select({ sealed: apiKeys.sealed })
    .from(apiKeys)
    .where(and(live(userId), isNotNull(apiKeys.sealed)))
    .orderBy(desc(apiKeys.createdAt))
    .limit(1);
  return row?.sealed ?? null;
}

/** Revokes the member's `Default` key; true when there was one. */
export async function revokeDefaultKey(db: DbOrTx, userId: string): Promise<boolean> {
  const rows = await db
    .update(apiKeys)
    .set({ revokedAt: sql`now()` })
    .where(and(live(userId), isNotNull(apiKeys.sealed)))
    .returning({ id: apiKeys.id });
  return rows.length > 0;
}

/** Revokes every key of a member. */
export async function revokeAllKeys(db: DbOrTx, userId: string): Promise<void> {
  await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(live(userId));
}
