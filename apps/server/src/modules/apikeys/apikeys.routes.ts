/**
 * Routes of /api/user for API keys (SPEC §7, DESIGN §8). Members manage their key with their session:
 * a request authenticated by an API key is refused here (403), so a leaked key cannot replace or
 * remove the owner's.
 */
import { AppError, apiKeyResponse, errorResponse, messageResponse } from '@starlight/shared';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import * as apiKeys from './apikeys.service.ts';

/** The caller's id, when they came with a session (not an API key). */
function sessionUser(req: FastifyRequest): string {
  const user = requireAuth(req);
  if (req.authVia === 'apiKey') throw new AppError('FORBIDDEN', 'Manage your API key from a signed-in session');
  return user.id;
}

export const apiKeysRoutes: FastifyPluginAsyncZod<{ deps: apiKeys.ApiKeysDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const config = { access: 'member' as const };

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
    (req) => apiKeys.getApiKey(deps, sessionUser(req)),
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
    (req) => apiKeys.newApiKey(deps, sessionUser(req)),
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
    (req) => apiKeys.disableApiKey(deps, sessionUser(req)),
  );
};
