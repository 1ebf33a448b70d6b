/**
 * SQL of the users module: a member's own account changes (e-mail look-up, updates, ending sessions).
 * Reads other modules' tables: `users` (the accounts module's): the rows this module changes for a member.
 */
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import type { UserRow } from '../accounts/accounts.public.ts';

/** Finds an account by its lowercased e-mail or null. */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return row ?? null;
}

/** Updates an account's fields and `updatedAt`; returns the new row. */
export async function updateUser(
  db: DbOrTx,
  id: string,
  values: Partial<typeof users.$inferInsert>,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

/** Ends every session of an account (DESIGN §8 token version). Returns the new version (0 when no account). */
export async function bumpTokenVersion(db: DbOrTx, id: string): Promise<number> {
  const [row] = await db
    .update(users)
    .set({ tokenVersion: sql`${users.tokenVersion} + 1` })
    .where(eq(users.id, id))
    .returning({ tokenVersion: users.tokenVersion });
  return row?.tokenVersion ?? 0;
}
