/**
 * Routes of /api/user/mfa (DESIGN §11.1): a member's authenticator app and recovery codes, managed with
 * their session only (`sessionOnly`: an API key cannot turn a second factor on or off).
 */
import {
  errorResponse,
  messageResponse,
  mfaCodeRequest,
  recoveryCodesResponse,
  totpSetupRequest,
  totpSetupResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { signInClient } from '../../http/sign-in-client.ts';
import * as mfa from './mfa.service.ts';

export const mfaRoutes: FastifyPluginAsyncZod<{ deps: mfa.MfaDeps }> = async (app, { deps }) => {
  const tags = ['user'];
  const config = { access: 'member' as const, sessionOnly: true };

  app.post(
    '/mfa/totp/setup',
    {
      config,
      schema: {
        summary: 'Start enrolling an authenticator app: a new secret, its otpauth URL and QR code',
        tags,
        body: totpSetupRequest,
        response: { 200: totpSetupResponse, '4xx': errorResponse },
      },
    },
    (req) => mfa.setupTotp(deps, requireAuth(req).id),
  );

  app.post(
    '/mfa/totp/enable',
    {
      config,
      schema: {
        summary: 'Turn two-factor authentication on with a first code; answers ten recovery codes, shown once',
        tags,
        body: mfaCodeRequest,
        response: { 200: recoveryCodesResponse, '4xx': errorResponse },
      },
    },
    (req) => mfa.enableTotpWithCode(deps, requireAuth(req).id, req.body.code),
  );

  app.post(
    '/mfa/totp/disable',
    {
      config,
      schema: {
        summary: 'Turn two-factor authentication off with a code or a recovery code',
        tags,
        body: mfaCodeRequest,
        response: { 200: messageResponse, '4xx': errorResponse },
      },
    },
    (req) => mfa.disableTotp(deps, requireAuth(req).id, req.body.code, signInClient(req)),
  );

  app.post(
    '/mfa/recoveryCodes',
    {
      config,
      schema: {
        summary: 'A new set of recovery codes (the old set stops working), with a code',
        tags,
        body: mfaCodeRequest,
        response: { 200: recoveryCodesResponse, '4xx': errorResponse },
      },
    },
    (req) => mfa.regenerateRecoveryCodes(deps, requireAuth(req).id, req.body.code),
  );
};
