/** Accounts (SPEC §2 register/login, §5, §6; DESIGN §8): sign-up, sign-in, sessions, profile. */
import {
  AppError,
  type AuthResponse,
  type LoginInput,
  type LoginMfaRequest,
  type LoginResponse,
  MESSAGES,
  type MeResponse,
  type RegisterInput,
} from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { AuthUser } from '../../http/access.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { clientAddressKey } from '../../lib/client-address.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { hashPassword, verifyPassword } from '../../lib/passwords.ts';
import {
  findUserById,
  findUserByNickname,
  insertAccessLog,
  insertUser,
  loadUserDto,
  SALE_NICKNAME,
  type UserRow,
} from '../accounts/accounts.public.ts';
import { consent } from '../capp/capp.service.ts';
import { hasTotp, type MfaDeps, redeemSignInChallenge, startSignInChallenge } from '../mfa/mfa.public.ts';
import { mailSignInLinkLater } from './mail-links.ts';
import { mailNewSignInLater, securityEventOf } from './security-mails.ts';
import { hasSessionFrom } from './sessions.queries.ts';
import { logoutSession, startSession } from './sessions.service.ts';
import { findUserByEmail } from './users.queries.ts';

/** A hash to verify against when the account does not exist, so both answers take as long. */
let dummyHash: Promise<string> | undefined;

/** SPEC §3 access log login types. */
export const LOGIN_TYPE = { Email: 1, Wallet: 2, CAppEmail: 3, CAppWallet: 4 } as const;

export interface UsersDeps {
  db: Db;
  /** Lag-tolerant reads, a standby when there is one: the admin's user list and stats. */
  readDb: Db;
  app: FastifyInstance;
  /** Sign-in failures and the addresses known to each account (`lib/failure-counter.ts`). */
  failures: FailureCounter;
  /** Failed sign-ins per account and address per 15 minutes (`RATE_LIMIT_LOGIN_FAILURES`). */
  maxLoginFailures: number;
  /** Failed sign-ins per account per hour from unknown addresses (`RATE_LIMIT_ACCOUNT_FAILURES`). */
  maxAccountFailures: number;
  /** Mails sent per kind and recipient in the current hour. */
  mailsSent: FailureCounter;
  /** Mails of one kind to one address per hour (`RATE_LIMIT_MAILS`). */
  maxMailsPerRecipient: number;
  mailer: Mailer;
  /** The site's public origin (DESIGN §2 `PUBLIC_URL`): mail links and the SIWE domain and URI. */
  publicUrl: string;
  /** `ADMIN_MFA` (DESIGN §11.1): whether the admin console needs a session that passed a second factor. */
  adminMfa: 'required' | 'optional';
  /** Second factors: the sign-in challenge and the step-up (DESIGN §11.1). */
  mfa: MfaDeps;
}

/**
 * Starts a 24-hour session for `row` from `client` (`startSession`) and answers `{user, token, message}` with the account as the wire
 * shows it (DESIGN §3). Throws NOT_FOUND if the account vanished meanwhile. Shared by every sign-in.
 * A sign-in from a device and address the account has no earlier session from mails its owner (DESIGN
 * §11.1, `mailNewSignInLater`); a registration (`newAccount`) does not.
 */
