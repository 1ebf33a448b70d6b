/**
 * Provider 2, card: Stripe Checkout through the official `stripe` SDK (DESIGN §7). A checkout is a
 * Checkout Session with the package as its line item and our checkout id as `client_reference_id` and
 * in the metadata (also on the PaymentIntent, which refunds and disputes name). Webhooks are verified by
 * the SDK over the raw body (`Stripe-Signature`, 300 s tolerance either way). `apiUrl` points the SDK at a
 * Stripe-compatible local API (tests). Only an authentic body is read, through the Zod schema of its
 * event type (Stripe's payloads are not our API, so their schemas live here).
 */
import { AppError } from '@starlight/shared';
import type Stripe from 'stripe';
import { z } from 'zod';
import { onFirstUse } from '../../../lib/on-first-use.ts';
import { type Headers, header, type PaymentProvider, type ProviderEvent, parseJson, readEvent } from './provider.ts';

/** DESIGN §7: a signature dated further than this from now, in the past or ahead, is refused. */
const TOLERANCE_S = 300;

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** e.g. `http://127.0.0.1:12111` for a local Stripe-compatible API; unset, Stripe's own. */
  apiUrl?: string | undefined;
}

/** The SDK client for `settings` (pointed at `apiUrl` when given), the SDK loaded now. */
async function stripeClient(settings: StripeSettings): Promise<Stripe> {
  const { default: StripeSdk } = await import('stripe');
  const url = settings.apiUrl ? new URL(settings.apiUrl) : null;
  return new StripeSdk(settings.secretKey, {
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

/** A Stripe id, or the expanded object that carries it. */
const ref = z.union([z.string(), z.object({ id: z.string() })]).nullish();
const metadata = z.record(z.string(), z.string()).nullish();
/** Stripe's amounts: integers in the currency's smallest unit. */
const cents = z.number().int().nonnegative();

/** What every event we read has: its id, its type and the object it is about. */
const envelope = z.object({
  id: z.string().min(1).max(255),
  type: z.string().min(1).max(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});
const about = <O extends z.ZodType>(object: O) => envelope.extend({ data: z.object({ object }) });

/** `checkout.session.*`: the Checkout Session. */
const sessionEvent = about(
  z.object({
    id: z.string().min(1).max(255),
    client_reference_id: z.string().nullish(),
    metadata,
    payment_intent: ref,
    payment_status: z.string(),
    amount_total: cents.nullish(),
    currency: z.string().nullish(),
  }),
);
/** `charge.refunded`: the Charge, with how much of it was refunded. */
const chargeEvent = about(z.object({ amount: cents, amount_refunded: cents, payment_intent: ref, metadata }));
/** `charge.dispute.*`: the Dispute. */
const disputeEvent = about(z.object({ status: z.string(), payment_intent: ref, metadata }));

const idOf = (v: z.infer<typeof ref>) => (typeof v === 'string' ? v : (v?.id ?? undefined));

/**
 * Our reading of a verified Stripe event body (parsed JSON), through the schema of its type; throws
 * RefusedEvent when it does not fit. Types we do not act on need only the envelope (`other`).
 */
function normalise(body: unknown): ProviderEvent {
  const event = readEvent(envelope, body);
  const base = { providerId: 2 as const, eventId: event.id, eventType: event.type, payload: body };
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.async_payment_failed':
    case 'checkout.session.expired': {
      const s = readEvent(sessionEvent, body).data.object;
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
      const c = readEvent(chargeEvent, body).data.object;
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
      const d = readEvent(disputeEvent, body).data.object;
      const lost = event.type === 'charge.dispute.closed' && d.status === 'lost';
      const signal = event.type === 'charge.dispute.created' ? 'dispute_opened' : lost ? 'dispute_lost' : 'other';
      return { ...base, signal, paymentRef: idOf(d.payment_intent), checkoutId: d.metadata?.checkoutId };
    }
    default:
      return { ...base, signal: 'other' };
  }
}

/**
 * The signing time (`t=`, Unix seconds) of a Stripe-Signature header, or null unless it names exactly
 * one, all digits. The SDK checks only a signature's age and does not export its header parser; it
 * signs over the last `t=`, which with exactly one is this one.
 */
export function signedAt(signature: string): number | null {
  const ts = signature
    .split(',')
    .map((part) => part.split('='))
    .filter(([key]) => key === 't')
    .map(([, value]) => value ?? '');
  const [t] = ts;
  return ts.length === 1 && t !== undefined && /^\d{1,12}$/.test(t) ? Number(t) : null;
}

/** Stripe as provider 2. */
export function stripeProvider(settings: StripeSettings): PaymentProvider {
  // The SDK is loaded with the first payment or event, not at start, so a start without payments does not
  // pay for it.
  const client = onFirstUse(() => stripeClient(settings));
  return {
    providerId: 2,
    kind: 'stripe',
    async createPayment(order) {
      const metadata = { checkoutId: order.checkoutId, packageId: order.packageId };
      const session = await (await client()).checkout.sessions.create(
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
      const verifier = (await client()).webhooks.signature;
      if (!verifier) throw new Error('the Stripe SDK has no signature verifier');
      try {
        // The signature over the raw body, and an age of at most TOLERANCE_S.
        verifier.verifyHeader(raw, signature, settings.webhookSecret, TOLERANCE_S);
      } catch {
        throw new AppError('VALIDATION', 'Invalid signature');
      }
      // DESIGN §7: the tolerance bounds both ways; a signature dated ahead is refused past it too.
      const t = signedAt(signature);
      if (t === null || t - Math.floor(Date.now() / 1000) > TOLERANCE_S) {
        throw new AppError('VALIDATION', 'Invalid signature');
      }
      // Read only once authentic: a malformed body is a RefusedEvent (400), never a 500.
      return normalise(parseJson(raw));
    },
  };
}
