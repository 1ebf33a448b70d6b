/**
 * Sign-in with a second factor (DESIGN §11.1): once a password or wallet signature is proved for an
 * account with TOTP on, the sign-in waits on a challenge, an `mfaToken` (256 CSPRNG bits, stored as its
 * SHA-256) that is single use, lives 5 minutes and dies after 5 wrong codes. `login/mfa` redeems it with
 * a code; the users module then opens the session (or grants the creator app's request).
 */
import { createHash, randomBytes } from 'node:crypto';
import { AppError, MESSAGES, type MfaRequiredResponse } from '@starlight/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { type PeriodicJob, startPeriodic, withJobLock } from '../../lib/periodic.ts';
import { failMfaToken, insertMfaToken, lockMfaToken, pruneMfaTokens, useMfaToken } from './mfa.queries.ts';
import { checkCode, type MfaDeps } from './mfa.service.ts';

/** How long a sign-in challenge lives (DESIGN §11.1): 5 minutes. */
export const MFA_TOKEN_TTL_MS = 5 * 60 * 1000;
/** Wrong codes that kill a challenge (DESIGN §11.1). */
export const MFA_TOKEN_MAX_FAILURES = 5;

const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** What a redeemed challenge signs in: the account, its access log type, the creator app's request if any. */
export interface SignInChallenge {
  userId: string;
  /** SPEC §3 login type of the sign-in that started it (1 e-mail, 2 wallet). */
  loginType: number;
  cAppAuthRequest: string | null;
}

/**
 * Starts a sign-in challenge for an account whose first factor was just proved: `{mfaRequired: true,
 * mfaToken, message}` (DESIGN §11.1); no session yet.
 */
export async function startSignInChallenge(
  deps: Pick<MfaDeps, 'db'>,
  challenge: SignInChallenge,
): Promise<MfaRequiredResponse> {
  const mfaToken = randomBytes(32).toString('base64url');
  await insertMfaToken(deps.db, {
    tokenHash: hashToken(mfaToken),
    userId: challenge.userId,
    cAppAuthRequest: challenge.cAppAuthRequest,
    loginType: challenge.loginType,
    expiresAt: new Date(Date.now() + MFA_TOKEN_TTL_MS),
  });
  return { mfaRequired: true, mfaToken, message: 'Enter the code from your authenticator app' };
}

/**
 * Redeems a challenge with a code (DESIGN §11.1 `login/mfa`), attempts on one token one at a time: 401
 * `MESSAGES.mfaTokenInvalid` for an unknown, used, expired or spent token; 400 `Invalid code` for a wrong
 * code (counted: the fifth kills the token); 429 past the account's limit of wrong codes. A right code
 * (or recovery code) uses the token up and answers what it signs in.
 */
export async function redeemSignInChallenge(deps: MfaDeps, mfaToken: string, code: string): Promise<SignInChallenge> {
  const tokenHash = hashToken(mfaToken);
  const outcome = await inTransaction(deps.db, async (tx) => {
    const row = await lockMfaToken(tx, tokenHash);
    if (!row || row.usedAt || row.expiresAt.getTime() <= Date.now() || row.failures >= MFA_TOKEN_MAX_FAILURES) {
      return 'invalid' as const;
    }
    if (!(await checkCode(deps, tx, row.userId, code))) {
      await failMfaToken(tx, tokenHash);
      return 'wrong' as const;
    }
    await useMfaToken(tx, tokenHash);
    return { userId: row.userId, loginType: row.loginType, cAppAuthRequest: row.cAppAuthRequest };
  });
  if (outcome === 'invalid') throw new AppError('UNAUTHORIZED', MESSAGES.mfaTokenInvalid);
  if (outcome === 'wrong') throw new AppError('VALIDATION', MESSAGES.invalidCode);
  return outcome;
}

/** How long an expired challenge is kept before pruning: a day. */
const KEEP_EXPIRED_MS = 24 * 60 * 60 * 1000;

/** Deletes expired sign-in challenges every `everyMs` (default hourly), on one replica at a time. */
export function startMfaTokenPruning(db: Db, log: FastifyBaseLogger, everyMs = 60 * 60 * 1000): PeriodicJob {
  return startPeriodic({
    name: 'prune-mfa-tokens',
    everyMs,
    log,
    tick: async () => {
      await withJobLock(db, 'prune-mfa-tokens', (tx) => pruneExpired(tx));
    },
  });
}

/** Deletes the challenges that expired over a day ago. */
export function pruneExpired(db: DbOrTx): Promise<void> {
  return pruneMfaTokens(db, new Date(Date.now() - KEEP_EXPIRED_MS));
}
