/**
 * Card payments through Stripe (DESIGN §7), against a local Stripe-compatible API (the
 * official SDK pointed at it by STRIPE_API_URL) and webhooks signed as Stripe signs them
 * (`stripe.webhooks.generateTestHeaderString`): a paid completion credits once however often and
 * concurrently it is delivered; a forged, stale or re-serialised event changes nothing; an unpaid
 * completion waits for the async success; a wrong amount never credits; a refund after spending part
 * takes back what is left and records the rest as owed; a signed but malformed event is refused with 400
 * and recorded as refused; a signature dated more than 300 s ahead is refused.
 */
import type { BuyPackageResponse, CheckoutPackage } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buy, checkoutOf, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';
import { startStripeStub } from './provider-stubs.ts';

const SECRET = 'whsec_test_starlight_secret';
const stub = await startStripeStub();
const t = useTestApp({
  STRIPE_SECRET_KEY: 'sk_test_starlight',
  STRIPE_WEBHOOK_SECRET: SECRET,
  STRIPE_API_URL: stub.url,
});
const stripe = new Stripe('sk_test_starlight');
const CREDITS = 3;
let pkg: CheckoutPackage;

beforeAll(async () => {
  pkg = await publishedPackage(t, { amount: '1000' });
});
afterAll(() => stub.close());

let eventSeq = 0;

/** A Stripe event of `type` about `object`, as JSON text. */
function eventJson(type: string, object: Record<string, unknown>, id = `evt_test_${++eventSeq}_${Date.now()}`): string {
  return JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
}

/** The session of `bought` as Stripe would describe it in an event. */
function session(bought: BuyPackageResponse, over: Record<string, unknown> = {}) {
  return {
    id: bought.checkout.refId,
    object: 'checkout.session',
    client_reference_id: bought.checkout._id,
    metadata: { checkoutId: bought.checkout._id, packageId: pkg._id },
    amount_total: 999,
    currency: 'usd',
    payment_status: 'paid',
    payment_intent: `pi_${bought.checkout._id}`,
    ...over,
  };
}

/** Delivers `payload` to the webhook signed with `secret` (at `timestamp`, seconds), or with `header` as given. */
function deliver(payload: string, opts: { secret?: string; timestamp?: number; header?: string | null } = {}) {
  const signature =
    opts.header === undefined
      ? stripe.webhooks.generateTestHeaderString({
          payload,
          secret: opts.secret ?? SECRET,
          ...(opts.timestamp ? { timestamp: opts.timestamp } : {}),
        })
      : opts.header;
  return t.app.inject({
    method: 'POST',
    url: '/api/checkout/webhook/stripe',
    headers: { 'content-type': 'application/json', ...(signature === null ? {} : { 'stripe-signature': signature }) },
    payload,
  });
}

async function eventRows(checkoutId: string): Promise<number> {
  const res = await t.built.database.db.execute<{ n: number }>(
    sql`SELECT count(*)::int AS n FROM checkout_events WHERE checkout_id = ${checkoutId}`,
  );
  return Number(res.rows[0]?.n);
}

/** The events recorded as refused (signed but unreadable), which name no checkout. */
async function refusedRows(): Promise<Array<{ event_type: string; checkout_id: string | null }>> {
  const res = await t.built.database.db.execute<{ event_type: string; checkout_id: string | null }>(
    sql`SELECT event_type, checkout_id FROM checkout_events WHERE provider_id = 2 AND outcome = 'refused' ORDER BY received_at`,
  );
  return res.rows;
}

async function fresh(): Promise<{ m: Member; bought: BuyPackageResponse }> {
  const m = await registerMember(t.app, 'card');
  return { m, bought: await buy(t, m, pkg, 2) };
}

