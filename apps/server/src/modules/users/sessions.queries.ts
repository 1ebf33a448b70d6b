/**
 * SQL of sign-in sessions (`user_sessions`, DESIGN §11.1): start, list, end. Every statement names the
 * member, so one member never reads or ends another's session.
 */
import { and, desc, eq, gt, isNull, lt, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.ts';
import { userSessions } from '../../db/schema/index.ts';
import { newObjectId } from '../../lib/ids.ts';

/** A session row as the list shows it. */
export type SessionRow = typeof userSessions.$inferSelect;

/** Starts a session; returns its id. `expiresAt` is the token's own expiry. */
export async function insertSession(
  db: DbOrTx,
  row: { userId: string; device: string; address: string; secondFactor: boolean; expiresAt: Date },
): Promise<string> {
  const id = newObjectId();
  await db.insert(userSessions).values({ id, ...row });
  return id;
}

/**
 * Whether the member has signed in before from `device` at `address` (any session kept, live, ended or
 * expired: sessions are pruned 30 days after they expire). One member's rows, through `user_sessions_user`.
 */
export async function hasSessionFrom(db: DbOrTx, userId: string, device: string, address: string): Promise<boolean> {
  const rows = await db
    .select({ id: userSessions.id })
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), eq(userSessions.device, device), eq(userSessions.address, address)))
    .limit(1);
  return rows.length > 0;
}

/** Most sessions one list shows: a member signs in a few times a day; a day's tokens are alive. */
const MAX_LISTED = 100;

/** A member's live sessions (not ended, not expired), newest first. */
export async function liveSessions(db: DbOrTx, userId: string): Promise<SessionRow[]> {
  return db
    .select()
    .from(userSessions)
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt), gt(userSessions.expiresAt, sql`now()`)))
    .orderBy(desc(userSessions.createdAt))
    .limit(MAX_LISTED);
}

/**
 * Ends a member's live sessions: the one `only` names, or all but `except`, or all. Returns the ids it
 * ended (empty when none matched: another member's id ends nothing).
 */
export async function endSessions(
  db: DbOrTx,
  userId: string,
  which: { only: string } | { except: string } | 'all',
): Promise<string[]> {
  const scope =
    which === 'all' ? undefined : 'only' in which ? eq(userSessions.id, which.only) : ne(userSessions.id, which.except);
  const rows = await db
    .update(userSessions)
    .set({ endedAt: sql`now()` })
    .where(and(eq(userSessions.userId, userId), isNull(userSessions.endedAt), scope))
    .returning({ id: userSessions.id });
  return rows.map((r) => r.id);
}

/** Deletes sessions that expired before `before` (the prune job); returns how many. */
export async function pruneSessions(db: DbOrTx, before: Date): Promise<number> {
  const rows = await db
    .delete(userSessions)
    .where(lt(userSessions.expiresAt, before))
    .returning({ id: userSessions.id });
  return rows.length;
}

/** When session `id` ends on its own (its `expires_at`), or null when there is no such session. */
export async function sessionExpiry(db: DbOrTx, id: string): Promise<Date | null> {
  const [row] = await db
    .select({ expiresAt: userSessions.expiresAt })
    .from(userSessions)
    .where(eq(userSessions.id, id));
  return row?.expiresAt ?? null;
}