export async function session(
  deps: UsersDeps,
  row: UserRow,
  message: string,
  client: SignInClient,
  secondFactor = false,
  options: { newAccount?: boolean } = {},
): Promise<AuthResponse> {
  const event = securityEventOf(client);
  const seen = options.newAccount || (await hasSessionFrom(deps.db, row.id, event.device, event.address));
  const token = await startSession(deps, row, client, secondFactor, seen ? null : event);
  if (!seen) mailNewSignInLater(deps, row, event);
  const user = await loadUserDto(deps.db, row.id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return { user, token, message };
}

/**
 * Nicknames no member may take, in any case: `Anonymous`, which the leaderboard shows in place of a
 * private member (DESIGN §6), and the system accounts' (`users.is_system`: the chip sale's `synthsale`).
 */
const RESERVED_NICKNAMES = new Set(['anonymous', SALE_NICKNAME.toLowerCase()]);

/**
 * Whether `nickname` is reserved (any case). Every path that sets a nickname refuses it as taken: 409
 * `Nickname already taken` (SPEC §5 style), the answer a member's nickname gets, since it is one in use.
 */
export function isReservedNickname(nickname: string): boolean {
  return RESERVED_NICKNAMES.has(nickname.toLowerCase());
}

/**
 * Registers an account (SPEC §2 Register) and signs it in: `{user, token, message}`.
 * Throws CONFLICT when the nickname (or a reserved one, `isReservedNickname`) or e-mail is taken,
 * VALIDATION for an unknown referrer.
 */
export async function register(deps: UsersDeps, input: RegisterInput, client: SignInClient): Promise<AuthResponse> {
  const { address } = client;
  if (isReservedNickname(input.nickname) || (await findUserByNickname(deps.db, input.nickname))) {
    throw new AppError('CONFLICT', 'Nickname already taken');
  }
  if (await findUserByEmail(deps.db, input.email)) throw new AppError('CONFLICT', 'Email already registered');
  let referrerId: string | null = null;
  if (input.referrer) {
    const referrer = await findUserByNickname(deps.db, input.referrer);
    if (!referrer) throw new AppError('VALIDATION', '"referrer" contains an invalid value');
    referrerId = referrer.id;
  }
  const passwordHash = await hashPassword(input.password);
  let row: UserRow;
  try {
    row = await insertUser(deps.db, { nickname: input.nickname, email: input.email, passwordHash, referrerId });
  } catch (err) {
    // Two registrations racing for one nickname: the unique index decides.
    if (isUniqueViolation(err)) {
      throw new AppError('CONFLICT', 'Nickname or email already taken');
    }
    throw err;
  }
  await Promise.all([
    insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Email),
    rememberAddress(deps, row.id, address),
  ]);
  return session(deps, row, `Welcome to Starlight, ${row.nickname}`, client, false, { newAccount: true });
}

/** Failed sign-ins one address may make across every account, as a multiple of the per-account limit. */
const ADDRESS_FAILURES_FACTOR = 5;
/** The window of the per-account limit: an hour, as ASVS 6.3.1 counts. */
const ACCOUNT_WINDOW_MS = 60 * 60 * 1000;
/** How long an address that signed in to an account stays known to it: 30 days. */
export const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60 * 1000;

/**
 * The failure-counter key of an account and address: the account by id, or by the name typed when unknown;
 * the address by `clientAddressKey` (an IPv6 one by its /64).
 */
function accountAddressKey(account: string, address: string): string {
  return `${account}|addr:${clientAddressKey(address)}`;
}

/**
 * Records that `address` proved it holds account `userId` (a right password, a registration, a reset
 * link): it is known to the account for 30 days, so the per-account limit does not refuse it, and its
 * failures on the account are forgotten.
 */
export async function rememberAddress(deps: UsersDeps, userId: string, address: string): Promise<void> {
  const key = accountAddressKey(`user:${userId}`, address);
  await Promise.all([deps.failures.reset(key), deps.failures.mark(`known:${key}`, KNOWN_ADDRESS_MS)]);
}

/** Whether `address` is known to account `userId` (`rememberAddress` in the last 30 days), its /64 for IPv6. */
export async function isKnownAddress(deps: UsersDeps, userId: string, address: string): Promise<boolean> {
  return deps.failures.isMarked(`known:${accountAddressKey(`user:${userId}`, address)}`);
}

/**
 * The answer of a sign-in that a limit stopped (429), the same whatever the password: a right one gets a
 * mailed sign-in link (`mailSignInLinkLater`), so the owner is never left at a dead end.
 */
export const SIGN_IN_LINK_MESSAGE =
  "Too many failed sign-ins. If the password is right, we have sent a sign-in link to the account's e-mail";

