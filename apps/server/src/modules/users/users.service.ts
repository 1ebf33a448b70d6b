/** Accounts (SPEC §2 register/login, §5, §6; DESIGN §8): sign-up, sign-in, sessions, profile. */
import { hash, verify } from '@node-rs/argon2';
import {
  AppError,
  type AuthResponse,
  type LoginInput,
  type LoginResponse,
  MESSAGES,
  type RegisterInput,
  type User as UserDto,
} from '@starlight/shared';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { FailureCounter } from '../../lib/failure-counter.ts';
import type { Mailer } from '../../lib/mailer.ts';
import { consent } from '../capp/capp.service.ts';
import {
  bumpTokenVersion,
  findUserByEmail,
  findUserByNickname,
  insertAccessLog,
  insertUser,
  loadUserDto,
  type UserRow,
} from './users.queries.ts';

/** A hash to verify against when the account does not exist, so both answers take as long. */
let dummyHash: Promise<string> | undefined;

/** SPEC §3 access log login types. */
export const LOGIN_TYPE = { Email: 1, Wallet: 2, CAppEmail: 3, CAppWallet: 4 } as const;

/** Hashes a password with argon2id, @node-rs/argon2's default algorithm (DESIGN §8). */
export function hashPassword(password: string): Promise<string> {
  return hash(password);
}

export interface UsersDeps {
  db: Db;
  app: FastifyInstance;
  failures: FailureCounter;
  maxLoginFailures: number;
  mailer: Mailer;
  /** The site's public origin (DESIGN §2 `PUBLIC_URL`): mail links and the SIWE domain and URI. */
  publicUrl: string;
}

/**
 * Signs a 24-hour session for `row` and answers `{user, token, message}` with the account as the wire
 * shows it (DESIGN §3). Throws NOT_FOUND if the account vanished meanwhile. Shared by every sign-in.
 */
export async function session(deps: UsersDeps, row: UserRow, message: string): Promise<AuthResponse> {
  const { token } = await deps.app.signSession(row);
  const user = await loadUserDto(deps.db, row.id);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return { user, token, message };
}

/**
 * Registers an account (SPEC §2 Register) and signs it in: `{user, token, message}`.
 * Throws CONFLICT when the nickname or e-mail is taken, VALIDATION for an unknown referrer.
 */
export async function register(deps: UsersDeps, input: RegisterInput, address: string): Promise<AuthResponse> {
  if (await findUserByNickname(deps.db, input.nickname)) throw new AppError('CONFLICT', 'Nickname already taken');
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
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Email);
  return session(deps, row, `Welcome to Starlight, ${row.nickname}`);
}

/** Failed sign-ins one address may make across every account, as a multiple of the per-account limit. */
const ADDRESS_FAILURES_FACTOR = 5;

/**
 * Signs in by nickname or e-mail (SPEC §7 login). Unknown account and wrong password both answer
 * 401 `Incorrect password`; an inactive account 403. Too many failures answer 429: for the account from
 * this address (`maxLoginFailures`), or from this address whatever the account (5x that). Failures are
 * never counted per account alone, so a stranger's guesses cannot lock the owner out from elsewhere.
 * With `cAppAuthRequest` the sign-in grants a creator app's consent request instead of opening a
 * session (DESIGN §7, access log type 3): `{url, message}`, see `capp.service.ts` `consent`.
 */
export async function login(deps: UsersDeps, input: LoginInput, address: string): Promise<LoginResponse> {
  const name = input.nickOrEmail.trim().toLowerCase();
  const row = name.includes('@') ? await findUserByEmail(deps.db, name) : await findUserByNickname(deps.db, name);
  // Failures count per account and address (DESIGN §8), whichever of nickname or e-mail was typed, and
  // per address across accounts.
  const key = `${row ? `user:${row.id}` : `name:${name}`}|addr:${address}`;
  const addressKey = `addr:${address}`;
  const [forAccount, forAddress] = await Promise.all([deps.failures.count(key), deps.failures.count(addressKey)]);
  if (forAccount >= deps.maxLoginFailures || forAddress >= deps.maxLoginFailures * ADDRESS_FAILURES_FACTOR) {
    throw new AppError('RATE_LIMITED', 'Too many failed sign-ins, please try again in 15 minutes');
  }
  dummyHash ??= hashPassword('Not-a-real-password-1!');
  const ok = await verify(row?.passwordHash ?? (await dummyHash), input.password).catch(() => false);
  if (!row?.passwordHash || !ok) {
    await Promise.all([deps.failures.record(key), deps.failures.record(addressKey)]);
    throw new AppError('UNAUTHORIZED', MESSAGES.incorrectPassword);
  }
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  await deps.failures.reset(key);
  if (input.cAppAuthRequest) return consent(deps.db, row.id, input.cAppAuthRequest, address, LOGIN_TYPE.CAppEmail);
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Email);
  return session(deps, row, `Welcome back, ${row.nickname}`);
}

/**
 * Ends every session of the account on the server (DESIGN §3 logout): its tokens stop working, and the
 * sockets signed in with them are closed on every server process (`sessions.end`).
 */
export async function logout(
  db: Db,
  sessions: { end(userId: string, tokenVersion: number): Promise<void> },
  userId: string,
): Promise<{ message: string }> {
  await sessions.end(userId, await bumpTokenVersion(db, userId));
  return { message: MESSAGES.loggedOut };
}

/** The signed-in account with fresh balances. Throws NOT_FOUND if it vanished. */
export async function me(db: Db, userId: string): Promise<UserDto> {
  const user = await loadUserDto(db, userId);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  return user;
}
