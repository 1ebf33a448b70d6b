/**
 * Second factors (DESIGN §11.1): an authenticator app (TOTP, RFC 6238: SHA-1, 6 digits, 30-second steps,
 * one step of tolerance each way, through otplib) with ten single-use recovery codes, and the step-up
 * that guards what a stolen session must not do. A code is accepted once (the last accepted time step is
 * kept per account and moved on atomically); a recovery code works wherever a code does, once. Wrong codes
 * are limited per account across replicas (`codeFailures`, Redis when configured): 429 past the limit.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { EventEmitter } from 'node:events';
import { AppError, MESSAGES, type RecoveryCodesResponse, type TotpSetupResponse } from '@starlight/shared';
import { generateSecret, generateURI, verify } from 'otplib';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { openApiKey, sealApiKey } from '../../lib/api-key-crypto.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import { LiveChanges } from '../../lib/live-changes.ts';
import {
  acceptStep,
  deleteTotp,
  enableTotp,
  findNickname,
  findTotp,
  isTotpOn,
  putPendingTotp,
  replaceRecoveryCodes,
  useRecoveryCode,
} from './mfa.queries.ts';
import { holdWithdrawals } from './security-holds.service.ts';

export interface MfaDeps {
  db: Db;
  /** The AES-256-GCM key TOTP secrets are sealed with at rest (the API keys' `apiKeySealingKey`). */
  sealingKey: Buffer;
  /** Wrong second-factor codes per account (`lib/failure-counter.ts`). */
  codeFailures: FailureCounter;
  /** Wrong codes an account may send per `CODE_WINDOW_MS` before 429. */
  maxCodeFailures: number;
  /** What happens to second factors, for modules above this one (the users module's security mails). */
  events: EventEmitter<MfaEvents>;
  /** Hours withdrawals pause after a security change (`SECURITY_HOLD_HOURS`, DESIGN §11.2). */
  securityHoldHours: number;
  /** The in-app notices of security changes (DESIGN §11.3), set by the users module when it registers. */
  securityNotices?: SecurityNotices;
}

/**
 * A security change a module below the users module makes: second factors turned off, a passkey added, an
 * API key made.
 */
export type SecurityChange = 'mfa-off' | 'passkey-added' | 'api-key-created';

/**
 * Writes the `security` notification of a change in the change's own transaction (`write`, naming it in
 * `changes`), and hands `changes` to the live feed once that transaction committed (`publish`). The users
 * module's, which words them like its security mails (DESIGN §11.3).
 */
export interface SecurityNotices {
  write(
    tx: Tx,
    changes: LiveChanges,
    userId: string,
    change: SecurityChange,
    client: SignInClient,
    detail?: string,
  ): Promise<void>;
  publish(changes: LiveChanges): void;
}

/** The events of `MfaDeps.events`: `totpOff` after TOTP was turned off (DESIGN §11.1 security mails). */
export interface MfaEvents {
  totpOff: [userId: string, client: SignInClient];
}

