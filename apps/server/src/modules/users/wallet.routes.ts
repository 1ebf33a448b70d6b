/** Routes of wallet sign-in under /api/user (SPEC §7 User, DESIGN §8). Thin: schema, access, one service call. */
import {
  authResponse,
  errorResponse,
  loginResponse,
  loginWalletRequest,
  noncedMessageRequest,
  noncedMessageResponse,
  registerWalletRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { signInClient } from '../../http/sign-in-client.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import type { UsersDeps } from './users.service.ts';
import * as wallet from './wallet.service.ts';

/**
 * Registers `getNoncedMessage`, `registerWallet` and `loginWallet`: public, rate limited per client
 * address (an IPv6 one by its /64) like register and login (`authRateLimit` requests per 15 minutes).
 */
export const walletRoutes: FastifyPluginAsyncZod<{ deps: UsersDeps; authRateLimit: number }> = async (
  app,
  { deps, authRateLimit },
) => {
  const limited = { rateLimit: perIpLimit(authRateLimit) };
  const tags = ['user'];

  app.post(
    '/getNoncedMessage',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'The Sign-In with Ethereum (EIP-4361) message for a wallet to sign; its nonce lives 10 minutes',
        tags,
        body: noncedMessageRequest,
        response: { 200: noncedMessageResponse, '4xx': errorResponse },
      },
    },
    (req) => wallet.getNoncedMessage(deps, req.body, req.ip),
  );

  app.post(
    '/registerWallet',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: 'Create a wallet-only account with the signed message; answers the session token',
        tags,
        body: registerWalletRequest,
        response: { 200: authResponse, '4xx': errorResponse },
      },
    },
    (req) => wallet.registerWallet(deps, req.body, signInClient(req)),
  );

  app.post(
    '/loginWallet',
    {
      config: { access: 'public', ...limited },
      schema: {
        summary: "Sign in with the wallet's signature of the issued message; answers the session token",
        tags,
        body: loginWalletRequest,
        response: { 200: loginResponse, '4xx': errorResponse },
      },
    },
    (req) => wallet.loginWallet(deps, req.body, signInClient(req)),
  );
};
