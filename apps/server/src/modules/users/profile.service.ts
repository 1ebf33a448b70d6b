/** `updateProfile` (SPEC §2 Settings, DESIGN §8): nickname, e-mail, password and the Private flag. */
import { AppError, MESSAGES, type UpdateProfileInput, type UpdateProfileResponse } from '@starlight/shared';
import { isUniqueViolation } from '../../db/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { findUserById, findUserByNickname, loadUserDto } from '../accounts/accounts.public.ts';
import { revokeApiKeys } from '../apikeys/apikeys.public.ts';
import { holdWithdrawals, requireStepUp } from '../mfa/mfa.public.ts';
import { notify } from '../notifications/notifications.public.ts';
import { retireMailTokens } from './email.queries.ts';
import { mailEmailChangedLater, mailPasswordChangedLater, securityEventOf } from './security-mails.ts';
import { securityNoticeOf } from './security-notices.ts';
import { endSessions, sessionExpiry } from './sessions.queries.ts';
import { bumpTokenVersion, findUserByEmail, updateUser } from './users.queries.ts';
import { isReservedNickname, recheckPassword, type UsersDeps } from './users.service.ts';

/**
 * Changes the caller's profile and answers `{user, token?, message}`. Rules (DESIGN §8):
 * - a new e-mail or password needs `currentPassword` (401 `Incorrect password` when wrong, 400 when
 *   missing), checked against the account's budget of password checks (`recheckPassword`: 429 once spent); wallet-only accounts have no password: they may add a nickname and an e-mail without it,
 *   and cannot set a password (409);
 * - a new e-mail is unverified; a taken nickname or e-mail is a 409, and so is a reserved nickname
 *   (`isReservedNickname`: `Anonymous`, system accounts'), wallet accounts included;
 * - a new password ends every other session: the answer carries a fresh `token` for this one; it also
 *   revokes the account's API keys unless `revokeApiKeys: false` (the web asks, revoking by default);
 *   `revokeApiKeys` without a new `password` is a 400;
 * - a new password or e-mail retires every outstanding password-reset and sign-in link, and a new e-mail every
 *   verification link sent to the old address, in the same transaction (they answer as used links).
 * - a new e-mail (a first one too: it is where withdrawal addresses are confirmed) pauses withdrawals for
 *   `SECURITY_HOLD_HOURS` (DESIGN §11.2), in the same transaction;
 * - a new password or e-mail is mailed to the owner (DESIGN §11.1 security mails), a new e-mail at both
 *   the new and the old address, after the response.
 * - with a second factor on, a new e-mail or password needs `mfaCode` (DESIGN §11.1 step-up: 403
 *   `Two-factor code required`, 400 `Invalid code`), checked after the other rules and before any write.
 * Throws 400 `Nothing to update` for an empty body. Nothing else can be set (the schema is strict).
 */
