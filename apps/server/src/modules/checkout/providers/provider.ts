/**
 * What the checkout needs of a payment provider (DESIGN §7): open a payment page for a checkout, and
 * turn a webhook's raw body and headers, once verified, into one normalised event. Stripe (card), BTCPay
 * Server (crypto) and the built-in sandbox implement it.
 */
import { AppError, issueMessage, type ProviderId } from '@starlight/shared';
import type { z } from 'zod';

/** What an event means for a checkout, whatever the provider calls it. */
export type PaymentSignal =
  | 'paid'
  | 'pending'
  | 'delayed'
  | 'failed'
  | 'refunded'
  | 'dispute_opened'
  | 'dispute_lost'
  | 'other';

/** A verified provider event. Money in cents of `currency` (lowercase ISO 4217). */
export interface ProviderEvent {
  providerId: ProviderId;
  /** The provider's id of the event, the same on every redelivery: the deduplication key. */
  eventId: string;
  eventType: string;
  signal: PaymentSignal;
  /** Our checkout id when the event carries it (metadata, client reference). */
  checkoutId?: string | undefined;
  /** The provider's id of the payment page (Checkout Session, invoice). */
  refId?: string | undefined;
  /** The provider's id of the payment itself (PaymentIntent), which refunds and disputes name. */
  paymentRef?: string | undefined;
  /** On `paid`: what the provider says was paid, to be checked against the checkout. */
  paid?: { cents: bigint; currency: string; packageId?: string | undefined };
  /** On `refunded`: how much of how much was refunded. */
  refund?: { refundedCents: bigint; totalCents: bigint };
  payload: unknown;
}

/** A checkout as a provider is asked to charge it. */
export interface PaymentOrder {
  checkoutId: string;
  packageId: string;
  name: string;
  description: string;
  /** US dollar cents. */
  costCents: bigint;
  /** Where the provider sends the member after paying, and after giving up. */
  successUrl: string;
  cancelUrl: string;
}

/** Request headers as Fastify gives them. */
export type Headers = Record<string, string | string[] | undefined>;

export interface PaymentProvider {
  readonly providerId: ProviderId;
  readonly kind: 'stripe' | 'btcpay' | 'sandbox';
  /** Opens the provider's payment page for `order`: its URL and the provider's id of it. */
  createPayment(order: PaymentOrder): Promise<{ link: string; refId: string }>;
  /**
   * Verifies a webhook (signature over the raw body), then reads it through the Zod schema of its
   * event type and normalises it. Throws AppError VALIDATION `Invalid signature` when it is not
   * authentic (nothing is recorded then), and RefusedEvent when it is authentic but cannot be read.
   */
  parseWebhook(raw: string, headers: Headers): Promise<ProviderEvent>;
}

/** The first value of header `name`. */
export function header(headers: Headers, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * A webhook whose signature is right but whose body cannot be read (not JSON, or not the shape of its
 * event type): answered 400 with the first field error in SPEC §5's form (DESIGN §3) or `Body is not
 * valid JSON`, and recorded as refused by the service. `payload` is the parsed body, or the raw text
 * when it is not JSON; `eventType` is the body's `type` when it has a readable one, else ''.
 */
export class RefusedEvent extends AppError {
  readonly eventType: string;
  readonly payload: unknown;
  constructor(reason: string, eventType: string, payload: unknown) {
    super('VALIDATION', reason);
    this.eventType = eventType;
    this.payload = payload;
  }
}

/** `raw` parsed as JSON; RefusedEvent `Body is not valid JSON` when it is not. */
export function parseJson(raw: string): unknown {
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new RefusedEvent('Body is not valid JSON', '', raw);
  }
}

/** The `type` of a parsed body when it is a string (for the record of a refused event), else ''. */
export function typeOf(body: unknown): string {
  const type = body && typeof body === 'object' ? (body as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? type.slice(0, 255) : '';
}

/** `body` read through `schema`, or RefusedEvent with the first issue in SPEC §5's form. */
export function readEvent<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const read = schema.safeParse(body);
  if (read.success) return read.data;
  const first = read.error.issues[0];
  throw new RefusedEvent(first ? issueMessage(first) : 'Invalid event', typeOf(body), body);
}
