/**
 * The security hold (DESIGN §11.2): for `SECURITY_HOLD_HOURS` after a password reset, an e-mail change or
 * two-factor being turned off, withdrawals are refused, so whoever took over an account cannot empty it
 * before its owner hears of the change (the security mails). Set in the change's own transaction.
 */
import type { DbOrTx, Tx } from '../../db/client.ts';
import { findActiveHolds, upsertSecurityHold } from './security-holds.queries.ts';

/** What set a hold, kept with it for an admin's look. */
export type SecurityHoldReason = 'password reset' | 'e-mail change' | 'two-factor off';

/**
 * Pauses a member's withdrawals for `hours` from now, in `tx` (the security change's transaction): an
 * existing hold that ends later stays as it is. `hours` of 0 sets nothing.
 */
export async function holdWithdrawals(
  tx: Tx,
  userId: string,
  hours: number,
  reason: SecurityHoldReason,
): Promise<void> {
  if (hours <= 0) return;
  await upsertSecurityHold(tx, userId, hours, reason);
}

/** When each of `userIds`' withdrawals may resume, for those on hold now (one statement, by member id). */
export function withdrawalHolds(db: DbOrTx, userIds: readonly string[]): Promise<Map<string, Date>> {
  return findActiveHolds(db, userIds);
}
