/**
 * API keys (SPEC §2 Settings, §7; DESIGN §8): Get Key shows the member's key, New Key replaces it (the
 * old one stops working at once), Disable removes it. How keys are kept: `lib/api-key-crypto.ts`.
 */
import type { ApiKeyResponse } from '@starlight/shared';
import type { Db, DbOrTx } from '../../db/client.ts';
import { inTransaction } from '../../db/transaction.ts';
import { generateApiKey, hashApiKey, openApiKey, sealApiKey } from '../../lib/api-key-crypto.ts';
import { findSealedApiKey, hasApiKeyForUpdate, setApiKey } from './apikeys.queries.ts';

export interface ApiKeysDeps {
  db: Db;
  /** The AES-256-GCM key sealing stored API keys (`apiKeySealingKey` of the server secret). */
  sealingKey: Buffer;
}

/** `getApiKey`: the member's key, or `{apiKey: null}` when they have none. */
export async function getApiKey(deps: ApiKeysDeps, userId: string): Promise<ApiKeyResponse> {
  const sealed = await findSealedApiKey(deps.db, userId);
  if (!sealed) return { apiKey: null, message: 'No Key' };
  return { apiKey: openApiKey(sealed, deps.sealingKey), message: 'OK' };
}

/** `newApiKey`'s message: it speaks of an old key only when one was replaced. */
export const NEW_API_KEY_MESSAGE = {
  first: 'Your new API key is ready',
  replaced: 'Your new API key is ready; the old one no longer works',
} as const;

/**
 * `newApiKey`: a fresh key (256 bits) replacing the old one, if any, which stops working at once. The
 * message says whether a key was replaced (`NEW_API_KEY_MESSAGE`).
 */
export async function newApiKey(deps: ApiKeysDeps, userId: string): Promise<ApiKeyResponse> {
  const apiKey = generateApiKey();
  const sealed = { hash: hashApiKey(apiKey), sealed: sealApiKey(apiKey, deps.sealingKey) };
  const replaced = await inTransaction(deps.db, async (tx) => {
    const had = await hasApiKeyForUpdate(tx, userId);
    await setApiKey(tx, userId, sealed);
    return had;
  });
  return { apiKey, message: replaced ? NEW_API_KEY_MESSAGE.replaced : NEW_API_KEY_MESSAGE.first };
}

/** `disableApiKeyAccess`: removes the member's key; requests with it get 401 from now on. */
export async function disableApiKey(deps: ApiKeysDeps, userId: string): Promise<{ message: string }> {
  await setApiKey(deps.db, userId, null);
  return { message: 'API key access disabled' };
}

/**
 * Revokes every API key of a member, in `db`'s transaction when it is one: requests with them get 401 once
 * it commits. A password reset always does (DESIGN §8: recovery ends what a thief may hold); a password
 * change does unless the member chooses to keep them.
 */
export async function revokeApiKeys(db: DbOrTx, userId: string): Promise<void> {
  await setApiKey(db, userId, null);
}
