/** Routes of /api/checkout (SPEC §7 Checkout, DESIGN §7). Thin: schema, access, one service call. */
import {
  buyPackageRequest,
  buyPackageResponse,
  checkoutsResponse,
  createPackageRequest,
  errorResponse,
  getAllCheckoutsRequest,
  getCheckoutsRequest,
  messageResponse,
  packageIdRequest,
  packageResponse,
  packagesResponse,
  SANDBOX_ACTIONS,
  setPackageActiveRequest,
} from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../http/access.ts';
import { inLiveTransaction } from '../../http/money-moving.ts';
import { GroupCommit } from '../../lib/group-commit.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { applyProviderEvents, type NamedEvent } from './checkout.batch.ts';
import type { EventOutcome } from './checkout.events.ts';
import * as checkout from './checkout.service.ts';
import * as packages from './packages.service.ts';

export const checkoutRoutes: FastifyPluginAsyncZod<{ deps: checkout.CheckoutDeps }> = async (app, { deps }) => {
  const { db } = deps;
  const tags = ['checkout'];
  const errors = { '4xx': errorResponse };
  // Members' own checkout totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());

  app.get(
    '/packages/fetch',
    {
      config: { access: 'public' },
      schema: {
        operationId: 'fetchPackages',
        summary: 'Credits packages on sale (an admin gets every package), and the payment providers a purchase can use',
        tags,
        response: { 200: packagesResponse, ...errors },
      },
    },
    (req) => packages.fetchPackages(db, req.auth, checkout.availableProviders(deps)),
  );

  app.post(
    '/packages/create',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'createPackage',
        summary: 'Create a Credits package, unpublished (admin)',
        tags,
        body: createPackageRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.createPackage(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/packages/delete',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'deletePackage',
        summary: 'Delete a Credits package (admin)',
        tags,
        body: packageIdRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.deletePackage(db, requireAuth(req), req.body.objectId, req.ip),
  );

  app.post(
    '/packages/publish',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'publishPackage',
        summary: 'Publish a Credits package, once and for good (admin)',
        tags,
        body: packageIdRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.publishPackage(db, requireAuth(req), req.body.objectId, req.ip),
  );

  app.post(
    '/packages/setactive',
    {
      config: { access: 'admin' },
      schema: {
        operationId: 'setPackageActive',
        summary: 'Put a Credits package on sale or take it off (admin)',
        tags,
        body: setPackageActiveRequest,
        response: { 200: packageResponse, ...errors },
      },
    },
    (req) => packages.setPackageActive(db, requireAuth(req), req.body, req.ip),
  );

  app.post(
    '/buyPackage',
    {
      config: { access: 'member' },
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
      config: { access: 'member' },
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

  app.post(
    '/sandbox/:checkoutId/:action',
    {
      config: { access: 'member' },
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

/**
 * The providers' webhooks (DESIGN §7): the body stays the raw text the provider signed (this plugin's
 * own JSON parser keeps it as a string), verified by the provider before anything is recorded.
 */
export const checkoutWebhookRoutes: FastifyPluginAsyncZod<{ deps: checkout.CheckoutDeps }> = async (app, { deps }) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const received = z.object({ received: z.literal(true), outcome: z.string() });
  // Events that name their checkout by our id go by group commit (DESIGN §9): those that arrive while a
  // batch is written go together in the next one, each with its own outcome (checkout.batch.ts).
  const eventBatches = new GroupCommit<NamedEvent, EventOutcome>(
    (_lane, events, commit) =>
      inLiveTransaction(
        deps.db,
        app.live.changes,
        (tx, changes) => applyProviderEvents(tx, events, changes, (m) => deps.log.warn(m)),
        commit,
      ),
    32,
  );
  for (const kind of ['stripe', 'btcpay'] as const) {
    app.post(
      `/webhook/${kind}`,
      {
        config: { access: 'public' },
        schema: {
          operationId: `${kind}Webhook`,
          summary: `${kind === 'stripe' ? 'Stripe' : 'BTCPay Server'} events (signed); answered once stored`,
          tags: ['checkout'],
          response: { 200: received, '4xx': errorResponse },
        },
      },
      async (req) => {
        const raw = typeof req.body === 'string' ? req.body : '';
        const via = checkout.providerOfKind(deps, kind);
        const outcome = await checkout.receiveWebhook(
          deps,
          req.server.live.changes,
          via,
          raw,
          req.headers,
          eventBatches,
        );
        return { received: true as const, outcome };
      },
    );
  }
};
