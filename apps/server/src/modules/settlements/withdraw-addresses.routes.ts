/**
 * Routes of /api/bank for withdrawal addresses and the "allowed addresses only" switch (DESIGN §11.2).
 * Thin: schema, access, one call. A member changes them with their session only (`sessionOnly`: a
 * leaked API key cannot add an address or turn the switch off); a key with `read` may list them. The
 * mailed link's confirmation is public, limited per address like the users' mailed links.
 */
import {
  addWithdrawAddressRequest,
  confirmWithdrawAddressRequest,
  errorResponse,
  messageResponse,
  removeWithdrawAddressRequest,
  setAllowListOnlyRequest,
  userWithdrawAddressesRequest,
  withdrawAddressesRequest,
  withdrawAddressesResponse,
  withdrawAddressResponse,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireAuth } from '../../http/access.ts';
import { perIpLimit } from '../../plugins/rate-limit.ts';
import * as addresses from './withdraw-addresses.service.ts';

/** `authRateLimit`: `RATE_LIMIT_AUTH`, the per-address limit of the public link's confirmation. */
export const withdrawAddressesRoutes: FastifyPluginAsyncZod<{
  deps: addresses.WithdrawAddressesDeps;
  authRateLimit: number;
}> = async (app, { deps, authRateLimit }) => {
  const tags = ['bank'];
  const errors = { '4xx': errorResponse };
  const session = { access: 'member' as const, sessionOnly: true };

  app.post(
    '/withdrawAddresses',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "The caller's withdrawal addresses, newest first, the allow-list switch and any pause",
        tags,
        body: withdrawAddressesRequest,
        response: { 200: withdrawAddressesResponse, ...errors },
      },
    },
    (req) => addresses.listWithdrawAddresses(deps, requireAuth(req).id),
  );

  app.post(
    '/addWithdrawAddress',
    {
      config: session,
      schema: {
        summary: 'Save a withdrawal address; a mailed link confirms it, and it is usable after the hold',
        tags,
        body: addWithdrawAddressRequest,
        response: { 200: withdrawAddressResponse, ...errors },
      },
    },
    (req) => addresses.addWithdrawAddress(deps, requireAuth(req), req.body),
  );

  app.post(
    '/confirmWithdrawAddress',
    {
      config: { access: 'public', rateLimit: perIpLimit(authRateLimit) },
      schema: {
        summary: 'Confirm a withdrawal address with the token of its mailed link (once, within 24 hours)',
        tags,
        body: confirmWithdrawAddressRequest,
        response: { 200: withdrawAddressResponse, ...errors },
      },
    },
    (req) => addresses.confirmWithdrawAddress(deps, req.body.token),
  );

  app.post(
    '/removeWithdrawAddress',
    {
      config: session,
      schema: {
        summary: "Remove one of the caller's withdrawal addresses",
        tags,
        body: removeWithdrawAddressRequest,
        response: { 200: messageResponse, ...errors },
      },
    },
    (req) => addresses.removeWithdrawAddress(deps, requireAuth(req).id, req.body._id),
  );

  app.post(
    '/setAllowListOnly',
    {
      config: session,
      schema: {
        summary: 'Withdraw only to active withdrawal addresses: on at once, off after the hold',
        tags,
        body: setAllowListOnlyRequest,
        response: { 200: withdrawAddressesResponse, ...errors },
      },
    },
    (req) => addresses.setAllowListOnly(deps, requireAuth(req), req.body),
  );

  app.post(
    '/getUserWithdrawAddresses',
    {
      config: { access: 'admin' },
      schema: {
        summary: "A member's withdrawal addresses and allow-list switch (admin)",
        tags,
        body: userWithdrawAddressesRequest,
        response: { 200: withdrawAddressesResponse, ...errors },
      },
    },
    (req) => addresses.getUserWithdrawAddresses(deps, req.body.nickname),
  );
};
