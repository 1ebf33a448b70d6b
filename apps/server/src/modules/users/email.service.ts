/**
 * E-mail verification, password reset and the mailed sign-in link (SPEC §2, §4, §7; DESIGN §8). The
 * links and their tokens: `mail-links.ts` (single use, stored hashed; 24 hours to verify, 1 hour to
 * reset, 15 minutes to sign in).
 */
import {
  AppError,
  type AuthResponse,
  MESSAGES,
  type MfaRequiredResponse,
  type ResetPasswordRequest,
} from '@starlight/shared';
import { inTransaction } from '../../db/transaction.ts';
import { withLiveChanges } from '../../http/money-moving.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { hashMailToken } from '../../lib/mailer.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { findUserById, insertAccessLog } from '../accounts/accounts.public.ts';
import { revokeApiKeys } from '../apikeys/apikeys.public.ts';
import { hasTotp, holdWithdrawals, startSignInChallenge } from '../mfa/mfa.public.ts';
import { notify } from '../notifications/notifications.public.ts';
import { consumeMailToken, retireMailTokens } from './email.queries.ts';
import { resetPasswordMail, verificationMail } from './email.templates.ts';
import { issueLink, mayMail } from './mail-links.ts';
import { mailPasswordChangedLater, securityEventOf } from './security-mails.ts';
import { securityNoticeOf } from './security-notices.ts';
import { endSessions } from './sessions.queries.ts';
import { bumpTokenVersion, findUserByEmail, updateUser } from './users.queries.ts';
import { LOGIN_TYPE, rememberAddress, session, type UsersDeps } from './users.service.ts';

/** The one answer of `forgotPassword`, whether or not the address has an account (DESIGN §8). */
export const FORGOT_PASSWORD_MESSAGE = 'If an account uses this e-mail, we have sent it a link to reset the password';

/**
 * `sendVerificationEmail` (SPEC §7, bearer): mails the caller a link proving their e-mail. The body may
 * name the address; it must then be the account's. Throws 409 when the account has no e-mail or it is
 * already verified, 400 when `email` is another address. Returns `{message}`; past the per-recipient
 * limit (`mayMail`) the answer is the same and no mail (nor token) is made, so the limit tells nothing.
 */
export async function sendVerificationEmail(
  deps: UsersDeps,
  userId: string,
  email: string | undefined,
): Promise<{ message: string }> {
  const row = await findUserById(deps.db, userId);
  if (!row) throw new AppError('NOT_FOUND', 'User not found');
  if (!row.email) throw new AppError('CONFLICT', 'Add an e-mail address to your account first');
  if (email !== undefined && email !== row.email) throw new AppError('VALIDATION', '"email" contains an invalid value');
  if (row.isEmailVerified) throw new AppError('CONFLICT', 'Your e-mail is already verified');
  if (await mayMail(deps, 'verify', row.email)) {
    const link = await issueLink(deps, row.id, row.email, 'verify');
    await deps.mailer.send(verificationMail(row.email, row.nickname, link));
  }
  return { message: `We have sent a verification link to ${row.email}` };
}

/**
 * `verifyEmail {token}` (DESIGN §8): marks the address the token was sent to as verified, once. Throws
 * 400 for an unknown, used or expired token, 409 when the account has changed its e-mail since.
 */
export async function verifyEmail(deps: UsersDeps, token: string): Promise<{ message: string }> {
  return inTransaction(deps.db, async (tx) => {
    const found = await consumeMailToken(tx, hashMailToken(token), 'verify');
    if (!found) throw new AppError('VALIDATION', MESSAGES.invalidLink);
    const row = await findUserById(tx, found.userId);
    if (!row || row.email !== found.email) {
      throw new AppError('CONFLICT', 'Your e-mail has changed since this link was sent; ask for a new one');
    }
    await updateUser(tx, row.id, { isEmailVerified: true });
    return { message: 'Your e-mail is verified' };
  });
}

/**
 * `forgotPassword {email}` (DESIGN §8): mails a reset link to an active account with this address. The
 * answer is the same, and takes about the same time, whether or not the address exists: the token is
 * stored and the mail sent after the response (a relay's latency would tell), and a failure to send is only logged.
 * Past the per-recipient limit (`mayMail`, also checked after the response) no mail goes, silently.
 */
