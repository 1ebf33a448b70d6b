/**
 * The checkout module's root (SPEC §7 Checkout, DESIGN §7) under /api/checkout: members' kept checkout
 * totals, the group commit of provider events, and its routes (packages, purchases, the providers'
 * webhooks, the last with a JSON parser of their own).
 */
import type { FastifyPluginAsync } from 'fastify';
import type { Redis } from 'ioredis';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/client.ts';
import { memoryFailureCounter, redisFailureCounter } from '../../lib/failure-counter.ts';
import { startMemberTotals } from '../../lib/kept-totals.ts';
import { createMailer } from '../../lib/mailer.ts';
import { startEventBatches } from './checkout.batch.ts';
import { mailReceiptLater, type ReceiptDeps } from './checkout.receipt.ts';
import { checkoutRoutes } from './checkout.routes.ts';
import type { CheckoutDeps } from './checkout.service.ts';
import { packagesRoutes } from './packages.routes.ts';
import { paymentProviders } from './providers/index.ts';
import { webhookRoutes } from './webhook.routes.ts';

/**
 * Registers the checkout at `/api/checkout`, with the payment providers `config` turns on (`secret`: the
 * server secret the sandbox signs with); `readDb` serves the admin's checkout list. A completed purchase
 * mails its receipt through the configured mailer, counted in `redis` with the site's other mails.
 */
export const checkoutModule: FastifyPluginAsync<{
  db: Db;
  readDb: Db;
  config: Config;
  secret: string;
  publicUrl: string;
  redis: Redis | null;
}> = async (app, { db, readDb, config, secret, publicUrl, redis }) => {
  const receipts: ReceiptDeps = {
    db,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, from: config.MAIL_FROM, dataDir: config.DATA_DIR, log: app.log }),
    mailsSent: redis ? redisFailureCounter(redis, 'mails') : memoryFailureCounter(),
    maxMailsPerRecipient: config.RATE_LIMIT_MAILS,
    publicUrl,
    log: app.log,
  };
  const deps: CheckoutDeps = {
    db,
    readDb,
    providers: paymentProviders(config, secret),
    publicUrl,
    log: app.log,
    receipt: (by) => mailReceiptLater(receipts, by),
  };
  // Members' own checkout totals, kept until their next change (lib/kept-totals.ts).
  const ownTotals = startMemberTotals(app);
  app.addHook('onClose', async () => ownTotals.stop());
  const eventBatches = startEventBatches(app, deps);
  await app.register(packagesRoutes, { prefix: '/api/checkout', deps });
  await app.register(checkoutRoutes, { prefix: '/api/checkout', deps, ownTotals });
  await app.register(webhookRoutes, { prefix: '/api/checkout', deps, eventBatches });
};
