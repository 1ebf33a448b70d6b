/**
 * API keys (SPEC §2 Settings, §7; DESIGN §8, §11.2). A member holds up to `MAX_API_KEYS` live keys, each
 * with a name, scopes, allowed addresses and an optional expiry; the secret is shown once and kept only
 * as its SHA-256. SPEC's Get Key / New Key / Disable work on one key named `Default` (scopes read, trade,
 * transfer), the one key kept sealed so Get Key can show it again. How keys are kept: `lib/api-key-crypto.ts`.
 */
import {
  ADMIN_CATEGORY,
  type ApiKeyInfo,
  type ApiKeyResponse,
  type ApiKeyScope,
  type ApiKeysResponse,
  AppError,
  type CreateApiKeyRequest,
  type CreateApiKeyResponse,
  MAX_API_KEYS,
} from '@starlight/shared';
import type { Db, DbOrTx, Tx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import type { AuthUser } from '../../http/access.ts';
import type { SignInClient } from '../../http/sign-in-client.ts';
import { generateApiKey, hashApiKey, openApiKey, sealApiKey } from '../../lib/api-key-crypto.ts';
import { newObjectId } from '../../lib/ids.ts';
import { normaliseAllowedIp } from '../../lib/ip-ranges.ts';
import { LiveChanges } from '../../lib/live-changes.ts';
import { findUserByNickname } from '../accounts/accounts.public.ts';
import { type MfaDeps, requireStepUp } from '../mfa/mfa.public.ts';
import { insertAdminLog } from '../oversight/oversight.public.ts';
import {
  type ApiKeyRow,
  countLiveKeys,
  findSealedDefaultKey,
  insertKey,
  listKeys,
  lockMember,
  revokeAllKeys,
  revokeDefaultKey,
  revokeKey,
} from './apikeys.queries.ts';

export interface ApiKeysDeps {
  db: Db;
  /** The AES-256-GCM key sealing the `Default` key (`apiKeySealingKey` of the server secret). */
  sealingKey: Buffer;
  /** The step-up a new key needs when the account has a second factor (DESIGN §11.1). */
  mfa: MfaDeps;
}

/** The name and scopes of SPEC's one key (DESIGN §11.2). */
export const DEFAULT_KEY = { name: 'Default', scopes: ['read', 'trade', 'transfer'] as ApiKeyScope[] } as const;

/** The 409 of a member's eleventh live key. */
export const TOO_MANY_KEYS_MESSAGE = `You can have at most ${MAX_API_KEYS} API keys; revoke one before making another`;

/** The 404 of a key that is not the member's, or is revoked already. */
export const KEY_NOT_FOUND_MESSAGE = 'API key not found';

/** How many characters of a key are shown: `sl_` and 8. */
const PREFIX_LENGTH = 11;

/** A key as the wire shows it: never its secret or hash. */
export function toApiKeyInfo(row: ApiKeyRow): ApiKeyInfo {
  return {
    _id: row.id,
    name: row.name,
    prefix: row.prefix,
    scopes: row.scopes as ApiKeyScope[],
    allowedIps: row.allowedIps,
    expiresAt: row.expiresAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
    lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  };
}

/** The stored forms of `allowedIps`, deduplicated; 400 naming the first entry that is no address or range. */
function normaliseAddresses(list: readonly string[]): string[] {
  const out: string[] = [];
  for (const text of list) {
    const value = normaliseAllowedIp(text);
    if (!value) throw new AppError('VALIDATION', `"${text}" is not an IP address or CIDR range`);
    if (!out.includes(value)) out.push(value);
  }
  return out;
}

/** Locks the member, checks they may hold one more live key (409 past `MAX_API_KEYS`), stores `row`. */
async function insertWithinLimit(tx: Tx, row: Omit<Parameters<typeof insertKey>[1], 'id'>): Promise<ApiKeyRow> {
  await lockMember(tx, row.userId);
  if ((await countLiveKeys(tx, row.userId)) >= MAX_API_KEYS) throw new AppError('CONFLICT', TOO_MANY_KEYS_MESSAGE);
  return insertKey(tx, { id: newObjectId(), ...row });
}

/**
 * `POST apiKeys/create` (DESIGN §11.2): a new key with the given name, scopes, addresses and expiry. The
 * answer carries the secret, the only time it is shown. 400 for a malformed address or range or an expiry
 * not in the future; 409 when the member already holds `MAX_API_KEYS` live keys; with a second factor on,
 * 403/400 without the right `mfaCode` (DESIGN §11.1 step-up). Nothing is stored then. The owner's
 * `security` notification (DESIGN §11.3, from `client`: when, where, what device) is written with the key.
 */
export async function createApiKey(
  deps: ApiKeysDeps,
  auth: AuthUser,
  input: CreateApiKeyRequest,
  client: SignInClient,
): Promise<CreateApiKeyResponse> {
  const allowedIps = normaliseAddresses(input.allowedIps ?? []);
  const expiresAt = input.expiresAt ? new Date(input.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= Date.now()) throw new AppError('VALIDATION', 'Expiry must be in the future');
  await requireStepUp(deps.mfa, auth, input.mfaCode);
  const scopes = [...new Set(input.scopes)];
  const secret = generateApiKey();
  const changes = new LiveChanges();
  const row = await inTransaction(deps.db, async (tx) => {
    const made = await insertWithinLimit(tx, {
      userId: auth.id,
      name: input.name,
      prefix: secret.slice(0, PREFIX_LENGTH),
      secretHash: hashApiKey(secret),
      sealed: null,
      scopes,
      allowedIps,
      expiresAt,
    });
    await deps.mfa.securityNotices?.write(tx, changes, auth.id, 'api-key-created', client, made.name);
    return made;
  });
  deps.mfa.securityNotices?.publish(changes);
  return { apiKey: toApiKeyInfo(row), secret, message: 'Your API key is ready; copy it now, it is not shown again' };
}

/** `GET apiKeys`: the member's keys that are not revoked, newest first (never a secret). */
export async function listApiKeys(deps: ApiKeysDeps, userId: string): Promise<ApiKeysResponse> {
  const apiKeys = (await listKeys(deps.db, userId)).map(toApiKeyInfo);
  return { apiKeys, message: apiKeys.length === 0 ? 'No API keys' : 'OK' };
}

/** `POST apiKeys/revoke {_id}`: the key stops working at once on every server process; 404 if not theirs. */
export async function revokeApiKey(deps: ApiKeysDeps, userId: string, id: string): Promise<{ message: string }> {
  const row = await revokeKey(deps.db, userId, id);
  if (!row) throw new AppError('NOT_FOUND', KEY_NOT_FOUND_MESSAGE);
  return { message: `API key ${row.name} revoked` };
}

async function memberOf(db: DbOrTx, nickname: string) {
  const target = await findUserByNickname(db, nickname);
  if (!target) throw new AppError('NOT_FOUND', 'User not found');
  return target;
}

/** Admin `getUserApiKeys {nickname}`: the member's keys, never their secrets. */
export async function getUserApiKeys(deps: ApiKeysDeps, nickname: string): Promise<ApiKeysResponse> {
  const target = await memberOf(deps.db, nickname);
  const apiKeys = (await listKeys(deps.db, target.id)).map(toApiKeyInfo);
  return { apiKeys, message: `${target.nickname} has ${apiKeys.length} API ${apiKeys.length === 1 ? 'key' : 'keys'}` };
}

/** Admin `revokeUserApiKey {nickname, _id}`: revokes a member's key, written to the admin log (42). */
export async function revokeUserApiKey(
  deps: ApiKeysDeps,
  admin: AuthUser,
  input: { nickname: string; _id: string },
  address: string,
): Promise<{ message: string }> {
  return inTransaction(deps.db, async (tx) => {
    const target = await memberOf(tx, input.nickname);
    const row = await revokeKey(tx, target.id, input._id);
    if (!row) throw new AppError('NOT_FOUND', KEY_NOT_FOUND_MESSAGE);
    await insertAdminLog(tx, {
      adminId: admin.id,
      affectedUserId: target.id,
      address,
      category: ADMIN_CATEGORY.RevokeUserApiKey,
      action: `Revoke ${target.nickname}'s API key ${row.name} (${row.prefix})`,
    });
    return { message: `${target.nickname}'s API key ${row.name} revoked` };
  });
}

/** `getApiKey`: the member's `Default` key, or `{apiKey: null}` when they have none. */
export async function getApiKey(deps: ApiKeysDeps, userId: string): Promise<ApiKeyResponse> {
  const sealed = await findSealedDefaultKey(deps.db, userId);
  if (!sealed) return { apiKey: null, message: 'No Key' };
  return { apiKey: openApiKey(sealed, deps.sealingKey), message: 'OK' };
}

/** `newApiKey`'s message: it speaks of an old key only when one was replaced. */
export const NEW_API_KEY_MESSAGE = {
  first: 'Your new API key is ready',
  replaced: 'Your new API key is ready; the old one no longer works',
} as const;

/**
 * `newApiKey`: a fresh `Default` key (256 bits) replacing the old one, if any, which stops working at once.
 * It counts toward `MAX_API_KEYS` (409 when a new one would pass it). The message says whether a key was
 * replaced (`NEW_API_KEY_MESSAGE`). With a second factor on, it needs `mfaCode` first
 * (DESIGN §11.1 step-up: 403 without, 400 wrong; nothing changes then). The owner's `security`
 * notification (DESIGN §11.3, from `client`) is written with the key.
 */
export async function newApiKey(
  deps: ApiKeysDeps,
  userId: string,
  client: SignInClient,
  mfaCode?: string,
): Promise<ApiKeyResponse> {
  await requireStepUp(deps.mfa, { id: userId }, mfaCode);
  const apiKey = generateApiKey();
  const changes = new LiveChanges();
  const replaced = await inTransaction(deps.db, async (tx) => {
    await lockMember(tx, userId);
    const had = await revokeDefaultKey(tx, userId);
    await insertWithinLimit(tx, {
      userId,
      name: DEFAULT_KEY.name,
      prefix: apiKey.slice(0, PREFIX_LENGTH),
      secretHash: hashApiKey(apiKey),
      sealed: sealApiKey(apiKey, deps.sealingKey),
      scopes: [...DEFAULT_KEY.scopes],
      allowedIps: [],
      expiresAt: null,
    });
    await deps.mfa.securityNotices?.write(tx, changes, userId, 'api-key-created', client, DEFAULT_KEY.name);
    return had;
  });
  deps.mfa.securityNotices?.publish(changes);
  return { apiKey, message: replaced ? NEW_API_KEY_MESSAGE.replaced : NEW_API_KEY_MESSAGE.first };
}

/** `disableApiKeyAccess`: revokes the member's `Default` key; requests with it get 401 from now on. */
export async function disableApiKey(deps: ApiKeysDeps, userId: string): Promise<{ message: string }> {
  await revokeDefaultKey(deps.db, userId);
  return { message: 'API key access disabled' };
}

/**
 * Revokes every API key of a member, in `db`'s transaction when it is one: requests with them get 401 once
 * it commits. A password reset always does (DESIGN §8: recovery ends what a thief may hold); a password
 * change does unless the member chooses to keep them.
 */
export async function revokeApiKeys(db: DbOrTx, userId: string): Promise<void> {
  await revokeAllKeys(db, userId);
}
