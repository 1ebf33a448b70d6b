/**
 * Provider 1, crypto: BTCPay Server's Greenfield API (DESIGN §7). A checkout is an invoice in US
 * dollars with our checkout id as its `orderId`; webhooks carry `BTCPay-Sig: sha256=<HMAC-SHA256 of the
 * raw body>` and are deduplicated by their original delivery id (a redelivery gets a new delivery id).
 * A settled invoice is read back from the API, so the amount credited is the one BTCPay says was asked.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { AppError, fromNumeric } from '@starlight/shared';
import { type Headers, header, type PaymentProvider, type ProviderEvent } from './provider.ts';

export interface BtcpaySettings {
  url: string;
  apiKey: string;
  storeId: string;
  webhookSecret: string;
}

interface InvoiceEvent {
  deliveryId: string;
  originalDeliveryId?: string;
  type: string;
  invoiceId?: string;
  metadata?: { orderId?: string; packageId?: string };
}

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
      const body = JSON.parse(raw) as InvoiceEvent;
      const event: ProviderEvent = {
        providerId: 1,
        eventId: body.originalDeliveryId || body.deliveryId,
        eventType: body.type,
        signal: SIGNALS[body.type] ?? 'other',
        refId: body.invoiceId,
        checkoutId: body.metadata?.orderId,
        payload: body,
      };
      if (event.signal === 'paid' && body.invoiceId) {
        const invoice = await call<Invoice>(`/${encodeURIComponent(body.invoiceId)}`);
        event.paid = {
          cents: fromNumeric(invoice.amount) / 10_000_000n,
          currency: invoice.currency.toLowerCase(),
          packageId: invoice.metadata?.packageId,
        };
        event.checkoutId = invoice.metadata?.orderId ?? event.checkoutId;
      }
      return event;
    },
  };
}
