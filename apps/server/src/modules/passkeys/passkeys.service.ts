/**
 * Passkeys (DESIGN §11.1): a member adds WebAuthn credentials in Settings and signs in with one, no
 * nickname needed (discoverable credentials, user verification required, so a sign-in counts as two
 * factors). Made and verified by `@simplewebauthn/server`; RP ID = the host of `PUBLIC_URL`, origin =
 * `PUBLIC_URL`. Each challenge is single use and lives 5 minutes.
 */
import { isIP } from 'node:net';
import type {
  AuthenticationResponseJSON,
  RegistrationResponseJSON,
  VerifiedRegistrationResponse,
} from '@simplewebauthn/server';
import {
  AppError,
  type AuthenticationOptionsResponse,
  type AuthResponse,
  MESSAGES,
  type PasskeyInfo,
  type PasskeyLoginRequest,
  type PasskeyLoginResponse,
  type PasskeysResponse,
  type RegisterPasskeyRequest,
  type RegisterPasskeyResponse,
  type RegistrationOptionsResponse,
} from '@starlight/shared';
import type { Db } from '../../db/client.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { LiveChanges } from '../../lib/live-changes.ts';
import { findUserById, insertAccessLog, type UserRow } from '../accounts/accounts.public.ts';
import { consent } from '../capp/capp.service.ts';
import type { SecurityNotices } from '../mfa/mfa.public.ts';
import {
  countUserPasskeys,
  deletePasskey,
  findPasskeyByCredential,
  insertChallenge,
  insertPasskey,
  listPasskeys,
  markPasskeyUsed,
  type PasskeyRow,
  takeChallenge,
} from './passkeys.queries.ts';

/**
 * `@simplewebauthn/server`, loaded with the first passkey call: its certificate parsers are a large part of
 * a server's start, and most processes never see a passkey ceremony.
 */
let webauthnLoaded: Promise<typeof import('@simplewebauthn/server')> | undefined;
const webauthn = () => {
  webauthnLoaded ??= import('@simplewebauthn/server');
  return webauthnLoaded;
};

export interface PasskeysDeps {
  db: Db;
  /** The site's public origin (DESIGN §2 `PUBLIC_URL`): the WebAuthn origin, its host the RP ID. */
  publicUrl: string;
  /**
   * Opens the session of an account that signed in with a passkey (the users module's: a session whose
   * `secondFactor` is true), answering `{user, token, message}`.
   */
  signIn: (row: UserRow, message: string, client: SignInClient) => Promise<AuthResponse>;
  /** Told of every passkey added (the users module mails the owner, DESIGN §11.1 security mails). */
  onAdded: (userId: string, name: string, client: SignInClient) => void;
  /** Writes the owner's `security` notification of a passkey added, with it (DESIGN §11.3). */
  securityNotices: SecurityNotices;
}

/** How long a challenge lives: 5 minutes (DESIGN §11.1). */
const CHALLENGE_MS = 5 * 60 * 1000;
/** Most passkeys one member keeps: a few devices and security keys each. */
export const MAX_PASSKEYS = 20;
/** The relying party's name the authenticator shows. */
const RP_NAME = 'Starlight';
/** SPEC §3 access log types of a sign-in: to the site (1) or to a creator app (3), as a password's. */
const LOGIN_TYPE = { Site: 1, CApp: 3 } as const;

/** The RP ID of `publicUrl` (its host), or null when it is an IP address, where WebAuthn cannot work. */
export function relyingPartyId(publicUrl: string): string | null {
  const host = new URL(publicUrl).hostname.replace(/^\[|\]$/g, '');
  return isIP(host) === 0 ? host : null;
}

/** The RP ID, or 409 `passkeysNeedDomain` when `PUBLIC_URL` is an IP address. */
function requireRpId(deps: PasskeysDeps): string {
  const rpId = relyingPartyId(deps.publicUrl);
  if (rpId === null) throw new AppError('CONFLICT', MESSAGES.passkeysNeedDomain);
  return rpId;
}

/** The WebAuthn origin: `PUBLIC_URL` without a path. */
function origin(deps: PasskeysDeps): string {
  return new URL(deps.publicUrl).origin;
}

