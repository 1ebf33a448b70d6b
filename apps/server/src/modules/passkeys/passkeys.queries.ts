/**
 * SQL of passkeys (DESIGN §11.1): members' WebAuthn credentials (`user_passkeys`) and the challenges issued
 * for them (`webauthn_challenges`). Every statement on a passkey names its member, except the sign-in's
 * lookup by credential id, which finds the member.
 */
import { and, count, desc, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { userPasskeys, webauthnChallenges } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A stored passkey. */
export type PasskeyRow = typeof userPasskeys.$inferSelect;

/** What a challenge is for: adding a passkey (to one member) or signing in (anyone). */
export type ChallengePurpose = 'registration' | 'authentication';

/** Stores an issued challenge; returns its id. Deletes every expired one first, so the table stays small. */
export async function insertChallenge(
  db: DbOrTx,
  row: { challenge: string; purpose: ChallengePurpose; userId: string | null; expiresAt: Date },
): Promise<string> {
  await db.delete(webauthnChallenges).where(lte(webauthnChallenges.expiresAt, new Date()));
  const id = newObjectId();
  await db.insert(webauthnChallenges).values({ id, ...row });
  return id;
}

/**
 * Marks a live (unused, unexpired) challenge used and returns its text, or null: one of `id` or
 * `challenge` names it, `userId` must match (null for a sign-in's). `UPDATE ... RETURNING`, so two
 * requests racing for one challenge cannot both have it.
 */
export async function takeChallenge(
  db: DbOrTx,
  by: { id?: string; challenge?: string; purpose: ChallengePurpose; userId: string | null },
): Promise<string | null> {
  const rows = await db
    .update(webauthnChallenges)
    .set({ usedAt: new Date() })
    .where(
      and(
        by.id === undefined ? undefined : eq(webauthnChallenges.id, by.id),
        by.challenge === undefined ? undefined : eq(webauthnChallenges.challenge, by.challenge),
        eq(webauthnChallenges.purpose, by.purpose),
        by.userId === null ? isNull(webauthnChallenges.userId) : eq(webauthnChallenges.userId, by.userId),
        isNull(webauthnChallenges.usedAt),
        gt(webauthnChallenges.expiresAt, new Date()),
      ),
    )
    .returning({ challenge: webauthnChallenges.challenge });
  return rows[0]?.challenge ?? null;
}

/** A member's passkeys, newest first. */
export async function listPasskeys(db: DbOrTx, userId: string): Promise<PasskeyRow[]> {
  return db
    .select()
    .from(userPasskeys)
    .where(eq(userPasskeys.userId, userId))
    .orderBy(desc(userPasskeys.createdAt), desc(userPasskeys.id));
}

/** How many passkeys a member has (`User.mfa.passkeys`, DESIGN §11.1). */
export async function countUserPasskeys(db: DbOrTx, userId: string): Promise<number> {
  const [row] = await db.select({ n: count() }).from(userPasskeys).where(eq(userPasskeys.userId, userId));
  return row?.n ?? 0;
}

/** The passkey with WebAuthn credential id `credentialId` (base64url), whoever holds it, or null. */
export async function findPasskeyByCredential(db: DbOrTx, credentialId: string): Promise<PasskeyRow | null> {
  const [row] = await db.select().from(userPasskeys).where(eq(userPasskeys.credentialId, credentialId)).limit(1);
  return row ?? null;
}

/** Stores a member's new passkey; returns it. The credential id is unique across accounts. */
export async function insertPasskey(
  db: DbOrTx,
  row: { userId: string; credentialId: string; publicKey: string; counter: number; transports: string[]; name: string },
): Promise<PasskeyRow> {
  const [inserted] = await db
    .insert(userPasskeys)
    .values({ id: newObjectId(), ...row })
    .returning();
  return inserted as PasskeyRow;
}

/** Records a sign-in with a passkey: the counter the authenticator reported and when. */
export async function markPasskeyUsed(db: DbOrTx, id: string, counter: number): Promise<void> {
  await db.update(userPasskeys).set({ counter, lastUsedAt: sql`now()` }).where(eq(userPasskeys.id, id));
}

/** Deletes a member's passkey; returns its credential id, or null when the member has no such passkey. */
export async function deletePasskey(db: DbOrTx, userId: string, id: string): Promise<string | null> {
  const rows = await db
    .delete(userPasskeys)
    .where(and(eq(userPasskeys.id, id), eq(userPasskeys.userId, userId)))
    .returning({ credentialId: userPasskeys.credentialId });
  return rows[0]?.credentialId ?? null;
}

/** Removes every passkey of a member (the admin's `resetUserMfa`); how many there were. */
export async function deleteAllPasskeys(db: DbOrTx, userId: string): Promise<number> {
  const gone = await db.delete(userPasskeys).where(eq(userPasskeys.userId, userId)).returning({ id: userPasskeys.id });
  return gone.length;
}
