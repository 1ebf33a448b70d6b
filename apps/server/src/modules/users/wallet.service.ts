/**
 * Wallet sign-in (SPEC §2 "Wallet flow", §7 getNoncedMessage / registerWallet / loginWallet, §8 wallet
 * messages; DESIGN §8): Sign-In with Ethereum (EIP-4361) made and checked with `viem/siwe`. The server
 * issues a message with a single-use nonce of 128 CSPRNG bits that lives 10 minutes; the wallet signs it
 * (`personal_sign`); the signature is checked offline against the wallet's address (EOA signatures, no
 * RPC call).
 * Nobody but the wallet can spoil its sign-in: a wallet keeps several live nonces, a request for a new one
 * pushes out only an older one of the same requester (client address key, an IPv6 /64), and a nonce is
 * used up only by a valid signature of it, so a bogus one consumes nothing. Addresses that have not
 * signed in to the wallet's account hold at most `STRANGER_NONCES_PER_WALLET` live nonces of it together;
 * the account's known addresses are never refused. Nonce requests per address: the route's limit.
 */
import { randomBytes } from 'node:crypto';
import {
  AppError,
  type AuthResponse,
  type LoginResponse,
  type LoginWalletRequest,
  type NoncedMessageRequest,
  type NoncedMessageResponse,
  type RegisterWalletRequest,
} from '@starlight/shared';
import type { Address } from 'viem';
import { isUniqueViolation, sqlErrorOf } from '../../db/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { clientAddressKey } from '../../lib/client-address.ts';
import { onFirstUse } from '../../lib/on-first-use.ts';
import { findUserByNickname, insertAccessLog, insertUser, type UserRow } from '../accounts/accounts.public.ts';
import { consent } from '../capp/capp.service.ts';
import { hasTotp, startSignInChallenge } from '../mfa/mfa.public.ts';
import { isKnownAddress, LOGIN_TYPE, rememberAddress, session, type UsersDeps } from './users.service.ts';
import {
  deleteExpiredNonces,
  findUserByWallet,
  insertWalletNonce,
  type LiveNonce,
  liveNonces,
  lockWalletNonces,
  takeNonce,
} from './wallet.queries.ts';

/** SPEC §8: the one answer to every refused wallet sign-in, whatever the reason. */
export const WALLET_AUTH_FAILED = 'Wallet Authentication: Failed';

/** DESIGN §8: a nonce (and the message carrying it) expires 10 minutes after issue. */
export const NONCE_TTL_MS = 10 * 60 * 1000;

/** Live nonces one requester (client address key) holds for one wallet: a further request replaces its oldest. */
export const NONCES_PER_REQUESTER = 3;

/**
 * Live nonces a wallet holds, together, from addresses that have not signed in to its account: past it a
 * new such requester gets 429 until one is used or expires. Its known addresses are not counted.
 */
export const STRANGER_NONCES_PER_WALLET = 5;

/** Live nonces of a wallet a signature is checked against, newest first. */
const NONCES_CHECKED = 16;

/** Live nonces of a wallet read to decide an issue: more than it can hold from its requesters in practice. */
const NONCES_READ = 200;

/** The answer when a wallet's nonces for strangers are all taken. */
const TOO_MANY_NONCES = 'Too many sign-in requests for this wallet, please try again in a few minutes';

/** The statement shown in the wallet above the EIP-4361 fields. */
const STATEMENT = 'Sign in to Starlight.';

/** Attempts at a free generated nickname before giving up. */
const NICKNAME_ATTEMPTS = 5;

/** viem and its SIWE helpers, loaded with the first wallet call rather than at start (a cost every start paid). */
const viem = onFirstUse(async () => {
  const [core, siwe] = await Promise.all([import('viem'), import('viem/siwe')]);
  return { ...siwe, getAddress: core.getAddress, isAddress: core.isAddress, verifyMessage: core.verifyMessage };
});

/**
 * The EIP-55 checksummed form of a wallet address; throws VALIDATION
 * `"walletAddress" contains an invalid value` when it is not 20 bytes of hex (SPEC §5's form).
 */
async function checksummedAddress(walletAddress: string): Promise<Address> {
  const { isAddress, getAddress } = await viem();
  if (!isAddress(walletAddress, { strict: false })) {
    throw new AppError('VALIDATION', '"walletAddress" contains an invalid value');
  }
  return getAddress(walletAddress);
}

/**
 * A fresh SIWE nonce: 128 bits from the CSPRNG as 32 hex digits (EIP-4361 asks for at least 8
 * alphanumeric characters). viem's `generateSiweNonce` is not used: it draws on `Math.random()`.
 */
