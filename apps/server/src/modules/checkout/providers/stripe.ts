/**
 * Provider 2, card: Stripe Checkout through the official `stripe` SDK (DESIGN §7). A checkout is a
 * Checkout Session with the package as its line item and our checkout id as `client_reference_id` and
 * in the metadata (also on the PaymentIntent, which refunds and disputes name). Webhooks are verified by
 * the SDK over the raw body (`Stripe-Signature`, 300 s tolerance). `apiUrl` points the SDK at a
 * Stripe-compatible local API (tests).
 */
import { AppError } from '@starlight/shared';
import Stripe from 'stripe';
import { type Headers, header, type PaymentProvider, type ProviderEvent } from './provider.ts';

/** DESIGN §7: a signature older than this is refused. */
const TOLERANCE_S = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** e.g. `http://127.0.0.1:12111` for a local Stripe-compatible API; unset, Stripe's own. */
  apiUrl?: string | undefined;
}

/** The SDK client for `settings` (pointed at `apiUrl` when given). */
export function stripeClient(settings: StripeSettings): Stripe {
  const url = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new Stripe(settings.secretKey, {
    maxNetworkRetries: 2,
    ...(url
      ? {
          host: url.hostname,
          port: url.port || (url.protocol === 'https:' ? 443 : 80),
          protocol: url.protocol === 'https:' ? 'https' : 'http',
        }
      : {}),
  });
}

const idOf = (v: string | { id: string } | null | undefined) => (typeof v === 'string' ? v : (v?.id ?? undefined));

/** Our reading of a verified Stripe event. */
function normalise(event: Stripe.Event): ProviderEvent {
  const base = { providerId: 2 as const, eventId: event.id, eventType: event.type, payload: event };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = event.data.object;
      const ids = {
        checkoutId: s.client_reference_id ?? s.metadata?.checkoutId,
        refId: s.id,
        paymentRef: idOf(s.payment_intent),
      };
      if (event.type === 'checkout.session.expired') return { ...base, ...ids, signal: 'failed' };
      if (event.type === 'checkout.session.async_payment_failed') return { ...base, ...ids, signal: 'failed' };
      if (s.payment_status !== 'paid') return { ...base, ...ids, signal: 'pending' };
      return {
        ...base,
        ...ids,
        signal: 'paid',
        paid: { cents: BigInt(s.amount_total ?? 0), currency: s.currency ?? '', packageId: s.metadata?.packageId },
      };
    }
    case 'charge.refunded': {
      const c = event.data.object;
      return {
        ...base,
        signal: 'refunded',
        paymentRef: idOf(c.payment_intent),
        checkoutId: c.metadata?.checkoutId,
        refund: { refundedCents: BigInt(c.amount_refunded), totalCents: BigInt(c.amount) },
      };
    }
    case 'charge.dispute.created':
    case 'charge.dispute.closed': {
      const d = event.data.object;
      const lost = event.type === 'charge.dispute.closed' && d.status === 'lost';
      const signal = event.type === 'charge.dispute.created' ? 'dispute_opened' : lost ? 'dispute_lost' : 'other';
      return { ...base, signal, paymentRef: idOf(d.payment_intent), checkoutId: d.metadata?.checkoutId };
    }
    default:
      return { ...base, signal: 'other' };
  }
}

/** Stripe as provider 2. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  const stripe = stripeClient(settings);
  return {
    providerId: 2,
    kind: 'stripe',
    async createPayment(order) {
      const metadata = { checkoutId: order.checkoutId, packageId: order.packageId };
      const session = await stripe.checkout.sessions.create(
        {
          mode: 'payment',
          client_reference_id: order.checkoutId,
          metadata,
          payment_intent_data: { metadata },
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: 'usd',
                unit_amount: Number(order.costCents),
                product_data: { name: order.name, description: order.description },
              },
            },
          ],
          success_url: order.successUrl,
          cancel_url: order.cancelUrl,
        },
        { idempotencyKey: `checkout-${order.checkoutId}` },
      );
      if (!session.url) throw new AppError('CONFLICT', 'The card provider gave no payment page');
      return { link: session.url, refId: session.id };
    },
    async parseWebhook(raw, headers: Headers) {
      const signature = header(headers, 'stripe-signature');
      if (!signature) throw new AppError('VALIDATION', 'Invalid signature');
      let event: Stripe.Event;
      try {
        event = stripe.webhooks.constructEvent(raw, signature, settings.webhookSecret, TOLERANCE_S);
      } catch {
        throw new AppError('VALIDATION', 'Invalid signature');
      }
      return normalise(event);
    },
  };
}
