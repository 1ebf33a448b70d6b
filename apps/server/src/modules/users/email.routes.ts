/** Routes of /api/user for e-mail verification, password reset and sign-in links (SPEC §7, DESIGN §8). */
import {
  errorResponse,
  forgotPasswordRequest,
  loginLinkRequest,
  loginLinkResponse,
  messageResponse,
  resetPasswordRequest,
  sendVerificationEmailRequest,
  verifyEmailRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { signInClient } from '../../http/sign-in-client.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import * as email from './email.service.ts';
import type { UsersDeps } from './users.service.ts';

export const emailRoutes: FastifyPluginAsyncZod<{ deps: UsersDeps; authRateLimit: number }> = async (
  app,
  { deps, authRateLimit },
) => {
  // Mails and tokens are limited like sign-in: per IP per 15 minutes.
  const limited = { rateLimit: perIpLimit(authRateLimit) };
  const tags = ['user'];

  app.post(
    '/sendVerificationEmail',
    {
      config: { access: 'member', sessionOnly: true, ...limited },
      schema: {
        summary: 'Mail the caller a link that verifies their e-mail (valid 24 hours)',
        tags,
        body: sendVerificationEmailRequest.optional(),
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => email.sendVerificationEmail(deps, requireAuth(req).id, req.body?.email),
  );

  app.post(
    '/verifyEmail',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Verify an e-mail with the token of its link',
        tags,
        body: verifyEmailRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => email.verifyEmail(deps, req.body.token),
  );

  app.post(
    '/forgotPassword',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Mail a password reset link (the same answer for any address)',
        tags,
        body: forgotPasswordRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => email.forgotPassword(deps, req.body.email),
  );

  app.post(
    '/resetPassword',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Set a new password with the token of a reset link; ends every session',
        tags,
        body: resetPasswordRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => email.resetPassword(deps, req.body, signInClient(req)),
  );

  app.post(
    '/loginLink',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary:
          'Sign in once with the token of a mailed sign-in link (sent when the sign-in limits stop a right password)',
        tags,
        body: loginLinkRequest,
        response: { 200: loginLinkResponse, '4xx': errorResponse },
      },
    },
    (req) => email.loginWithLink(deps, req.body.token, signInClient(req)),
  );
};