/** RFC 6238 as authenticator apps use it (DESIGN §11.1). */
const TOTP = { algorithm: 'sha1', digits: 6, period: 30 } as const;
/** One step of tolerance each way, in seconds (otplib counts it in seconds). */
const TOLERANCE_S = 30;
/** The issuer an authenticator app shows. */
const ISSUER = 'Starlight';
/** Recovery codes in a set (DESIGN §11.1). */
export const RECOVERY_CODES = 10;
/** The window of the per-account limit of wrong codes: 15 minutes. */
const CODE_WINDOW_MS = 15 * 60 * 1000;
/** The recovery codes' alphabet: base32's, lowercase (32 letters, so a random byte's low 5 bits pick one evenly). */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/** A new recovery code: 12 random base32 letters (60 bits) as `xxxx-xxxx-xxxx`. */
function newRecoveryCode(): string {
  const letters = [...randomBytes(12)].map((b) => ALPHABET[b & 31]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4, 8)}-${letters.slice(8)}`;
}

/** A recovery code as stored: HMAC-SHA-256 under the sealing key, so a leaked table yields no code. */
function hashRecoveryCode(deps: Pick<MfaDeps, 'sealingKey'>, code: string): string {
  const normal = code.toLowerCase().replace(/[\s-]/g, '');
  return createHmac('sha256', deps.sealingKey).update(`recovery:${normal}`).digest('hex');
}

/** The time step a valid TOTP `code` of `secret` belongs to, later than `lastStep`, or null. */
async function totpStep(secret: string, code: string, lastStep: number | null): Promise<number | null> {
  const now = Math.floor(Date.now() / 1000);
  const latest = Math.floor(now / TOTP.period) + 1;
  if (lastStep !== null && lastStep >= latest) return null;
  try {
    const result = await verify({
      ...TOTP,
      secret,
      token: code,
      epoch: now,
      epochTolerance: TOLERANCE_S,
      ...(lastStep === null ? {} : { afterTimeStep: lastStep }),
    });
    return result.valid && 'timeStep' in result ? result.timeStep : null;
  } catch {
    return null;
  }
}

/**
 * Checks `code` for a member and uses it up, in `db` (a transaction when the caller's work should go with
 * it): six digits are a TOTP code of the account's secret (enabled, or pending with `pending`), accepted
 * once; anything else a recovery code, used once. Counts against the per-account limit: 429
 * `MESSAGES.tooManyCodes` without checking once it is spent. True when the code was right.
 */
async function useCode(deps: MfaDeps, db: DbOrTx, userId: string, code: string, pending = false): Promise<boolean> {
  const key = `user:${userId}`;
  if ((await deps.codeFailures.record(key, CODE_WINDOW_MS)) > deps.maxCodeFailures) {
    await deps.codeFailures.undo(key);
    throw new AppError('RATE_LIMITED', MESSAGES.tooManyCodes);
  }
  const typed = code.replace(/\s/g, '');
  let ok = false;
  if (/^\d{6}$/.test(typed)) {
    const totp = await findTotp(db, userId);
    if (totp && totp.enabled !== pending) {
      const step = await totpStep(openApiKey(totp.secretSealed, deps.sealingKey), typed, totp.lastStep);
      ok = step !== null && (await acceptStep(db, userId, step));
    }
  } else if (!pending) {
    ok = await useRecoveryCode(db, userId, hashRecoveryCode(deps, typed));
  }
  // A right code is no failure: its reserved count is given back.
  if (ok) await deps.codeFailures.undo(key);
  return ok;
}

/**
 * `useCode` of an account with TOTP on, for the sign-in challenge (`signin.service.ts`), which counts a
 * wrong code against its token itself: true when right, 429 past the per-account limit.
 */
export function checkCode(deps: MfaDeps, db: DbOrTx, userId: string, code: string): Promise<boolean> {
  return useCode(deps, db, userId, code);
}

/** A fresh set of recovery codes for a member, stored hashed in `tx` (the old set stops working). */
async function newRecoveryCodes(deps: MfaDeps, tx: Tx, userId: string): Promise<string[]> {
  const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
  await replaceRecoveryCodes(
    tx,
    userId,
    codes.map((c) => hashRecoveryCode(deps, c)),
  );
  return codes;
}

/** Whether a member has TOTP on (DESIGN §11.1 `User.mfa.totp`; sign-in asks for a code then). */
export function hasTotp(deps: Pick<MfaDeps, 'db'>, userId: string): Promise<boolean> {
  return isTotpOn(deps.db, userId);
}

/**
 * `POST mfa/totp/setup {}` (DESIGN §11.1): a new pending secret (replacing a pending one) with its
 * otpauth URL and QR code; TOTP turns on only when `enable` gets a code of it. 409 when TOTP is on.
 */
export async function setupTotp(deps: MfaDeps, userId: string): Promise<TotpSetupResponse> {
  const nickname = await findNickname(deps.db, userId);
  if (nickname === null) throw new AppError('NOT_FOUND', 'User not found');
  const secret = generateSecret();
  if (!(await putPendingTotp(deps.db, userId, sealApiKey(secret, deps.sealingKey)))) {
    throw new AppError('CONFLICT', 'Two-factor authentication is already on');
  }
  const otpauthUrl = generateURI({ ...TOTP, issuer: ISSUER, label: nickname, secret });
  // The QR code library (and its PNG encoder) loads with the first setup, not with every server start.
  const { default: QRCode } = await import('qrcode');
  const qrCode = await QRCode.toDataURL(otpauthUrl, { errorCorrectionLevel: 'M', margin: 2, width: 240 });
  return {
    secret,
    otpauthUrl,
    qrCode,
    message: 'Scan the code with your authenticator app, then enter the code it shows',
  };
}

/**
 * `POST mfa/totp/enable {code}` (DESIGN §11.1): a code of the pending secret turns TOTP on and answers ten
 * recovery codes, shown this once. 409 without a pending secret or when TOTP is on; 400 `Invalid code`.
 */
export async function enableTotpWithCode(deps: MfaDeps, userId: string, code: string): Promise<RecoveryCodesResponse> {
  const totp = await findTotp(deps.db, userId);
  if (totp?.enabled) throw new AppError('CONFLICT', 'Two-factor authentication is already on');
  if (!totp) throw new AppError('CONFLICT', 'Set up two-factor authentication first');
  const recoveryCodes = await inTransaction(deps.db, async (tx) => {
    if (!(await useCode(deps, tx, userId, code, true))) return null;
    await enableTotp(tx, userId);
    return newRecoveryCodes(deps, tx, userId);
  });
  if (!recoveryCodes) throw new AppError('VALIDATION', MESSAGES.invalidCode);
  return {
    recoveryCodes,
    message: 'Two-factor authentication is on. Keep your recovery codes somewhere safe',
  };
}

/** 409 unless a member has TOTP on. */
async function requireTotpOn(deps: MfaDeps, userId: string): Promise<void> {
  if (!(await isTotpOn(deps.db, userId))) throw new AppError('CONFLICT', 'Two-factor authentication is off');
}

/**
 * `POST mfa/totp/disable {code}` (DESIGN §11.1): a code (or recovery code) turns TOTP off and removes the
 * recovery codes; withdrawals pause for `securityHoldHours` (DESIGN §11.2) and the owner's `security`
 * notification is written (DESIGN §11.3), in the same transaction. 409
 * when TOTP is off; 400 `Invalid code`.
 */
export async function disableTotp(
  deps: MfaDeps,
  userId: string,
  code: string,
  client: SignInClient,
): Promise<{ message: string }> {
  await requireTotpOn(deps, userId);
  const changes = new LiveChanges();
  const done = await inTransaction(deps.db, async (tx) => {
    if (!(await useCode(deps, tx, userId, code))) return false;
    await deleteTotp(tx, userId);
    await holdWithdrawals(tx, userId, deps.securityHoldHours, 'two-factor off');
    await deps.securityNotices?.write(tx, changes, userId, 'mfa-off', client);
    return true;
  });
  if (!done) throw new AppError('VALIDATION', MESSAGES.invalidCode);
  deps.securityNotices?.publish(changes);
  deps.events.emit('totpOff', userId, client);
  return { message: 'Two-factor authentication is off' };
}

/**
 * `POST mfa/recoveryCodes {code}` (DESIGN §11.1): a new set of ten recovery codes; the old set stops
 * working. 409 when TOTP is off; 400 `Invalid code`.
 */
export async function regenerateRecoveryCodes(
  deps: MfaDeps,
  userId: string,
  code: string,
): Promise<RecoveryCodesResponse> {
  await requireTotpOn(deps, userId);
  const recoveryCodes = await inTransaction(deps.db, async (tx) => {
    if (!(await useCode(deps, tx, userId, code))) return null;
    return newRecoveryCodes(deps, tx, userId);
  });
  if (!recoveryCodes) throw new AppError('VALIDATION', MESSAGES.invalidCode);
  return { recoveryCodes, message: 'New recovery codes are ready; the old ones no longer work' };
}

/**
 * Step-up (DESIGN §11.1): what a stolen session must not do alone (withdraw, a new API key, a new e-mail
 * or password) needs a second-factor code when the account has one. No TOTP: passes. Otherwise without
 * `mfaCode` 403 `Two-factor code required`, wrong 400 `Invalid code`, 429 past the limit; a right code
 * (or recovery code) passes and is used up. Call it before any write of the guarded action. Whether TOTP is on
 * comes from `auth.totpOn` (read with the session) when present. `exempt`, asked only when a code is due,
 * passes a request that needs none (a retry replaying a completed answer).
 */
export async function requireStepUp(
  deps: MfaDeps,
  auth: { id: string; totpOn?: boolean },
  mfaCode: string | undefined,
  exempt?: () => Promise<boolean>,
): Promise<void> {
  if (!(auth.totpOn ?? (await isTotpOn(deps.db, auth.id)))) return;
  if (exempt && (await exempt())) return;
  if (mfaCode === undefined || mfaCode.trim() === '') throw new AppError('FORBIDDEN', MESSAGES.codeRequired);
  if (!(await useCode(deps, deps.db, auth.id, mfaCode))) throw new AppError('VALIDATION', MESSAGES.invalidCode);
}

/**
 * Turns a member's authenticator app off and removes its recovery codes, inside the caller's transaction
 * (the admin's `resetUserMfa`, DESIGN §11.1), and pauses their withdrawals for `securityHoldHours`
 * (two-factor turned off, DESIGN §11.2). True when TOTP was on or being set up.
 */
export async function resetTotp(deps: Pick<MfaDeps, 'securityHoldHours'>, tx: Tx, userId: string): Promise<boolean> {
  const had = (await findTotp(tx, userId)) !== null;
  await deleteTotp(tx, userId);
  await holdWithdrawals(tx, userId, deps.securityHoldHours, 'two-factor off');
  return had;
}
