/**
 * Account deletion (DESIGN §11.6): a member deletes their own account, or an admin deletes a member's from
 * User Control. Refused while the account holds anything (a balance, escrow in an open order, a running
 * forge process, an open listing); otherwise it is anonymised in one transaction: nickname `deleted-<id>`, e-mail, wallet,
 * password, API keys, passkeys, the authenticator app and every session removed, inactive. Its ledger rows
 * stay, so every other member's history and the conservation audit are unchanged.
 */
import { ADMIN_CATEGORY, AppError, type DeleteAccountRequest } from '@starlight/shared';
import type { Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { findUserById, findUserByNickname } from '../accounts/accounts.public.ts';
import { revokeApiKeys } from '../apikeys/apikeys.public.ts';
import { requireStepUp, resetTotp } from '../mfa/mfa.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import { deleteAllPasskeys } from '../passkeys/passkeys.public.ts';
import { anonymiseAccount, findHoldings, type Holdings, lockAccount } from './deletion.queries.ts';
import { retireMailTokens } from './email.queries.ts';
import { endSessions } from './sessions.queries.ts';
import { recheckPassword, type UsersDeps } from './users.service.ts';

/** The 400 of a `confirmNickname` that is not the account's nickname. */
export const CONFIRM_NICKNAME_MISMATCH = 'Type your nickname exactly to confirm';

/** The 409 of deleting an admin's account: the console must keep someone who can run it. */
export const ADMIN_ACCOUNT_KEPT = 'An admin account cannot be deleted: change its role first';

/** The 409's words for what an account still holds, or null when nothing stands in the way (DESIGN §11.6). */
export function holdingsMessage(h: Holdings, whose: 'your' | 'their'): string | null {
  const steps: string[] = [];
  if (h.balances.length > 0) {
    const held = h.balances.map((b) => `${b.amount.replace(/\.?0+$/, '')} ${b.symbol}`).join(', ');
    steps.push(`transfer or withdraw ${whose} balance (${held})`);
  }
  if (h.openOrders > 0) {
    steps.push(`cancel ${whose} ${h.openOrders} open ${h.openOrders === 1 ? 'order' : 'orders'} on the Quantum Hub`);
  }
  if (h.runningProcesses > 0) {
    const n = h.runningProcesses;
    steps.push(
      `claim ${whose} ${n} forge ${n === 1 ? 'process' : 'processes'} when ${n === 1 ? 'it ends' : 'they end'}`,
    );
  }
  if (h.openListings > 0) {
    const n = h.openListings;
    steps.push(`cancel ${whose} ${n} open ${n === 1 ? 'listing' : 'listings'} on the market`);
  }
  if (steps.length === 0) return null;
  return `The account still holds value: ${steps.join('; ')}, then delete it`;
}

/**
 * Anonymises the account `userId` in `tx` after locking its row and checking its holdings; throws 409 with
 * what to do when it holds anything.
 */
async function anonymise(deps: UsersDeps, tx: Tx, userId: string, whose: 'your' | 'their'): Promise<void> {
  await lockAccount(tx, userId);
  const blocked = holdingsMessage(await findHoldings(tx, userId), whose);
  if (blocked) throw new AppError('CONFLICT', blocked);
  await anonymiseAccount(tx, userId);
  await endSessions(tx, userId, 'all');
  await revokeApiKeys(tx, userId);
  await deleteAllPasskeys(tx, userId);
  await resetTotp(deps.mfa, tx, userId);
  for (const purpose of ['verify', 'reset', 'signin'] as const) await retireMailTokens(tx, userId, purpose);
}

/** After the commit: every socket of the account closes, on every replica. */
async function closeSockets(deps: UsersDeps, userId: string): Promise<void> {
  const row = await findUserById(deps.db, userId);
  if (row) await deps.app.live.sessions.end(userId, row.tokenVersion);
}

/** An admin's or the system's account is never deleted. */
function refuseKept(role: string, isSystem: boolean): void {
  if (role === 'admin' || isSystem) throw new AppError('CONFLICT', ADMIN_ACCOUNT_KEPT);
}

/**
 * `POST deleteAccount {confirmNickname, password?, mfaCode?}` (DESIGN §11.6): the member's own account.
 * 400 `Type your nickname exactly to confirm` when `confirmNickname` differs (case aside); an account with
 * a password needs it (400 when missing, 401 `Incorrect password`, 429 past the account's budget); with a
 * second factor on, a current code (403 `Two-factor code required`, 400 `Invalid code`), checked last; 409
 * while the account holds anything, saying what to do. Nothing changes on a refusal.
 */
export async function deleteAccount(
  deps: UsersDeps,
  auth: AuthUser,
  input: DeleteAccountRequest,
): Promise<{ message: string }> {
  const row = await findUserById(deps.db, auth.id);
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  if (input.confirmNickname.trim().toLowerCase() !== row.nickname.toLowerCase()) {
    throw new AppError('VALIDATION', CONFIRM_NICKNAME_MISMATCH);
  }
  refuseKept(row.role, row.isSystem);
  if (row.passwordHash) {
    if (input.password === undefined) throw new AppError('VALIDATION', '"password" is required');
    await recheckPassword(deps, row.id, row.passwordHash, input.password);
  }
  // Holdings before the code, so a code is not used up by a deletion refused for them.
  const blocked = holdingsMessage(await findHoldings(deps.db, row.id), 'your');
  if (blocked) throw new AppError('CONFLICT', blocked);
  await requireStepUp(deps.mfa, auth, input.mfaCode);
  await inTransaction(deps.db, (tx) => anonymise(deps, tx, row.id, 'your'));
  await closeSockets(deps, row.id);
  return { message: 'Your account has been deleted' };
}

/**
 * Admin `POST deleteUserAccount {nickname}` (DESIGN §11.6): the same deletion from User Control, written
 * to the admin log (category 44) in its transaction. 404 for an unknown nickname; 409 for an admin's
 * account or one that holds anything (saying what the member must do).
 */
export async function deleteUserAccount(
  deps: UsersDeps,
  admin: AuthUser,
  nickname: string,
  address: string,
): Promise<{ message: string }> {
  const target = await findUserByNickname(deps.db, nickname);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  refuseKept(target.role, target.isSystem);
  await inTransaction(deps.db, async (tx) => {
    await anonymise(deps, tx, target.id, 'their');
    await insertAdminLog(tx, {
      adminId: admin.id,
      affectedUserId: target.id,
      address,
      category: ADMIN_CATEGORY.DeleteUserAccount,
      action: `Delete ${target.nickname}'s account`,
    });
  });
  await closeSockets(deps, target.id);
  return { message: `${target.nickname}'s account has been deleted` };
}