describe('Stripe checkout', () => {
  it('buyPackage opens a Checkout Session with the package as line item and our checkout id', async () => {
    const { bought } = await fresh();
    expect(bought.link).toBe(`https://checkout.stripe.test/c/pay/${bought.checkout.refId}`);
    expect(bought.checkout.refId).toMatch(/^cs_test_/);
    const sent = stub.requests.at(-1)?.body ?? {};
    expect(sent).toMatchObject({
      mode: 'payment',
      client_reference_id: bought.checkout._id,
      'metadata[checkoutId]': bought.checkout._id,
      'metadata[packageId]': pkg._id,
      'payment_intent_data[metadata][checkoutId]': bought.checkout._id,
      'line_items[0][price_data][unit_amount]': '999',
      'line_items[0][price_data][currency]': 'usd',
      'line_items[0][price_data][product_data][name]': pkg.name,
    });
  });

  it('a paid completion delivered 5 times, 3 of them at once, credits once', async () => {
    const { m, bought } = await fresh();
    const payload = eventJson('checkout.session.completed', session(bought));
    const concurrent = await Promise.all([1, 2, 3].map(() => deliver(payload)));
    const later = [await deliver(payload), await deliver(payload)];
    const all = [...concurrent, ...later];
    expect(all.map((r) => r.statusCode)).toEqual([200, 200, 200, 200, 200]);
    expect(all.map((r) => r.json().outcome).sort()).toEqual([
      'completed',
      'duplicate',
      'duplicate',
      'duplicate',
      'duplicate',
    ]);
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1000');
    const c = await checkoutOf(t, m, bought.checkout._id);
    expect(c?.state).toBe(9);
    expect(c?.eventHistory.map((e) => e.eventType)).toEqual(['checkout.session.completed']);
  });

  it.each([
    [
      'a changed body byte',
      (p: string) =>
        deliver(p.replace('"paid"', '"pa1d"'), {
          header: stripe.webhooks.generateTestHeaderString({ payload: p, secret: SECRET }),
        }),
    ],
    ['a wrong secret', (p: string) => deliver(p, { secret: 'whsec_wrong' })],
    ['no signature header', (p: string) => deliver(p, { header: null })],
    ['a timestamp 301 s old', (p: string) => deliver(p, { timestamp: Math.floor(Date.now() / 1000) - 301 })],
    [
      'a body re-serialised from JSON',
      (p: string) =>
        deliver(JSON.stringify(JSON.parse(p), null, 2), {
          header: stripe.webhooks.generateTestHeaderString({ payload: p, secret: SECRET }),
        }),
    ],
  ])('%s is refused with 400 and changes nothing', async (_what, send) => {
    const { m, bought } = await fresh();
    const res = await send(eventJson('checkout.session.completed', session(bought)));
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Invalid signature');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    expect(await eventRows(bought.checkout._id)).toBe(0);
    expect((await checkoutOf(t, m, bought.checkout._id))?.state).toBe(1);
  });

  it('an unpaid completion waits (Pending); the async success then credits once', async () => {
    const { m, bought } = await fresh();
    const unpaid = await deliver(
      eventJson('checkout.session.completed', session(bought, { payment_status: 'unpaid' })),
    );
    expect(unpaid.json().outcome).toBe('pending');
    expect((await checkoutOf(t, m, bought.checkout._id))?.state).toBe(3);
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    const succeeded = eventJson('checkout.session.async_payment_succeeded', session(bought));
    expect((await deliver(succeeded)).json().outcome).toBe('completed');
    expect((await deliver(succeeded)).json().outcome).toBe('duplicate');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1000');
  });

  it('a wrong amount, currency or package never credits; an expiry cancels', async () => {
    const { m, bought } = await fresh();
    for (const over of [
      { amount_total: 99 },
      { currency: 'eur' },
      { metadata: { checkoutId: bought.checkout._id, packageId: 'aaaaaaaaaaaaaaaaaaaaaaaa' } },
    ]) {
      const res = await deliver(eventJson('checkout.session.completed', session(bought, over)));
      expect(res.json().outcome).toBe('mismatch');
    }
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    expect(
      (await deliver(eventJson('checkout.session.expired', session(bought, { payment_status: 'unpaid' })))).json()
        .outcome,
    ).toBe('cancelled');
    const c = await checkoutOf(t, m, bought.checkout._id);
    expect(c?.state).toBe(8);
    expect(c?.eventHistory).toHaveLength(4);
  });

  it('a refund after the member spent part takes back what is left and records the rest as owed', async () => {
    const { m, bought } = await fresh();
    await deliver(eventJson('checkout.session.completed', session(bought)));
    // The member spends 600 of the 1,000 Credits (burned here, as a game purchase would).
    const burn = await call(t.app, t.admin.token, 'POST', '/api/bank/burn', {
      recipientNickName: m.nickname,
      currencyId: CREDITS,
      amount: '600',
      note: 'spent in the game',
    });
    expect(burn.statusCode, burn.body).toBe(200);
    const charge = {
      id: `ch_${bought.checkout._id}`,
      object: 'charge',
      payment_intent: `pi_${bought.checkout._id}`,
      amount: 999,
      amount_refunded: 999,
      metadata: {},
    };
    const refund = await deliver(eventJson('charge.refunded', charge));
    expect(refund.json().outcome).toBe('resolved');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    const c = await checkoutOf(t, m, bought.checkout._id);
    expect(c).toMatchObject({ state: 6, owed: '600.00' });
    // A dispute lost afterwards takes nothing more.
    const dispute = {
      id: 'dp_1',
      object: 'dispute',
      status: 'lost',
      payment_intent: `pi_${bought.checkout._id}`,
      charge: charge.id,
    };
    expect((await deliver(eventJson('charge.dispute.closed', dispute))).json().outcome).toBe('resolved');
    expect((await checkoutOf(t, m, bought.checkout._id))?.owed).toBe('600.00');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a signature dated 3600 s ahead is refused; one 60 s ahead (clock skew) is accepted', async () => {
    const { m, bought } = await fresh();
    const now = Math.floor(Date.now() / 1000);
    const ahead = await deliver(eventJson('checkout.session.completed', session(bought)), { timestamp: now + 3600 });
    expect(ahead.statusCode).toBe(400);
    expect(ahead.json().message).toBe('Invalid signature');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('0');
    expect(await eventRows(bought.checkout._id)).toBe(0);
    expect((await checkoutOf(t, m, bought.checkout._id))?.state).toBe(1);
    const skewed = await deliver(eventJson('checkout.session.completed', session(bought)), { timestamp: now + 60 });
    expect(skewed.statusCode, skewed.body).toBe(200);
    expect(skewed.json().outcome).toBe('completed');
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1000');
    await expectLedgerBalanced(t.app, t.admin);
  });
});

