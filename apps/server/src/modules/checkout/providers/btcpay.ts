/**
 * Provider 1, crypto: BTCPay Server's Greenfield API (DESIGN §7). A checkout is an invoice in US
 * dollars with our checkout id as its `orderId`; webhooks carry `BTCPay-Sig: sha256=<HMAC-SHA256 of the
 * raw body>` and are deduplicated by their original delivery id (a redelivery gets a new delivery id).
 * A settled invoice is read back from the API, so the amount credited is the one BTCPay says was asked.
 * Only an authentic body is read, through the Zod schema of its event type (`Invoice*` events must
 * name their invoice).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, fromNumeric } from '@starlight/shared';
import { z } from 'zod';
import { type Headers, header, type PaymentProvider, type ProviderEvent, parseJson, readEvent } from './provider.ts';

export interface BtcpaySettings {
  url: string;
  apiKey: string;
  storeId: string;
  webhookSecret: string;
}

/** What every Greenfield webhook we read has: its delivery ids and its type. */
const deliveryEvent = z.object({
  deliveryId: z.string().min(1).max(255),
  originalDeliveryId: z.string().min(1).max(255).nullish(),
  type: z.string().min(1).max(255),
});
/** `Invoice*` events: the invoice, and the metadata we gave it. */
const invoiceEvent = deliveryEvent.extend({
  invoiceId: z.string().min(1).max(255),
  metadata: z.object({ orderId: z.string().optional(), packageId: z.string().optional() }).nullish(),
});

interface Invoice {
  id: string;
  checkoutLink: string;
  amount: string;
  currency: string;
  metadata?: { orderId?: string; packageId?: string };
}

const SIGNALS: Record<string, ProviderEvent['signal']> = {
  InvoiceSettled: 'paid',
  InvoiceProcessing: 'pending',
  InvoiceExpired: 'failed',
  InvoiceInvalid: 'failed',
};

/** BTCPay Server as provider 1. */
export function btcpayProvider(settings: BtcpaySettings): PaymentProvider {
  const base = `${settings.url.replace(/\/+$/, '')}/api/v1/stores/${encodeURIComponent(settings.storeId)}/invoices`;
  const call = async <T>(path: string, init: RequestInit = {}): Promise<T> => {
    const res = await fetch(`${base}${path}`, {
      ...init,
      headers: { 'content-type': 'application/json', authorization: `token ${settings.apiKey}` },
    });
    if (!res.ok) throw new AppError('CONFLICT', `The crypto provider answered ${res.status}`);
    return (await res.json()) as T;
  };
  return {
    providerId: 1,
    kind: 'btcpay',
    async createPayment(order) {
      const invoice = await call<Invoice>('', {
        method: 'POST',
        body: JSON.stringify({
          amount: (Number(order.costCents) / 100).toFixed(2),
          currency: 'USD',
          metadata: { orderId: order.checkoutId, packageId: order.packageId, itemDesc: order.name },
          checkout: { redirectURL: order.successUrl },
        }),
      });
      return { link: invoice.checkoutLink, refId: invoice.id };
    },
    async parseWebhook(raw, headers: Headers) {
      const given = Buffer.from(header(headers, 'btcpay-sig') ?? '');
      const expected = Buffer.from(`sha256=${createHmac('sha256', settings.webhookSecret).update(raw).digest('hex')}`);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError('VALIDATION', 'Invalid signature');
      }
      // Read only once authentic: a malformed body is a RefusedEvent (400), never a 500.
      const parsed = parseJson(raw);
      const delivery = readEvent(deliveryEvent, parsed);
      const invoice = delivery.type.startsWith('Invoice') ? readEvent(invoiceEvent, parsed) : null;
      const event: ProviderEvent = {
        providerId: 1,
        eventId: delivery.originalDeliveryId || delivery.deliveryId,
        eventType: delivery.type,
        signal: SIGNALS[delivery.type] ?? 'other',
        refId: invoice?.invoiceId,
        checkoutId: invoice?.metadata?.orderId,
        payload: parsed,
      };
      if (event.signal === 'paid' && invoice) {
        const asked = await call<Invoice>(`/${encodeURIComponent(invoice.invoiceId)}`);
        event.paid = {
          cents: fromNumeric(asked.amount) / 10_000_000n,
          currency: asked.currency.toLowerCase(),
          packageId: asked.metadata?.packageId,
        };
        event.checkoutId = asked.metadata?.orderId ?? event.checkoutId;
      }
      return event;
    },
  };
}
