/**
 * Wallet sign-in (SPEC §2 "Wallet flow", §7 getNoncedMessage / registerWallet / loginWallet, §8 wallet
 * messages; DESIGN §8): Sign-In with Ethereum (EIP-4361) made and checked with `viem/siwe`. The server
 * issues a message with a single-use nonce that lives 10 minutes; the wallet signs it (`personal_sign`);
 * the signature is checked offline against the wallet's address (EOA signatures, no RPC call).
 */
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
import { onFirstUse } from '../../lib/on-first-use.ts';
import { findUserByNickname, insertAccessLog, insertUser, type UserRow } from '../accounts/accounts.public.ts';
import { consent } from '../capp/capp.service.ts';
import { LOGIN_TYPE, session, type UsersDeps } from './users.service.ts';
import { findUserByWallet, insertWalletNonce, takeLatestNonce } from './wallet.queries.ts';

/** SPEC §8: the one answer to every refused wallet sign-in, whatever the reason. */
export const WALLET_AUTH_FAILED = 'Wallet Authentication: Failed';

/** DESIGN §8: a nonce (and the message carrying it) expires 10 minutes after issue. */
export const NONCE_TTL_MS = 10 * 60 * 1000;

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
 * `getNoncedMessage {walletAddress}` (SPEC §7, DESIGN §8): builds the EIP-4361 message for the wallet
 * (domain and URI from `PUBLIC_URL`, chain 1, a fresh nonce, expiring in 10 minutes), stores it as the
 * wallet's one live nonce and answers `{messageToSign, message}`. Throws VALIDATION for a non-hex address.
 */
export async function getNoncedMessage(deps: UsersDeps, input: NoncedMessageRequest): Promise<NoncedMessageResponse> {
  const address = await checksummedAddress(input.walletAddress);
  const { createSiweMessage, generateSiweNonce } = await viem();
  const url = new URL(deps.publicUrl);
  const issuedAt = new Date();
  const expiresAt = new Date(issuedAt.getTime() + NONCE_TTL_MS);
  const nonce = generateSiweNonce();
  const messageToSign = createSiweMessage({
    domain: url.host,
    uri: deps.publicUrl,
    address,
    statement: STATEMENT,
    version: '1',
    chainId: 1,
    nonce,
    issuedAt,
    expirationTime: expiresAt,
  });
  await insertWalletNonce(deps.db, {
    nonce,
    walletAddress: input.walletAddress.toLowerCase(),
    message: messageToSign,
    expiresAt,
  });
  return { messageToSign, message: 'Sign the message with your wallet to continue' };
}

/**
 * Checks `signature` against the latest live message issued for the wallet and uses that message up
 * (deleted whatever the outcome, so neither it nor its signature works again). The message must be
 * ours (domain and URI of `PUBLIC_URL`), for this address, with its stored nonce, inside its validity
 * window, and signed by the wallet's key. Any failure throws 401 `Wallet Authentication: Failed`.
 */
async function verifyWalletSignature(deps: UsersDeps, walletAddress: string, signature: `0x${string}`): Promise<void> {
  const address = await checksummedAddress(walletAddress);
  const { parseSiweMessage, validateSiweMessage, verifyMessage } = await viem();
  const issued = await takeLatestNonce(deps.db, walletAddress.toLowerCase());
  if (!issued) throw new AppError('UNAUTHORIZED', WALLET_AUTH_FAILED);
  let ok = false;
  try {
    const fields = parseSiweMessage(issued.message);
    ok =
      fields.uri === deps.publicUrl &&
      validateSiweMessage({
        message: fields,
        address,
        domain: new URL(deps.publicUrl).host,
        nonce: issued.nonce,
        time: new Date(),
      }) &&
      (await verifyMessage({ address, message: issued.message, signature }));
  } catch {
    ok = false;
  }
  if (!ok) throw new AppError('UNAUTHORIZED', WALLET_AUTH_FAILED);
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
 * generated nickname the member can change later, logs the sign-in (type 2) and answers
 * `{user, token, message}`. Throws 401 `Wallet Authentication: Failed` for a bad signature or nonce,
 * 409 when the wallet already has an account, 400 for an unknown referrer.
 */
export async function registerWallet(
  deps: UsersDeps,
  input: RegisterWalletRequest,
  address: string,
): Promise<AuthResponse> {
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
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Wallet);
  return session(deps, row, `Welcome to Starlight, ${row.nickname}`);
}

/**
 * `loginWallet {walletAddress, signature, cAppAuthRequest?}` (SPEC §7, DESIGN §8): after the signature
 * checks out, signs in the account whose primary wallet it is, logs the sign-in (type 2) and answers
 * `{user, token, message}`. Throws 401 `Wallet Authentication: Failed` for a bad signature or nonce and
 * for a wallet without an account, 403 `Your account is disabled` for an inactive account.
 * With `cAppAuthRequest` it grants a creator app's consent request instead of opening a session
 * (DESIGN §7, access log type 4): `{url, message}`, see `capp.service.ts` `consent`.
 */
export async function loginWallet(deps: UsersDeps, input: LoginWalletRequest, address: string): Promise<LoginResponse> {
  const wallet = input.walletAddress.toLowerCase();
  await verifyWalletSignature(deps, wallet, input.signature as `0x${string}`);
  const row = await findUserByWallet(deps.db, wallet);
  if (!row) throw new AppError('UNAUTHORIZED', WALLET_AUTH_FAILED);
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  if (input.cAppAuthRequest) return consent(deps.db, row.id, input.cAppAuthRequest, address, LOGIN_TYPE.CAppWallet);
  await insertAccessLog(deps.db, row.id, address, LOGIN_TYPE.Wallet);
  return session(deps, row, `Welcome back, ${row.nickname}`);
}