export function newSiweNonce(): string {
  return randomBytes(16).toString('hex');
}

/**
 * The nonces to drop so that `requester` may hold one more live nonce of the wallet whose live nonces are
 * `live` (newest first): its own beyond the newest `NONCES_PER_REQUESTER - 1`, and for a requester the
 * account does not know, its own oldest stranger's one when strangers hold `STRANGER_NONCES_PER_WALLET`.
 * Null when there is no room for it (strangers hold them all, none of them its own).
 */
function nonceEvictions(live: readonly LiveNonce[], requester: string, known: boolean): string[] | null {
  const own = live.filter((n) => n.requester === requester);
  const evict = own.slice(NONCES_PER_REQUESTER - 1);
  if (!known) {
    const kept = (n: LiveNonce) => !n.known && !evict.includes(n);
    if (live.filter(kept).length >= STRANGER_NONCES_PER_WALLET) {
      const oldest = own.filter(kept).at(-1);
      if (!oldest) return null;
      evict.push(oldest);
    }
  }
  return evict.map((n) => n.nonce);
}

/**
 * `getNoncedMessage {walletAddress}` (SPEC §7, DESIGN §8): builds the EIP-4361 message for the wallet
 * (domain and URI from `PUBLIC_URL`, chain 1, a fresh nonce, expiring in 10 minutes), stores it as one
 * of the wallet's live nonces, issued to `address` (the client's), and answers `{messageToSign,
 * message}`. The wallet's other live nonces stay usable, but for `address`'s own oldest past
 * `NONCES_PER_REQUESTER`. Throws VALIDATION for a non-hex address, 429 when `address` has not signed in
 * to the wallet's account and strangers hold `STRANGER_NONCES_PER_WALLET` live nonces of it already.
 */
export async function getNoncedMessage(
  deps: UsersDeps,
  input: NoncedMessageRequest,
  address: string,
): Promise<NoncedMessageResponse> {
  const checksummed = await checksummedAddress(input.walletAddress);
  const wallet = input.walletAddress.toLowerCase();
  const account = await findUserByWallet(deps.db, wallet);
  const known = account ? await isKnownAddress(deps, account.id, address) : false;
  const { createSiweMessage } = await viem();
  const url = new URL(deps.publicUrl);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_MS);
  const nonce = newSiweNonce();
  const messageToSign = createSiweMessage({
    domain: url.host,
    uri: deps.publicUrl,
    address: checksummed,
    statement: STATEMENT,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt,
    expirationTime: expiresAt,
  });
  const requester = clientAddressKey(address);
  await deleteExpiredNonces(deps.db);
  const issued = await inTransaction(deps.db, async (tx) => {
    await lockWalletNonces(tx, wallet);
    const evict = nonceEvictions(await liveNonces(tx, wallet, NONCES_READ), requester, known);
    if (!evict) return false;
    await insertWalletNonce(
      tx,
      { nonce, walletAddress: wallet, message: messageToSign, requester, known, expiresAt },
      evict,
    );
    return true;
  });
  if (!issued) throw new AppError('RATE_LIMITED', TOO_MANY_NONCES);
  return { messageToSign, message: 'Sign the message with your wallet to continue' };
}

/**
 * Finds the live message issued for the wallet that `signature` signs and uses it up (deleted, so neither
 * it nor its signature works again); the wallet's other live messages stay, and a signature of none of
 * them uses up nothing. The message must be ours (domain and URI of `PUBLIC_URL`), for this address,
 * with its stored nonce, inside its validity window, and signed by the wallet's key. Any failure throws
 * 401 `Wallet Authentication: Failed`, and so does a signature whose message another request used first.
 */
async function verifyWalletSignature(deps: UsersDeps, walletAddress: string, signature: `0x${string}`): Promise<void> {
  const address = await checksummedAddress(walletAddress);
  const wallet = walletAddress.toLowerCase();
  const { parseSiweMessage, validateSiweMessage, verifyMessage } = await viem();
  const domain = new URL(deps.publicUrl).host;
  const signs = async (issued: LiveNonce): Promise<boolean> => {
    try {
      const fields = parseSiweMessage(issued.message);
      return (
        fields.uri === deps.publicUrl &&
        validateSiweMessage({ message: fields, address, domain, nonce: issued.nonce, time: new Date() }) &&
        (await verifyMessage({ address, message: issued.message, signature }))
      );
    } catch {
      return false;
    }
  };
  for (const issued of await liveNonces(deps.db, wallet, NONCES_CHECKED)) {
    if ((await signs(issued)) && (await takeNonce(deps.db, wallet, issued.nonce))) return;
  }
  throw new AppError('UNAUTHORIZED', WALLET_AUTH_FAILED);
}