export async function updateProfile(
  deps: UsersDeps,
  auth: AuthUser,
  input: UpdateProfileInput,
  client: SignInClient,
): Promise<UpdateProfileResponse> {
  const userId = auth.id;
  const { nickname, email, password, isAnonymous, currentPassword, revokeApiKeys: revokeKeys, mfaCode } = input;
  if (nickname === undefined && email === undefined && password === undefined && isAnonymous === undefined) {
    throw new AppError('VALIDATION', 'Nothing to update');
  }
  if (revokeKeys !== undefined && password === undefined) {
    throw new AppError('VALIDATION', '"revokeApiKeys" is allowed only with a new "password"');
  }
  const row = await findUserById(deps.db, userId);
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  const newEmail = email !== undefined && email !== row.email ? email : undefined;
  const newNickname = nickname !== undefined && nickname !== row.nickname ? nickname : undefined;
  if (password !== undefined && !row.passwordHash) {
    throw new AppError('CONFLICT', 'Wallet accounts sign in with their wallet and have no password');
  }
  if ((newEmail !== undefined || password !== undefined) && row.passwordHash) {
    if (currentPassword === undefined) throw new AppError('VALIDATION', '"currentPassword" is required');
    await recheckPassword(deps, row.id, row.passwordHash, currentPassword);
  }
  if (newNickname !== undefined) {
    if (isReservedNickname(newNickname)) throw new AppError('CONFLICT', 'Nickname already taken');
    const owner = await findUserByNickname(deps.db, newNickname);
    if (owner && owner.id !== row.id) throw new AppError('CONFLICT', 'Nickname already taken');
  }
  if (newEmail !== undefined && (await findUserByEmail(deps.db, newEmail))) {
    throw new AppError('CONFLICT', 'Email already registered');
  }
  // Step-up last of the checks, so a code is not used up by a change refused for another reason.
  if (newEmail !== undefined || password !== undefined) await requireStepUp(deps.mfa, auth, mfaCode);
  const passwordHash = password !== undefined ? await hashPassword(password) : undefined;

  const event = securityEventOf(client);
  let tokenVersion: number | undefined;
  try {
    tokenVersion = await withLiveChanges(deps.app.live.changes, (changes) =>
      inTransaction(deps.db, async (tx) => {
        await updateUser(tx, row.id, {
          ...(newNickname !== undefined ? { nickname: newNickname } : {}),
          ...(newEmail !== undefined ? { email: newEmail, isEmailVerified: false } : {}),
          ...(isAnonymous !== undefined ? { isAnonymous } : {}),
          ...(passwordHash !== undefined ? { passwordHash } : {}),
        });
        if (passwordHash !== undefined || newEmail !== undefined) {
          await retireMailTokens(tx, row.id, 'reset');
          await retireMailTokens(tx, row.id, 'signin');
        }
        if (passwordHash !== undefined && revokeKeys !== false) await revokeApiKeys(tx, row.id);
        if (newEmail !== undefined) {
          await retireMailTokens(tx, row.id, 'verify');
          await holdWithdrawals(tx, row.id, deps.mfa.securityHoldHours, 'e-mail change');
        }
        // The owner hears of it in the app too, with the change (DESIGN §11.3).
        await notify(
          tx,
          [
            ...(newEmail !== undefined
              ? [
                  securityNoticeOf(
                    row.id,
                    'email-changed',
                    event,
                    `The e-mail of your account was changed to ${newEmail}.`,
                  ),
                ]
              : []),
            ...(passwordHash !== undefined ? [securityNoticeOf(row.id, 'password-changed', event)] : []),
          ],
          changes,
        );
        if (passwordHash === undefined) return undefined;
        // The other sessions end in the list too (the version bump below already refuses their tokens).
        if (auth.sessionId) await endSessions(tx, row.id, { except: auth.sessionId });
        return bumpTokenVersion(tx, row.id);
      }),
    );
  } catch (err) {
    // Two members racing for one nickname or e-mail: the unique index decides.
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', 'Nickname or email already taken');
    throw err;
  }
  const user = await loadUserDto(deps.db, row.id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  if (newEmail !== undefined) {
    mailEmailChangedLater(deps, { nickname: user.nickname, oldEmail: row.email, newEmail }, event);
  }
  if (passwordHash !== undefined) mailPasswordChangedLater(deps, user, event);
  if (tokenVersion === undefined) return { user, message: MESSAGES.accountUpdated };
  // A new password ends every other session (and closes their sockets); this one continues with a new token.
  await deps.app.live.sessions.end(row.id, tokenVersion);
  const expiresAt = auth.sessionId ? await sessionExpiry(deps.db, auth.sessionId) : null;
  if (!auth.sessionId || !expiresAt) return { user, message: MESSAGES.accountUpdated };
  // The new token ends when its session does, as the old one would have.
  const token = await deps.app.signSession({
    id: row.id,
    role: row.role,
    tokenVersion,
    sessionId: auth.sessionId,
    expiresAt,
  });
  return { user, token, message: MESSAGES.accountUpdated };
}