/** The answer of a password re-check refused by the account's budget (429, `recheckPassword`). */
export const RECHECKS_THROTTLED_MESSAGE =
  'Too many wrong passwords for this account, please try again later or reset your password';

/** The counter key of an account's budget of password checks (per hour, `maxAccountFailures`). */
function budgetKey(account: string): string {
  return `account:${account}`;
}

/**
 * Reserves one check of the account's password in its hourly budget, atomically in the shared counter so
 * concurrent checks cannot overrun it. False (and nothing reserved) when the budget is spent.
 */
async function reserveCheck(deps: UsersDeps, account: string): Promise<boolean> {
  if ((await deps.failures.record(budgetKey(account), ACCOUNT_WINDOW_MS)) <= deps.maxAccountFailures) return true;
  await deps.failures.undo(budgetKey(account));
  return false;
}

/**
 * Signs in by nickname or e-mail (SPEC §7 login). Unknown account and wrong password both answer
 * 401 `Incorrect password`; an inactive account 403. Failures are limited three ways (DESIGN §8,
 * ASVS 6.3.1), whichever of nickname or e-mail was typed:
 * - per account and address, `maxLoginFailures` per 15 minutes;
 * - per address whatever the account, 5x that;
 * - per account whatever the address, `maxAccountFailures` checks of a wrong password per hour (the
 *   budget `recheckPassword` spends too) from addresses the account has not signed in from in 30 days.
 *   Each check is reserved atomically in the shared counter before it is made, so concurrent guesses
 *   cannot overrun it. An address the owner signed in from (or registered, reset the password or
 *   followed a sign-in link from) is known and not stopped by it.
 * A sign-in a limit stops answers 429 `SIGN_IN_LINK_MESSAGE` whatever the password, so past the limits
 * no answer tells a guesser anything; when the password is right and the account active, the account's
 * e-mail gets a single-use sign-in link (`mailSignInLinkLater`, after the response, at most
 * `maxMailsPerRecipient` an hour; followed with `loginWithLink`), so the owner is never locked out.
 * With `cAppAuthRequest` the sign-in grants a creator app's consent request instead of opening a
 * session (DESIGN §7, access log type 3): `{url, message}`, see `capp.service.ts` `consent`.
 * An account with TOTP on gets no session yet: `{mfaRequired, mfaToken, message}` (DESIGN §11.1), and
 * `loginMfa` finishes the sign-in with a code.
 */
export async function login(deps: UsersDeps, input: LoginInput, client: SignInClient): Promise<LoginResponse> {
  const { address } = client;
  const name = input.nickOrEmail.trim().toLowerCase();
  const row = name.includes('@') ? await findUserByEmail(deps.db, name) : await findUserByNickname(deps.db, name);
  const account = row ? `user:${row.id}` : `name:${name}`;
  const key = accountAddressKey(account, address);
  const addressKey = `addr:${clientAddressKey(address)}`;
  const [forPair, forAddress, known] = await Promise.all([
    deps.failures.count(key),
    deps.failures.count(addressKey),
    row ? deps.failures.isMarked(`known:${key}`) : false,
  ]);
  const stopped =
    forPair >= deps.maxLoginFailures ||
    forAddress >= deps.maxLoginFailures * ADDRESS_FAILURES_FACTOR ||
    (!known && !(await reserveCheck(deps, account)));
  dummyHash ??= hashPassword('Not-a-real-password-1!');
  const ok = await verifyPassword(row?.passwordHash ?? (await dummyHash), input.password);
  if (stopped) {
    if (ok && row?.passwordHash && row.isActive) mailSignInLinkLater(deps, row);
    throw new AppError('RATE_LIMITED', SIGN_IN_LINK_MESSAGE);
  }
  if (!row?.passwordHash || !ok) {
    await Promise.all([deps.failures.record(key), deps.failures.record(addressKey)]);
    throw new AppError('UNAUTHORIZED', MESSAGES.incorrectPassword);
  }
  // The right password is no failure: its reserved check is given back.
  if (!known) await deps.failures.undo(budgetKey(account));
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  await rememberAddress(deps, row.id, address);
  if (await hasTotp(deps.mfa, row.id)) {
    return startSignInChallenge(deps.mfa, {
      userId: row.id,
      loginType: LOGIN_TYPE.Email,
      cAppAuthRequest: input.cAppAuthRequest ?? null,
    });
  }
  if (input.cAppAuthRequest) return consent(deps.db, row.id, input.cAppAuthRequest, address, LOGIN_TYPE.CAppEmail);
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Email);
  return session(deps, row, `Welcome back, ${row.nickname}`, client);
}

