/**
 * The provider of each provider id from the configuration (DESIGN §7): real with settings, else the
 * sandbox when CHECKOUT_SANDBOX is on (the default outside production), else none: that id is absent.
 */
import { createHmac } from 'node:crypto';
import type { ProviderId } from '@starlight/shared';
import type { Config } from '../../../config.ts';
import { btcpayProvider } from './btcpay.ts';
import type { PaymentProvider } from './provider.ts';
import { sandboxProvider } from './sandbox.ts';
import { stripeProvider } from './stripe.ts';

/**
 * Provider 1 (crypto) and 2 (card) for `config`, each present only when configured or served by the
 * sandbox; the sandbox signs with a key derived from `serverSecret`.
 */
export function paymentProviders(config: Config, serverSecret: string): Map<ProviderId, PaymentProvider> {
  const sandboxSecret = createHmac('sha256', serverSecret).update('starlight checkout sandbox').digest('hex');
  const sandbox = (id: ProviderId) => (config.CHECKOUT_SANDBOX === 'on' ? sandboxProvider(id, sandboxSecret) : null);
  const crypto =
    config.BTCPAY_URL && config.BTCPAY_API_KEY && config.BTCPAY_STORE_ID && config.BTCPAY_WEBHOOK_SECRET
      ? btcpayProvider({
          url: config.BTCPAY_URL,
          apiKey: config.BTCPAY_API_KEY,
          storeId: config.BTCPAY_STORE_ID,
          webhookSecret: config.BTCPAY_WEBHOOK_SECRET,
        })
      : sandbox(1);
  const card =
    config.STRIPE_SECRET_KEY && config.STRIPE_WEBHOOK_SECRET
      ? stripeProvider({
          secretKey: config.STRIPE_SECRET_KEY,
          webhookSecret: config.STRIPE_WEBHOOK_SECRET,
          apiUrl: config.STRIPE_API_URL,
        })
      : sandbox(2);
  const providers = new Map<ProviderId, PaymentProvider>();
  if (crypto) providers.set(1, crypto);
  if (card) providers.set(2, card);
  return providers;
}
