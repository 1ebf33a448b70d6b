/** Routes of /api/user (SPEC §7 User). Thin: schema, access, one service call. */
import {
  authResponse,
  errorResponse,
  loginMfaRequest,
  loginRequest,
  loginResponse,
  meResponse,
  messageResponse,
  registerRequest,
  updateProfileRequest,
  updateProfileResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { signInClient } from '../../http/sign-in-client.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import { updateProfile } from './profile.service.ts';
import * as users from './users.service.ts';

export const usersRoutes: FastifyPluginAsyncZod<{ deps: users.UsersDeps; authRateLimit: number }> = async (
  app,
  { deps, authRateLimit },
) => {
  const limited = { rateLimit: perIpLimit(authRateLimit) };
  const tags = ['user'];

  app.post(
    '/register',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Register with nickname, e-mail and password; answers the session token',
        tags,
        body: registerRequest,
        response: { 200: authResponse, '4xx': errorResponse },
      },
    },
    (req) => users.register(deps, req.body, signInClient(req)),
  );

  app.post(
    '/login',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary:
          'Sign in with nickname or e-mail and password; answers the session token (or, for a creator app, its URL)',
        tags,
        body: loginRequest,
        response: { 200: loginResponse, '4xx': errorResponse },
      },
    },
    (req) => users.login(deps, req.body, signInClient(req)),
  );

  app.post(
    '/login/mfa',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Finish a sign-in with a two-factor code or a recovery code; answers as login does',
        tags,
        body: loginMfaRequest,
        response: { 200: loginResponse, '4xx': errorResponse },
      },
    },
    (req) => users.loginMfa(deps, req.body, signInClient(req)),
  );

  app.get(
    '/me',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: 'The signed-in member with their balances',
        tags,
        response: { 200: meResponse, '4xx': errorResponse },
      },
    },
    (req) => users.me(deps, requireAuth(req)),
  );

  app.post(
    '/logout',
    {
      config: { access: 'member', sessionOnly: true },
      schema: {
        summary: 'End the session on the server too',
        tags,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => users.logout(deps, requireAuth(req)),
  );

  app.post(
    '/updateProfile',
    {
      config: { access: 'member', sessionOnly: true },
      schema: {
        summary: "Change the caller's nickname, e-mail, password or Private flag",
        tags,
        body: updateProfileRequest,
        response: { 200: updateProfileResponse, '4xx': errorResponse },
      },
    },
    (req) => updateProfile(deps, requireAuth(req), req.body, signInClient(req)),
  );
};