/**
 * `login/mfa {mfaToken, code, cAppAuthRequest?}` (DESIGN §11.1): finishes a sign-in that waited on a second
 * factor (`redeemSignInChallenge`: 401 for a dead token, 400 `Invalid code`, 429) and answers as `login`
 * or `loginWallet` would: a session marked as having passed a second factor, or, with the creator app's
 * request (this one's, else the sign-in's), its `{url, message}`. 403 for an account disabled meanwhile.
 */
export async function loginMfa(deps: UsersDeps, input: LoginMfaRequest, client: SignInClient): Promise<LoginResponse> {
  const challenge = await redeemSignInChallenge(deps.mfa, input.mfaToken, input.code);
  const row = await findUserById(deps.db, challenge.userId);
  if (!row) throw new AppError('UNAUTHORIZED', MESSAGES.mfaTokenInvalid);
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  const wallet = challenge.loginType === LOGIN_TYPE.Wallet;
  const cAppAuthRequest = input.cAppAuthRequest ?? challenge.cAppAuthRequest;
  if (cAppAuthRequest) {
    return consent(
      deps.db,
      row.id,
      cAppAuthRequest,
      client.address,
      wallet ? LOGIN_TYPE.CAppWallet : LOGIN_TYPE.CAppEmail,
    );
  }
  await insertAccessLog(deps.db, row.id, client.address, challenge.loginType);
  return session(deps, row, `Welcome back, ${row.nickname}`, client, true);
}

/**
 * Checks a signed-in member's password again (`updateProfile`'s `currentPassword`, DESIGN §8): every
 * check spends one of the account's hourly budget that sign-in spends (`maxAccountFailures`), a right
 * one gives it back. Throws 429 `RECHECKS_THROTTLED_MESSAGE` without checking when the budget is spent,
 * 401 `Incorrect password` when wrong.
 */
export async function recheckPassword(
  deps: UsersDeps,
  userId: string,
  passwordHash: string,
  password: string,
): Promise<void> {
  const account = `user:${userId}`;
  if (!(await reserveCheck(deps, account))) throw new AppError('RATE_LIMITED', RECHECKS_THROTTLED_MESSAGE);
  if (!(await verifyPassword(passwordHash, password))) throw new AppError('UNAUTHORIZED', MESSAGES.incorrectPassword);
  await deps.failures.undo(budgetKey(account));
}

/**
 * Ends the caller's current session on the server (DESIGN §3 logout, §11.1): its token stops working and
 * the sockets signed in with it close on every server process; the member's other sessions go on.
 */
export async function logout(deps: UsersDeps, auth: AuthUser): Promise<{ message: string }> {
  await logoutSession(deps, auth);
  return { message: MESSAGES.loggedOut };
}

/**
 * `GET me`: the signed-in account with fresh balances and, for a session token, whether the session passed
 * a second factor and whether the admin console needs one (DESIGN §11.1, `ADMIN_MFA`). Throws NOT_FOUND if
 * the account vanished.
 */
export async function me(deps: Pick<UsersDeps, 'db' | 'adminMfa'>, auth: AuthUser): Promise<MeResponse> {
  const user = await loadUserDto(deps.db, auth.id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  if (auth.secondFactor === undefined) return { user, message: 'OK' };
  const adminMfaRequired = user.role === 'admin' && deps.adminMfa === 'required';
  return { user, session: { secondFactor: auth.secondFactor, adminMfaRequired }, message: 'OK' };
}