/** A passkey as the wire shows it. */
function toInfo(row: PasskeyRow): PasskeyInfo {
  return {
    _id: row.id,
    name: row.name,
    credentialId: row.credentialId,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The challenge a browser's answer signed (from its `clientDataJSON`), or null when unreadable. */
function signedChallenge(clientDataJSON: string): string | null {
  try {
    const data: unknown = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8'));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' ? challenge : null;
  } catch {
    return null;
  }
}

/** The WebAuthn user handle of an account: its id's bytes, so a sign-in's answer names the account. */
function userHandle(userId: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(Buffer.from(userId, 'utf8'));
}

/**
 * `POST passkeys/registrationOptions {}` (DESIGN §11.1): WebAuthn creation options for the member, a
 * discoverable credential with user verification, excluding their passkeys. 409 `passkeysNeedDomain`
 * on an IP-address `PUBLIC_URL`; 409 at `MAX_PASSKEYS`.
 */
export async function registrationOptions(deps: PasskeysDeps, userId: string): Promise<RegistrationOptionsResponse> {
  const rpID = requireRpId(deps);
  const user = await findUserById(deps.db, userId);
  if (!user) throw new AppError('NOT_FOUND', 'User not found');
  const existing = await listPasskeys(deps.db, user.id);
  if (existing.length >= MAX_PASSKEYS) {
    throw new AppError('CONFLICT', `You can keep at most ${MAX_PASSKEYS} passkeys: remove one first`);
  }
  const options = await (await webauthn()).generateRegistrationOptions({
    rpName: RP_NAME,
    rpID,
    userName: user.nickname,
    userDisplayName: user.nickname,
    userID: userHandle(user.id),
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
    timeout: CHALLENGE_MS,
  });
  await insertChallenge(deps.db, {
    challenge: options.challenge,
    purpose: 'registration',
    userId: user.id,
    expiresAt: new Date(Date.now() + CHALLENGE_MS),
  });
  return { options: { ...options }, message: 'Confirm on your device to add the passkey' };
}

/**
 * `POST passkeys/register {response, name?}` (DESIGN §11.1): verifies the browser's answer to one of the
 * member's live registration challenges (used up whatever the outcome) and stores the passkey. 400
 * `passkeyChallengeInvalid` when the challenge is unknown, used, expired or another member's; 400
 * `passkeyNotVerified` when the answer does not verify (origin, RP ID, user verification, signature);
 * 409 when the credential is already registered.
 */
export async function register(
  deps: PasskeysDeps,
  userId: string,
  input: RegisterPasskeyRequest,
  client: SignInClient,
): Promise<RegisterPasskeyResponse> {
  const rpID = requireRpId(deps);
  const challenge = signedChallenge(input.response.response.clientDataJSON);
  const expected =
    challenge === null ? null : await takeChallenge(deps.db, { challenge, purpose: 'registration', userId });
  if (expected === null) throw new AppError('VALIDATION', MESSAGES.passkeyChallengeInvalid);
  let verification: VerifiedRegistrationResponse;
  try {
    verification = await (await webauthn()).verifyRegistrationResponse({
      // The envelope is checked by the shared schema; the library checks the rest.
      response: input.response as unknown as RegistrationResponseJSON,
      expectedChallenge: expected,
      expectedOrigin: origin(deps),
      expectedRPID: rpID,
      requireUserVerification: true,
    });
  } catch {
    throw new AppError('VALIDATION', MESSAGES.passkeyNotVerified);
  }
  if (!verification.verified) throw new AppError('VALIDATION', MESSAGES.passkeyNotVerified);
  const { credential } = verification.registrationInfo;
  const count = await countUserPasskeys(deps.db, userId);
  const name = input.name?.trim() || `Passkey ${count + 1}`;
  try {
    const changes = new LiveChanges();
    const row = await inTransaction(deps.db, async (tx) => {
      const added = await insertPasskey(tx, {
        userId,
        credentialId: credential.id,
        publicKey: Buffer.from(credential.publicKey).toString('base64url'),
        counter: credential.counter,
        transports: credential.transports ?? [],
        name,
      });
      await deps.securityNotices.write(tx, changes, userId, 'passkey-added', client, added.name);
      return added;
    });
    deps.securityNotices.publish(changes);
    deps.onAdded(userId, row.name, client);
    return { passkey: toInfo(row), message: `Passkey "${row.name}" added` };
  } catch (err) {
    if (isUniqueViolation(err)) throw new AppError('CONFLICT', MESSAGES.passkeyAlreadyRegistered);
    throw err;
  }
}

/** `GET passkeys` (DESIGN §11.1): the member's passkeys, newest first. */
export async function passkeys(db: Db, userId: string): Promise<PasskeysResponse> {
  const rows = await listPasskeys(db, userId);
  return { passkeys: rows.map(toInfo), message: rows.length === 0 ? 'No passkeys yet' : 'OK' };
}

/** `POST passkeys/remove {_id}` (DESIGN §11.1): removes one of the member's passkeys; another's is 404. */
export async function remove(db: Db, userId: string, id: string): Promise<{ message: string }> {
  if ((await deletePasskey(db, userId, id)) === null) throw new AppError('NOT_FOUND', 'Passkey not found');
  return { message: 'Passkey removed' };
}

/**
 * `POST passkeys/authenticationOptions {}` (DESIGN §11.1): WebAuthn request options for a discoverable
 * credential (no nickname, no allow list), user verification required, and the challenge's id that
 * `login` names. 409 `passkeysNeedDomain` on an IP-address `PUBLIC_URL`.
 */
export async function authenticationOptions(deps: PasskeysDeps): Promise<AuthenticationOptionsResponse> {
  const rpID = requireRpId(deps);
  const options = await (await webauthn()).generateAuthenticationOptions({
    rpID,
    userVerification: 'required',
    timeout: CHALLENGE_MS,
  });
  const challengeId = await insertChallenge(deps.db, {
    challenge: options.challenge,
    purpose: 'authentication',
    userId: null,
    expiresAt: new Date(Date.now() + CHALLENGE_MS),
  });
  return { options: { ...options }, challengeId, message: 'Choose your passkey' };
}

/**
 * `POST passkeys/login {challengeId, response, cAppAuthRequest?}` (DESIGN §11.1): signs in with a passkey,
 * answering as `login`: a session that passed a second factor (`{user, token, message}`), or with
 * `cAppAuthRequest` the creator app's consent (`{url, message}`, `consent`). The challenge is used up
 * whatever the outcome. 400 `passkeyChallengeInvalid` (unknown, used or expired challenge); 401
 * `passkeyUnknown` (no account holds the credential); 401 `passkeyNotVerified` (another challenge's
 * answer, another account's user handle, a bad signature, a counter gone back); 403 for an inactive account.
 * On success the passkey's counter and last use are updated and an access log row is written.
 */
export async function login(
  deps: PasskeysDeps,
  input: PasskeyLoginRequest,
  client: SignInClient,
): Promise<PasskeyLoginResponse> {
  const rpID = requireRpId(deps);
  const expected = await takeChallenge(deps.db, { id: input.challengeId, purpose: 'authentication', userId: null });
  if (expected === null) throw new AppError('VALIDATION', MESSAGES.passkeyChallengeInvalid);
  const passkey = await findPasskeyByCredential(deps.db, input.response.id);
  if (!passkey) throw new AppError('UNAUTHORIZED', MESSAGES.passkeyUnknown);
  const handle = input.response.response.userHandle;
  if (typeof handle === 'string' && handle !== Buffer.from(userHandle(passkey.userId)).toString('base64url')) {
    throw new AppError('UNAUTHORIZED', MESSAGES.passkeyNotVerified);
  }
  let newCounter: number;
  try {
    const verification = await (await webauthn()).verifyAuthenticationResponse({
      // The envelope is checked by the shared schema; the library checks the rest.
      response: input.response as unknown as AuthenticationResponseJSON,
      expectedChallenge: expected,
      expectedOrigin: origin(deps),
      expectedRPID: rpID,
      credential: {
        id: passkey.credentialId,
        publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
        counter: passkey.counter,
        transports: passkey.transports,
      },
      requireUserVerification: true,
    });
    if (!verification.verified) throw new Error('not verified');
    newCounter = verification.authenticationInfo.newCounter;
  } catch {
    throw new AppError('UNAUTHORIZED', MESSAGES.passkeyNotVerified);
  }
  const row = await findUserById(deps.db, passkey.userId);
  if (!row) throw new AppError('UNAUTHORIZED', MESSAGES.passkeyUnknown);
  if (!row.isActive) throw new AppError('FORBIDDEN', 'Your account is disabled');
  await markPasskeyUsed(deps.db, passkey.id, newCounter);
  if (input.cAppAuthRequest) {
    return consent(deps.db, row.id, input.cAppAuthRequest, client.address, LOGIN_TYPE.CApp);
  }
  await insertAccessLog(deps.db, row.id, client.address, LOGIN_TYPE.Site);
  return deps.signIn(row, `Welcome back, ${row.nickname}`, client);
}
