/**
 * E-mail verification and password reset (SPEC §2, §4, §7; DESIGN §8). Tokens are 192 characters of
 * base64url over 144 CSPRNG bytes (SPEC §5: 150 to 255), stored as their SHA-256 only, used once, and
 * expiring: 24 hours to verify, 1 hour to reset.
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, MESSAGES, type ResetPasswordRequest } from '@starlight/shared';
import { inTransaction } from '../../db/transaction.ts';
import { hashPassword } from '../../lib/passwords.ts';
import { findUserById } from '../accounts/accounts.public.ts';
import { revokeApiKeys } from '../apikeys/apikeys.public.ts';
import { consumeMailToken, insertMailToken, type MailTokenPurpose, retireMailTokens } from './email.queries.ts';
import { resetPasswordMail, verificationMail } from './email.templates.ts';
import { bumpTokenVersion, findUserByEmail, updateUser } from './users.queries.ts';
import { rememberAddress, type UsersDeps } from './users.service.ts';

/** DESIGN §8: a verify link lasts 24 hours, a reset link 1 hour (milliseconds). */
export const TOKEN_LIFETIME_MS: Record<MailTokenPurpose, number> = {
  verify: 24 * 60 * 60 * 1000,
  reset: 60 * 60 * 1000,
};

/** The one answer of `forgotPassword`, whether or not the address has an account (DESIGN §8). */
export const FORGOT_PASSWORD_MESSAGE = 'If an account uses this e-mail, we have sent it a link to reset the password';

/** The window of the per-recipient mail limit: an hour. */
const MAIL_WINDOW_MS = 60 * 60 * 1000;

/**
 * Counts a mail of `purpose` to `to` and says whether it may go: at most `maxMailsPerRecipient` of each
 * kind per address per hour, counted in the shared store (Redis when `REDIS_URL` is set), so a flood of
 * requests cannot fill a mailbox. Each kind has its own budget: a flood of reset requests, which anyone
 * can make, does not stop the owner's verification mails.
 */
async function mayMail(deps: UsersDeps, purpose: MailTokenPurpose, to: string): Promise<boolean> {
  return (await deps.mailsSent.record(`${purpose}:${to.toLowerCase()}`, MAIL_WINDOW_MS)) <= deps.maxMailsPerRecipient;
}

/** The stored form of a mail token: its SHA-256, hex. */
export function hashMailToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Issues a token for `purpose` and returns the page link that carries it (`PUBLIC_URL/verifyemail/{token}`). */
async function issueLink(deps: UsersDeps, userId: string, email: string, purpose: MailTokenPurpose): Promise<string> {
  const token = randomBytes(144).toString('base64url');
  await insertMailToken(deps.db, {
    tokenHash: hashMailToken(token),
    userId,
    purpose,
    email,
    expiresAt: new Date(Date.now() + TOKEN_LIFETIME_MS[purpose]),
  });
  const page = purpose === 'verify' ? 'verifyemail' : 'resetpassword';
  return `${deps.publicUrl.replace(/\/$/, '')}/${page}/${token}`;
}

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
 * while strangers' guesses throttle the account. Returns `{message}`.
 */
export async function resetPassword(
  deps: UsersDeps,
  input: ResetPasswordRequest,
  address: string,
): Promise<{ message: string }> {
  const passwordHash = await hashPassword(input.password);
  const ended = await inTransaction(deps.db, async (tx) => {
    const found = await consumeMailToken(tx, hashMailToken(input.token), 'reset');
    if (!found) throw new AppError('VALIDATION', MESSAGES.invalidLink);
    const row = await findUserById(tx, found.userId);
    if (!row || row.email !== found.email) throw new AppError('VALIDATION', MESSAGES.invalidLink);
    await retireMailTokens(tx, found.userId, 'reset');
    await updateUser(tx, found.userId, { passwordHash });
    await revokeApiKeys(tx, found.userId);
    return { userId: found.userId, tokenVersion: await bumpTokenVersion(tx, found.userId) };
  });
  await Promise.all([
    deps.app.live.sessions.end(ended.userId, ended.tokenVersion),
    rememberAddress(deps, ended.userId, address),
  ]);
  return { message: 'Your password has been reset, please sign in with it' };
}
