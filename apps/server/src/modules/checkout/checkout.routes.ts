/** Routes of /api/checkout's purchases (SPEC §7 Checkout, DESIGN §7): buying a package, the lists, the sandbox. */
import {
  buyPackageRequest,
  buyPackageResponse,
  checkoutsCsvQuery,
  checkoutsResponse,
  errorResponse,
  getAllCheckoutsRequest,
  getCheckoutsRequest,
  messageResponse,
  SANDBOX_ACTIONS,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { csvFileName, sendCsv } from '../../lib/csv-export.ts';
import type { KeptTotals } from '../../lib/kept-totals.ts';
import { csvExportLimit } from '../../plugins/rate-limit.ts';
import * as checkout from './checkout.service.ts';
import { CHECKOUT_COLUMNS, checkoutPages } from './checkouts-export.service.ts';

/** `ownTotals`: members' kept checkout totals. */
export const checkoutRoutes: FastifyPluginAsyncZod<{ deps: checkout.CheckoutDeps; ownTotals: KeptTotals }> = async (
  app,
  { deps, ownTotals },
) => {
  const { db } = deps;
  const tags = ['checkout'];
  const errors = { '4xx': errorResponse };

  app.post(
    '/buyPackage',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        summary: "Buy a package: opens a checkout and answers the provider's payment page",
        tags,
        body: buyPackageRequest,
        response: { 200: buyPackageResponse, ...errors },
      },
    },
    (req) => checkout.buyPackage(deps, app.live.changes, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/getTransactions',
    {
      config: { access: 'member', scope: 'read' },
      schema: {
        summary: "The caller's checkouts with their event history, newest first",
        tags,
        body: getCheckoutsRequest,
        response: { 200: checkoutsResponse, ...errors },
      },
    },
    (req) => checkout.getTransactions(db, requireAuth(req), req.body, ownTotals),
  );

  app.post(
    '/getAllTransactions',
    {
      config: { access: 'admin' },
      schema: {
        summary: "Every member's checkouts with filters (admin)",
        tags,
        body: getAllCheckoutsRequest,
        response: { 200: checkoutsResponse, ...errors },
      },
    },
    (req) => checkout.getAllTransactions(deps.readDb, req.body),
  );

  app.get(
    '/checkouts.csv',
    {
      config: { access: 'admin', downloadLink: true, rateLimit: csvExportLimit() },
      schema: {
        summary: 'Every checkout matching the Checkout Logs filters, as CSV, newest first (admin, DESIGN §11.6)',
        tags,
        querystring: checkoutsCsvQuery,
        response: errors,
      },
    },
    (req, reply) => {
      sendCsv(req, reply, csvFileName('checkouts'), CHECKOUT_COLUMNS, checkoutPages(deps.readDb, req.query));
    },
  );

  app.post(
    '/sandbox/:checkoutId/:action',
    {
      config: { access: 'member', scope: 'transfer' },
      schema: {
        operationId: 'sandboxEvent',
        summary: "The sandbox provider's page: pay, fail or delay the caller's checkout",
        tags,
        params: z.strictObject({ checkoutId: z.string().length(24), action: z.enum(SANDBOX_ACTIONS) }),
        response: { 200: messageResponse.extend({ outcome: z.string() }), ...errors },
      },
    },
    (req) =>
      checkout.sandboxAction(deps, req.server.live.changes, requireAuth(req), req.params.checkoutId, req.params.action),
  );
};
