/**
 * The checkout module's root (SPEC §7 Checkout, DESIGN §7) under /api/checkout: members' kept checkout
 * totals, the group commit of provider events, and its routes (packages, purchases, the providers'
 * webhooks, the last with a JSON parser of their own).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { startEventBatches } from './checkout.batch.ts';
import { checkoutRoutes } from './checkout.routes.ts';
import type { CheckoutDeps } from './checkout.service.ts';
import { packagesRoutes } from './packages.routes.ts';
import { paymentProviders } from './providers/index.ts';
import { webhookRoutes } from './webhook.routes.ts';

/**
 * Registers the checkout at `/api/checkout`, with the payment providers `config` turns on (`secret`: the
 * server secret the sandbox signs with); `readDb` serves the admin's checkout list.
 */
export const checkoutModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  config: Config;
  secret: string;
  publicUrl: string;
}> = async (app, { db, readDb, config, secret, publicUrl }) => {
  const deps: CheckoutDeps = { db, readDb, providers: paymentProviders(config, secret), publicUrl, log: app.log };
  // Members' own checkout totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
  const eventBatches = startEventBatches(app, deps);
  await app.register(packagesRoutes, { prefix: '/api/checkout', deps });
  await app.register(checkoutRoutes, { prefix: '/api/checkout', deps, ownTotals });
  await app.register(webhookRoutes, { prefix: '/api/checkout', deps, eventBatches });
};