describe('Stripe events signed correctly but malformed', () => {
  it.each([
    ['the body null', () => 'null', '"value" contains an invalid value', ''],
    [
      'a completion whose data.object is null',
      () => JSON.stringify({ id: 'evt_x', type: 'checkout.session.completed', data: { object: null } }),
      '"data.object" contains an invalid value',
      'checkout.session.completed',
    ],
    [
      'a refund whose amount_refunded is "abc"',
      (bought: BuyPackageResponse) =>
        eventJson('charge.refunded', {
          id: `ch_${bought.checkout._id}`,
          object: 'charge',
          payment_intent: `pi_${bought.checkout._id}`,
          amount: 999,
          amount_refunded: 'abc',
          metadata: { checkoutId: bought.checkout._id },
        }),
      '"data.object.amount_refunded" contains an invalid value',
      'charge.refunded',
    ],
  ])('%s answers 400, is recorded as refused once and changes nothing', async (_what, body, message, type) => {
    // A completed purchase: what a malformed event must not touch.
    const { m, bought } = await fresh();
    expect((await deliver(eventJson('checkout.session.completed', session(bought)))).json().outcome).toBe('completed');
    const before = (await refusedRows()).length;
    const payload = body(bought);
    for (const attempt of [1, 2]) {
      const res = await deliver(payload);
      expect(res.statusCode, `attempt ${attempt}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(message);
    }
    // Recorded once (a redelivery of the same body adds nothing), naming no checkout.
    const refused = await refusedRows();
    expect(refused).toHaveLength(before + 1);
    expect(refused.at(-1)).toEqual({ event_type: type, checkout_id: null });
    expect(await balanceOf(t.app, m, CREDITS)).toBe('1000');
    const c = await checkoutOf(t, m, bought.checkout._id);
    expect(c?.state).toBe(9);
    expect(c?.eventHistory.map((e) => e.eventType)).toEqual(['checkout.session.completed']);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
