/**
 * Crypto payments through BTCPay Server (DESIGN §7), against a local Greenfield API:
 * buyPackage creates an invoice; a settled invoice (its amount read back from the API) credits once; a
 * redelivery, which carries a new delivery id, credits nothing more; a bad signature is refused; a
 * correctly signed but malformed body is refused with 400 and recorded as refused.
 */
import { createHmac } from 'node:crypto';
import type { CheckoutPackage } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, checkoutOf, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, expectLedgerBalanced, registerMember, useTestApp } from './helpers.ts';
import { startBtcpayStub } from './provider-stubs.ts';

const STORE = 'store_starlight';
const API_KEY = 'btcpay-api-key';
const SECRET = 'btcpay-webhook-secret';
const stub = await startBtcpayStub(STORE, API_KEY);
const t = useTestApp({
  BTCPAY_URL: stub.url,
  BTCPAY_API_KEY: API_KEY,
  BTCPAY_STORE_ID: STORE,
  BTCPAY_WEBHOOK_SECRET: SECRET,
});
const CREDITS = 3;
let pkg: CheckoutPackage;

beforeAll(async () => {
  pkg = await publishedPackage(t, { cost: '25.00', amount: '3000' });
});
afterAll(() => stub.close());

/** Delivers a Greenfield invoice event; `delivery` and `original` are BTCPay's delivery ids. */
function deliver(type: string, invoiceId: string, delivery: string, original: string, secret = SECRET) {
  const payload = JSON.stringify({
    deliveryId: delivery,
    webhookId: 'wh_1',
    originalDeliveryId: original,
    isRedelivery: delivery !== original,
    type,
    timestamp: Math.floor(Date.now() / 1000),
    storeId: STORE,
    invoiceId,
  });
  const sig = `sha256=${createHmac('sha256', secret).update(payload).digest('hex')}`;
  return t.app.inject({
    method: 'POST',
    url: '/api/checkout/webhook/btcpay',
    headers: { 'content-type': 'application/json', 'btcpay-sig': sig },
    payload,
  });
}

/** Delivers `payload` as it is, signed with the webhook secret. */
function deliverRaw(payload: string) {
  const sig = `sha256=${createHmac('sha256', SECRET).update(payload).digest('hex')}`;
  return t.app.inject({
    method: 'POST',
    url: '/api/checkout/webhook/btcpay',
    headers: { 'content-type': 'application/json', 'btcpay-sig': sig },
    payload,
  });
}

async function refusedCount(): Promise<number> {
  const res = await t.built.database.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM checkout_events WHERE provider_id = 1 AND outcome = 'refused'`,
  );
  return Number(res.rows[0]?.n);
}

describe('BTCPay checkout', () => {
  it('creates an invoice; settled credits once; a redelivery with a new delivery id adds nothing', async () => {
    const m = await registerMember(t.app, 'crypto');
    const bought = await buy(t, m, pkg, 1);
    const invoice = stub.invoices.get(bought.checkout.refId);
    expect(bought.link).toBe(`https://btcpay.test/i/${bought.checkout.refId}`);
    expect(invoice).toMatchObject({
      amount: '25.00',
      currency: 'USD',
      metadata: { orderId: bought.checkout._id, packageId: pkg._id },
    });

    expect((await deliver('InvoiceProcessing', bought.checkout.refId, 'd1', 'd1')).json().outcome).toBe('pending');
    expect((await checkoutOf(t, m, bought.checkout._id))?.state).toBe(3);
    expect((await deliver('InvoiceSettled', bought.checkout.refId, 'd2', 'd2')).json().outcome).toBe('completed');
    expect((await deliver('InvoiceSettled', bought.checkout.refId, 'd3', 'd2')).json().outcome).toBe('duplicate');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('3000');
    const c = await checkoutOf(t, m, bought.checkout._id);
    expect(c?.state).toBe(9);
    expect(c?.eventHistory.map((e) => e.eventType)).toEqual(['InvoiceProcessing', 'InvoiceSettled']);
  });

  it('a bad signature is refused and changes nothing; an expired invoice cancels', async () => {
    const m = await registerMember(t.app, 'crypto');
    const bought = await buy(t, m, pkg, 1);
    const forged = await deliver('InvoiceSettled', bought.checkout.refId, 'x1', 'x1', 'not-the-secret');
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe('Invalid signature');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    expect((await deliver('InvoiceExpired', bought.checkout.refId, 'x2', 'x2')).json().outcome).toBe('cancelled');
    expect((await checkoutOf(t, m, bought.checkout._id))?.state).toBe(8);
  });

  it('a settled invoice whose amount differs from the package cost never credits', async () => {
    const m = await registerMember(t.app, 'crypto');
    const bought = await buy(t, m, pkg, 1);
    const invoice = stub.invoices.get(bought.checkout.refId);
    if (invoice) invoice.amount = '2.50';
    expect((await deliver('InvoiceSettled', bought.checkout.refId, 'y1', 'y1')).json().outcome).toBe('mismatch');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it.each([
    ['truncated JSON', '{"deliveryId":', 'Body is not valid JSON'],
    ['null', 'null', '"value" contains an invalid value'],
    ['a settled event with no invoice id', '{"deliveryId":"z1","type":"InvoiceSettled"}', '"invoiceId" is required'],
  ])(
    'a signed body of %s answers 400, is recorded as refused once and changes nothing',
    async (_what, payload, message) => {
      const m = await registerMember(t.app, 'crypto');
      const bought = await buy(t, m, pkg, 1);
      expect(
        (
          await deliver('InvoiceSettled', bought.checkout.refId, `s_${bought.checkout._id}`, `s_${bought.checkout._id}`)
        ).json().outcome,
      ).toBe('completed');
      const before = await refusedCount();
      for (const attempt of [1, 2]) {
        const res = await deliverRaw(payload);
        expect(res.statusCode, `attempt ${attempt}: ${res.body}`).toBe(400);
        expect(res.json().message).toBe(message);
      }
      expect(await refusedCount()).toBe(before + 1);
      expect(await balanceOf(t.app, m, CREDITS)).toBe('3000');
      const c = await checkoutOf(t, m, bought.checkout._id);
      expect(c?.state).toBe(9);
      expect(c?.eventHistory.map((e) => e.eventType)).toEqual(['InvoiceSettled']);
      await expectLedgerBalanced(t.app, t.admin);
    },
  );
});
