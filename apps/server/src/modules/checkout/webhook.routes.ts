/** Routes of /api/checkout's provider webhooks (DESIGN §7): Stripe's and BTCPay Server's signed events. */
import { errorResponse } from '@starlight/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { EventBatches } from './checkout.batch.ts';
import * as checkout from './checkout.service.ts';

/**
 * The providers' webhooks (DESIGN §7): the body stays the raw text the provider signed (this plugin's
 * own JSON parser keeps it as a string), verified by the provider before anything is recorded.
 * `eventBatches`: the module's group commit of events that name their checkout by our id.
 */
export const webhookRoutes: FastifyPluginAsyncZod<{ deps: checkout.CheckoutDeps; eventBatches: EventBatches }> = async (
  app,
  { deps, eventBatches },
) => {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  const received = z.object({ received: z.literal(true), outcome: z.string() });
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
