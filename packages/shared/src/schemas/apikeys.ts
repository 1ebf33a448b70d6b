/** A member's scoped API keys (DESIGN §11.2): create, list and revoke; an admin sees and revokes them. */
import { z } from 'zod';
import { isoDate, nickname, objectId } from './common.ts';

/** What an API key may be used for (DESIGN §11.2 Scopes). */
export const API_KEY_SCOPES = ['read', 'trade', 'transfer', 'withdraw'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Most live (neither revoked nor expired) keys a member holds (DESIGN §11.2). */
export const MAX_API_KEYS = 10;

/** Most addresses and ranges one key may list. */
export const MAX_API_KEY_ADDRESSES = 32;

/** One key as it is shown: never its secret, only the first characters (`prefix`). */
export const apiKeyInfo = z.object({
  _id: objectId,
  name: z.string(),
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  allowedIps: z.array(z.string()),
  expiresAt: z.string().nullable(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKeyInfo = z.infer<typeof apiKeyInfo>;

/** `POST apiKeys/create {name, scopes, allowedIps?, expiresAt?, mfaCode?}`. */
export const createApiKeyRequest = z.strictObject({
  name: z.string().trim().min(1).max(64),
  scopes: z
    .array(
      z.enum(API_KEY_SCOPES, {
        error: (iss) =>
          iss.input === undefined
            ? undefined
            : `Unknown scope "${String(iss.input)}": a scope is one of ${API_KEY_SCOPES.join(', ')}`,
      }),
    )
    .min(1)
    .max(API_KEY_SCOPES.length),
  allowedIps: z.array(z.string().trim().min(1).max(64)).max(MAX_API_KEY_ADDRESSES).optional(),
  expiresAt: isoDate.optional(),
  mfaCode: z.string().max(64).optional(),
});
export type CreateApiKeyRequest = z.infer<typeof createApiKeyRequest>;

/** `apiKeys/create`'s answer: the secret is in it once and never again. */
export const createApiKeyResponse = z.object({ apiKey: apiKeyInfo, secret: z.string(), message: z.string() });
export type CreateApiKeyResponse = z.infer<typeof createApiKeyResponse>;

/** `GET apiKeys` and the admin's `getUserApiKeys`: the live keys, newest first. */
export const apiKeysResponse = z.object({ apiKeys: z.array(apiKeyInfo), message: z.string() });
export type ApiKeysResponse = z.infer<typeof apiKeysResponse>;

/** `POST apiKeys/revoke {_id}`. */
export const revokeApiKeyRequest = z.strictObject({ _id: objectId });

/** The admin's `getUserApiKeys {nickname}`. */
export const userApiKeysRequest = z.strictObject({ nickname });

/** The admin's `revokeUserApiKey {nickname, _id}`. */
export const revokeUserApiKeyRequest = z.strictObject({ nickname, _id: objectId });
