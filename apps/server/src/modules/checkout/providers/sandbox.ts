/**
 * The built-in sandbox provider (DESIGN §7): serves a provider that has no settings, so the whole
 * purchase runs with no account anywhere. Its payment page is `/checkout/sandbox/{checkoutId}` (Pay,
 * Fail, Delay); each button makes the server sign an event with the sandbox secret and hand it to the
 * same webhook path a real provider's event takes (`sandboxEvent` then `parseWebhook`). `refund` (API
 * only) stands for a provider's full refund.
 */
import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto';
import { AppError, type ProviderId, type SandboxAction } from '@starlight/shared';
import { type Headers, header, type PaymentProvider, type ProviderEvent } from './provider.ts';

const SIGNATURE_HEADER = 'x-sandbox-signature';
const SIGNALS: Record<SandboxAction, ProviderEvent['signal']> = {
  pay: 'paid',
  fail: 'failed',
  delay: 'delayed',
  refund: 'refunded',
};

interface SandboxBody {
  id: string;
  type: `sandbox.${SandboxAction}`;
  checkoutId: string;
  amountCents: string;
  currency: string;
  packageId: string;
}

const sign = (secret: string, raw: string) => `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;

/** The sandbox standing in for provider `providerId`; `secret` signs and verifies its events. */
export function sandboxProvider(
  providerId: ProviderId,
  secret: string,
): PaymentProvider & {
  /** The signed event of pressing `action` on the sandbox page of `checkout`: its raw body and headers. */
  sandboxEvent(
    action: SandboxAction,
    checkout: { id: string; costCents: bigint; packageId: string },
  ): { raw: string; headers: Headers };
} {
  return {
    providerId,
    kind: 'sandbox',
    async createPayment(order) {
      return { link: `/checkout/sandbox/${order.checkoutId}`, refId: `sbx_${order.checkoutId}` };
    },
    sandboxEvent(action, checkout) {
      const body: SandboxBody = {
        id: `evt_sbx_${randomUUID()}`,
        type: `sandbox.${action}`,
        checkoutId: checkout.id,
        amountCents: checkout.costCents.toString(),
        currency: 'usd',
        packageId: checkout.packageId,
      };
      const raw = JSON.stringify(body);
      return { raw, headers: { [SIGNATURE_HEADER]: sign(secret, raw) } };
    },
    async parseWebhook(raw, headers) {
      const given = Buffer.from(header(headers, SIGNATURE_HEADER) ?? '');
      const expected = Buffer.from(sign(secret, raw));
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        throw new AppError('VALIDATION', 'Invalid signature');
      }
      const body = JSON.parse(raw) as SandboxBody;
      const action = body.type.slice('sandbox.'.length) as SandboxAction;
      return {
        providerId,
        eventId: body.id,
        eventType: body.type,
        signal: SIGNALS[action] ?? 'other',
        checkoutId: body.checkoutId,
        refId: `sbx_${body.checkoutId}`,
        paid: { cents: BigInt(body.amountCents), currency: body.currency, packageId: body.packageId },
        payload: body,
      };
    },
  };
}