export async function forgotPassword(deps: UsersDeps, email: string): Promise<{ message: string }> {
  const row = await findUserByEmail(deps.db, email);
  if (row?.isActive && row.email) {
    const to = row.email;
    mayMail(deps, 'reset', to)
      .then(async (may) => {
        if (!may) return;
        const link = await issueLink(deps, row.id, to, 'reset');
        await deps.mailer.send(resetPasswordMail(to, row.nickname, link));
      })
      .catch((err: unknown) => deps.app.log.error({ err, to }, 'reset mail not sent'));
  }
  return { message: FORGOT_PASSWORD_MESSAGE };
}

/**
 * `resetPassword {token, password}` (DESIGN §8): sets the new password, ends every session of the
 * account (its sockets close too) and revokes its API keys: whoever took the account keeps nothing. Throws 400 for an unknown, used or expired token, and for one mailed
 * to an address the account no longer has (a password or e-mail change retires reset links, see
 * `profile.service.ts`; this also covers a link issued while the e-mail changed). The caller's `address`
 * becomes known to the account (`rememberAddress`): a reset lets the owner sign in from a new address
 * while strangers' guesses throttle the account. The owner is mailed that the password changed
 * (`mailPasswordChangedLater`, DESIGN §11.1), and withdrawals pause for `SECURITY_HOLD_HOURS` (DESIGN §11.2,
 * in the same transaction). Returns `{message}`.
 */
export async function resetPassword(
  deps: UsersDeps,
  input: ResetPasswordRequest,
  client: SignInClient,
): Promise<{ message: string }> {
  const { address } = client;
  const passwordHash = await hashPassword(input.password);
  const event = securityEventOf(client);
  const ended = await withLiveChanges(deps.app.live.changes, (changes) =>
    inTransaction(deps.db, async (tx) => {
      const found = await consumeMailToken(tx, hashMailToken(input.token), 'reset');
      if (!found) throw new AppError('VALIDATION', MESSAGES.invalidLink);
      const row = await findUserById(tx, found.userId);
      if (!row || row.email !== found.email) throw new AppError('VALIDATION', MESSAGES.invalidLink);
      await retireMailTokens(tx, found.userId, 'reset');
      await retireMailTokens(tx, found.userId, 'signin');
      await updateUser(tx, found.userId, { passwordHash });
      await revokeApiKeys(tx, found.userId);
      await endSessions(tx, found.userId, 'all');
      await holdWithdrawals(tx, found.userId, deps.mfa.securityHoldHours, 'password reset');
      await notify(tx, [securityNoticeOf(found.userId, 'password-changed', event)], changes);
      const tokenVersion = await bumpTokenVersion(tx, found.userId);
      return { userId: found.userId, tokenVersion, nickname: row.nickname, email: row.email };
    }),
  );
  mailPasswordChangedLater(deps, ended, event);
  await Promise.all([
    deps.app.live.sessions.end(ended.userId, ended.tokenVersion),
    rememberAddress(deps, ended.userId, address),
  ]);
  return { message: 'Your password has been reset, please sign in with it' };
}

/**
 * `loginLink {token}` (DESIGN §8): signs in with a mailed sign-in link, once: `{user, token, message}` as
 * `login` answers. The link was mailed because the sign-in limits stopped the right password (`login`);
 * following it proves the mailbox too, so the caller's `address` becomes known to the account
 * (`rememberAddress`) and its failures there are forgotten. Throws 400 `MESSAGES.invalidLink` for an
 * unknown, used or expired token or one mailed to an address the account no longer has, 403 for a
 * disabled account. A password or e-mail change, and a reset, retire outstanding sign-in links.
 * A link stands for the password, not the second factor: an account with TOTP on answers
 * `{mfaRequired, mfaToken, message}` as `login` does (DESIGN §11.1), and `login/mfa` finishes it.
 */
export async function loginWithLink(
  deps: UsersDeps,
  token: string,
  client: SignInClient,
): Promise<AuthResponse | MfaRequiredResponse> {
  const { address } = client;
  const found = await consumeMailToken(deps.db, hashMailToken(token), 'signin');
  if (!found) throw new AppError('VALIDATION', MESSAGES.invalidLink);
  const row = await findUserById(deps.db, found.userId);
  if (!row || row.email !== found.email) throw new AppError('VALIDATION', MESSAGES.invalidLink);
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  await rememberAddress(deps, row.id, address);
  if (await hasTotp(deps.mfa, row.id)) {
    return startSignInChallenge(deps.mfa, { userId: row.id, loginType: LOGIN_TYPE.Email, cAppAuthRequest: null });
  }
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Email);
  return session(deps, row, `Welcome back, ${row.nickname}`, client);
}
