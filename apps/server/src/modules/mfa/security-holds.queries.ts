/** SQL of the security holds (DESIGN §11.2): withdrawals pause for a while after a security change. */
import { inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.ts';
import { securityHolds } from '../../db/schema/index.ts';

/**
 * Holds a member's withdrawals until `hours` from now (the database's clock), in the caller's transaction;
 * a hold that already ends later is kept, so a new change never shortens one.
 */
export async function upsertSecurityHold(tx: Tx, userId: string, hours: number, reason: string): Promise<void> {
  const until = sql`now() + make_interval(hours => ${hours}::int)`;
  await tx
    .insert(securityHolds)
    .values({ userId, until, reason })
    .onConflictDoUpdate({
      target: securityHolds.userId,
      set: {
        until: sql`greatest(${securityHolds.until}, excluded.until)`,
        reason: sql`CASE WHEN excluded.until > ${securityHolds.until} THEN excluded.reason ELSE ${securityHolds.reason} END`,
      },
    });
}

/** The holds of `userIds` that end in the future, by member id: when each ends. One statement. */
export async function findActiveHolds(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, Date>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: securityHolds.userId, until: securityHolds.until })
    .from(securityHolds)
    .where(sql`${inArray(securityHolds.userId, [...userIds])} AND ${securityHolds.until} > now()`);
  return new Map(rows.map((r) => [r.userId, r.until]));
}
