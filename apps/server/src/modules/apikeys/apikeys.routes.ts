/**
 * Routes of /api/user for API keys (SPEC §7, DESIGN §8). Members manage their key with their session
 * (`sessionOnly`): a request authenticated by an API key is refused here (403), so a leaked key cannot
 * replace or remove the owner's.
 */
import { apiKeyResponse, errorResponse, messageResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import * as apiKeys from './apikeys.service.ts';

export const apiKeysRoutes: FastifyPluginAsyncZod<{ deps: apiKeys.ApiKeysDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const config = { access: 'member' as const, sessionOnly: true };

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
    (req) => apiKeys.newApiKey(deps, requireAuth(req).id),
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