/** Candidate nicknames for a wallet account: `w` and the address's first 10 hex digits, then with random hex. */
function walletNickname(walletAddress: string, attempt: number): string {
  const hex = walletAddress.toLowerCase().replace(/^0x/, '');
  const base = `w${hex.slice(0, 10)}`;
  if (attempt === 0) return base;
  const extra = Math.floor(Math.random() * 0xffffff)
    .toString(16)
    .padStart(6, '0');
  return `${base}${extra}`;
}

/**
 * `registerWallet {walletAddress, signature, referrer?}` (SPEC §7, DESIGN §8): after the signature
 * checks out, creates a wallet-only account (no e-mail, no password, `primaryWallet` lowercased) with a
 * generated nickname the member can change later, logs the sign-in (type 2), makes `address` known to
 * the account (`rememberAddress`) and answers `{user, token, message}`. Throws 401 `Wallet
 * Authentication: Failed` for a bad signature or nonce, 409 when the wallet already has an account, 400
 * for an unknown referrer.
 */
export async function registerWallet(
  deps: UsersDeps,
  input: RegisterWalletRequest,
  client: SignInClient,
): Promise<AuthResponse> {
  const { address } = client;
  const wallet = input.walletAddress.toLowerCase();
  await verifyWalletSignature(deps, wallet, input.signature as `0x${string}`);
  if (await findUserByWallet(deps.db, wallet)) throw new AppError('CONFLICT', 'Wallet already registered');
  let referrerId: string | null = null;
  if (input.referrer) {
    const referrer = await findUserByNickname(deps.db, input.referrer);
    if (!referrer) throw new AppError('VALIDATION', '"referrer" contains an invalid value');
    referrerId = referrer.id;
  }
  let row: UserRow | null = null;
  for (let attempt = 0; attempt < NICKNAME_ATTEMPTS && !row; attempt++) {
    const nickname = walletNickname(wallet, attempt);
    if (await findUserByNickname(deps.db, nickname)) continue;
    try {
      row = await insertUser(deps.db, {
        nickname,
        email: null,
        passwordHash: null,
        primaryWallet: wallet,
        isWalletOnly: true,
        referrerId,
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      // Two registrations of one wallet racing: the unique index on primary_wallet decides.
      if (sqlErrorOf(err).constraint === 'users_primary_wallet' || (await findUserByWallet(deps.db, wallet))) {
        throw new AppError('CONFLICT', 'Wallet already registered');
      }
      // Otherwise the nickname was taken meanwhile: try another.
    }
  }
  if (!row) throw new AppError('CONFLICT', 'Could not find a free nickname, please try again');
  await Promise.all([
    insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Wallet),
    rememberAddress(deps, row.id, address),
  ]);
  return session(deps, row, `Welcome to Starlight, ${row.nickname}`, client, false, { newAccount: true });
}

/**
 * `loginWallet {walletAddress, signature, cAppAuthRequest?}` (SPEC §7, DESIGN §8): after the signature
 * checks out, signs in the account whose primary wallet it is, makes `address` known to it
 * (`rememberAddress`), logs the sign-in (type 2) and answers `{user, token, message}`. Throws 401
 * `Wallet Authentication: Failed` for a bad signature or nonce and for a wallet without an account, 403
 * `Your account is disabled` for an inactive account.
 * With `cAppAuthRequest` it grants a creator app's consent request instead of opening a session
 * (DESIGN §7, access log type 4): `{url, message}`, see `capp.service.ts` `consent`.
 * An account with TOTP on gets `{mfaRequired, mfaToken, message}` first (DESIGN §11.1, `loginMfa`).
 */
export async function loginWallet(
  deps: UsersDeps,
  input: LoginWalletRequest,
  client: SignInClient,
): Promise<LoginResponse> {
  const { address } = client;
  const wallet = input.walletAddress.toLowerCase();
  await verifyWalletSignature(deps, wallet, input.signature as `0x${string}`);
  const row = await findUserByWallet(deps.db, wallet);
  if (!row) throw new AppError('UNAUTHORIZED', WALLET_AUTH_FAILED);
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  await rememberAddress(deps, row.id, address);
  if (await hasTotp(deps.mfa, row.id)) {
    return startSignInChallenge(deps.mfa, {
      userId: row.id,
      loginType: LOGIN_TYPE.Wallet,
      cAppAuthRequest: input.cAppAuthRequest ?? null,
    });
  }
  if (input.cAppAuthRequest) return consent(deps.db, row.id, input.cAppAuthRequest, address, LOGIN_TYPE.CAppWallet);
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Wallet);
  return session(deps, row, `Welcome back, ${row.nickname}`, client);
}
