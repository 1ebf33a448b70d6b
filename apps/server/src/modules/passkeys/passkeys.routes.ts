/**
 * Passkey routes under /api/user (DESIGN §11.1): a member's own (`passkeys`, `passkeys/registrationOptions`,
 * `passkeys/register`, `passkeys/remove`, session tokens only) and the public sign-in
 * (`passkeys/authenticationOptions`, `passkeys/login`, rate limited per address as `login`).
 */
import {
  authenticationOptionsResponse,
  errorResponse,
  messageResponse,
  passkeyLoginRequest,
  passkeyLoginResponse,
  passkeyOptionsRequest,
  passkeysResponse,
  registerPasskeyRequest,
  registerPasskeyResponse,
  registrationOptionsResponse,
  removePasskeyRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { signInClient } from '../../http/sign-in-client.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import * as passkeys from './passkeys.service.ts';

export const passkeysRoutes: FastifyPluginAsyncZod<{ deps: passkeys.PasskeysDeps; authRateLimit: number }> = async (
  app,
  { deps, authRateLimit },
) => {
  const tags = ['user'];
  const own = { access: 'member' as const, sessionOnly: true };
  const signIn = { access: 'public' as const, rateLimit: perIpLimit(authRateLimit) };

  app.post(
    '/passkeys/registrationOptions',
    {
      config: own,
      schema: {
        summary: 'WebAuthn options to add a passkey to the caller’s account',
        tags,
        body: passkeyOptionsRequest,
        response: { 200: registrationOptionsResponse, '4xx': errorResponse },
      },
    },
    (req) => passkeys.registrationOptions(deps, requireAuth(req).id),
  );

  app.post(
    '/passkeys/register',
    {
      config: own,
      schema: {
        summary: 'Add the passkey the browser created for the last registration options',
        tags,
        body: registerPasskeyRequest,
        response: { 200: registerPasskeyResponse, '4xx': errorResponse },
      },
    },
    (req) => passkeys.register(deps, requireAuth(req).id, req.body, signInClient(req)),
  );

  app.get(
    '/passkeys',
    {
      config: own,
      schema: {
        summary: 'The caller’s passkeys, newest first',
        tags,
        response: { 200: passkeysResponse, '4xx': errorResponse },
      },
    },
    (req) => passkeys.passkeys(deps.db, requireAuth(req).id),
  );

  app.post(
    '/passkeys/remove',
    {
      config: own,
      schema: {
        summary: 'Remove one of the caller’s passkeys',
        tags,
        body: removePasskeyRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => passkeys.remove(deps.db, requireAuth(req).id, req.body._id),
  );

  app.post(
    '/passkeys/authenticationOptions',
    {
      config: signIn,
      schema: {
        summary: 'WebAuthn options to sign in with a passkey (no nickname needed)',
        tags,
        body: passkeyOptionsRequest,
        response: { 200: authenticationOptionsResponse, '4xx': errorResponse },
      },
    },
    () => passkeys.authenticationOptions(deps),
  );

  app.post(
    '/passkeys/login',
    {
      config: signIn,
      schema: {
        summary: 'Sign in with a passkey; answers the session token (or, for a creator app, its URL)',
        tags,
        body: passkeyLoginRequest,
        response: { 200: passkeyLoginResponse, '4xx': errorResponse },
      },
    },
    (req) => passkeys.login(deps, req.body, signInClient(req)),
  );
};
