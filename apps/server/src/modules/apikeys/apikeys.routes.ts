/**
 * Routes of /api/user for API keys (SPEC §7, DESIGN §8, §11.2). Members manage their keys with their
 * session (`sessionOnly`): a request authenticated by an API key is refused here (403), so a leaked key
 * cannot make, replace or remove keys. Admins see and revoke a member's keys (`getUserApiKeys`,
 * `revokeUserApiKey`).
 */
import {
  apiKeyResponse,
  apiKeysResponse,
  createApiKeyRequest,
  createApiKeyResponse,
  errorResponse,
  messageResponse,
  newApiKeyRequest,
  revokeApiKeyRequest,
  revokeUserApiKeyRequest,
  userApiKeysRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { signInClient } from '../../http/sign-in-client.ts';
import * as apiKeys from './apikeys.service.ts';

export const apiKeysRoutes: FastifyPluginAsyncZod<{ deps: apiKeys.ApiKeysDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const config = { access: 'member' as const, sessionOnly: true };
  const admin = { access: 'admin' as const };

  app.post(
    '/apiKeys/create',
    {
      config,
      schema: {
        summary: 'Make an API key with scopes, allowed addresses and an expiry; its secret is shown only here',
        tags,
        body: createApiKeyRequest,
        response: { 200: createApiKeyResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.createApiKey(deps, requireAuth(req), req.body, signInClient(req)),
  );

  app.get(
    '/apiKeys',
    {
      config,
      schema: {
        summary: "The caller's API keys that are not revoked, newest first (never their secrets)",
        tags,
        response: { 200: apiKeysResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.listApiKeys(deps, requireAuth(req).id),
  );

  app.post(
    '/apiKeys/revoke',
    {
      config,
      schema: {
        summary: "Revoke one of the caller's API keys: it is refused at once everywhere",
        tags,
        body: revokeApiKeyRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.revokeApiKey(deps, requireAuth(req).id, req.body._id),
  );

  app.post(
    '/getUserApiKeys',
    {
      config: admin,
      schema: {
        summary: "A member's API keys, never their secrets (admin)",
        tags,
        body: userApiKeysRequest,
        response: { 200: apiKeysResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.getUserApiKeys(deps, req.body.nickname),
  );

  app.post(
    '/revokeUserApiKey',
    {
      config: admin,
      schema: {
        summary: "Revoke one of a member's API keys, written to the admin log (admin)",
        tags,
        body: revokeUserApiKeyRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.revokeUserApiKey(deps, requireAuth(req), req.body, req.ip),
  );

  app.get(
    '/getApiKey',
    {
      config,
      schema: {
        summary: "The caller's API key, or null",
        tags,
        response: { 200: apiKeyResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.getApiKey(deps, requireAuth(req).id),
  );

  app.get(
    '/newApiKey',
    {
      config,
      schema: {
        summary: 'Make a new API key; the old one stops working',
        tags,
        response: { 200: apiKeyResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.newApiKey(deps, requireAuth(req).id, signInClient(req)),
  );

  // The GET has no body for a step-up code (DESIGN §11.1): with a second factor on, the POST carries it.
  app.post(
    '/newApiKey',
    {
      config,
      schema: {
        summary: 'Make a new API key, with a two-factor code when the account has one; the old key stops working',
        tags,
        operationId: 'newApiKeyWithCode',
        body: newApiKeyRequest,
        response: { 200: apiKeyResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.newApiKey(deps, requireAuth(req).id, signInClient(req), req.body.mfaCode),
  );

  app.get(
    '/disableApiKeyAccess',
    {
      config,
      schema: {
        summary: "Remove the caller's API key",
        tags,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => apiKeys.disableApiKey(deps, requireAuth(req).id),
  );
};
