/**
 * Provider events by group commit (DESIGN §9, §7): Stripe webhooks sent at once go in batches,
 * and each keeps the outcome it has alone. A burst of completions, a duplicate delivery, two events of
 * one checkout, a wrong amount, an unpaid completion, an unknown checkout and a refund that names the
 * checkout (its payment's metadata) arrive together: every checkout is credited once or not at all, the
 * refund takes back what its checkout gave, each event is recorded once with its outcome, redeliveries of
 * recorded events in a later burst are duplicates, and the ledger balances.
 */
import type { BuyPackageResponse, CheckoutPackage } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newObjectId } from '../src/lib/ids.ts';
import { buy, checkoutOf, publishedPackage } from './checkout.helpers.ts';
import { balanceOf, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';
import { startStripeStub } from './provider-stubs.ts';

const SECRET = 'whsec_test_starlight_batch';
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

let seq = 0;
const eventJson = (type: string, object: Record<string, unknown>, id = `evt_batch_${++seq}_${Date.now()}`) =>
  JSON.stringify({
    id,
    object: 'event',
    type,
    api_version: '2025-01-27',
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });

const session = (checkoutId: string, refId: string, over: Record<string, unknown> = {}) => ({
  id: refId,
  object: 'checkout.session',
  client_reference_id: checkoutId,
  metadata: { checkoutId, packageId: pkg._id },
  amount_total: 999,
  currency: 'usd',
  payment_status: 'paid',
  payment_intent: `pi_${checkoutId}`,
  ...over,
});

const deliver = (payload: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/checkout/webhook/stripe',
    headers: {
      'content-type': 'application/json',
      'stripe-signature': stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET }),
    },
    payload,
  });

async function fresh(): Promise<{ m: Member; bought: BuyPackageResponse }> {
  const m = await registerMember(t.app, 'batch');
  return { m, bought: await buy(t, m, pkg, 2) };
}

async function outcomesOf(checkoutId: string): Promise<string[]> {
  const res = await t.built.database.db.execute<{ outcome: string }>(
    sql`SELECT outcome FROM checkout_events WHERE checkout_id = ${checkoutId} ORDER BY outcome`,
  );
  return res.rows.map((r) => r.outcome);
}

describe('provider events sent at once', () => {
  it('go in batches, each with the outcome it has alone; every checkout credits once or not at all', async () => {
    const payers = await Promise.all(Array.from({ length: 16 }, () => fresh()));
    const twice = await fresh();
    const wrong = await fresh();
    const unpaid = await fresh();
    const refunded = await fresh();
    const first = await deliver(
      eventJson('checkout.session.completed', session(refunded.bought.checkout._id, refunded.bought.checkout.refId)),
    );
    expect(first.json().outcome).toBe('completed');

    const c = (x: { bought: BuyPackageResponse }) => [x.bought.checkout._id, x.bought.checkout.refId] as const;
    // A burst whose events name distinct checkouts and events: the ones behind the first go as one batch.
    const sends: Array<[string, string]> = [
      ...payers
        .slice(1)
        .map((p) => [eventJson('checkout.session.completed', session(...c(p))), 'completed'] as [string, string]),
      [eventJson('checkout.session.completed', session(...c(wrong), { amount_total: 99 })), 'mismatch'],
      [eventJson('checkout.session.completed', session(...c(unpaid), { payment_status: 'unpaid' })), 'pending'],
      [eventJson('checkout.session.completed', session(newObjectId(), 'cs_test_nobody')), 'unknown_checkout'],
      [
        eventJson('charge.refunded', {
          id: `ch_${refunded.bought.checkout._id}`,
          object: 'charge',
          payment_intent: `pi_${refunded.bought.checkout._id}`,
          amount: 999,
          amount_refunded: 999,
          metadata: { checkoutId: refunded.bought.checkout._id },
        }),
        'resolved',
      ],
    ];
    const answers = await Promise.all(sends.map(([payload]) => deliver(payload)));
    expect(answers.map((a) => a.statusCode)).toEqual(sends.map(() => 200));
    expect(answers.map((a) => a.json<{ outcome: string }>().outcome)).toEqual(sends.map(([, want]) => want));

    // A burst with a duplicate delivery and two events of one checkout: one of each pair completes, the
    // other is a duplicate or finds the checkout completed.
    const duplicate = eventJson('checkout.session.completed', session(...c(payers[0]!)));
    const pairs = await Promise.all(
      [
        duplicate,
        duplicate,
        eventJson('checkout.session.completed', session(...c(twice))),
        eventJson('checkout.session.async_payment_succeeded', session(...c(twice))),
      ].map(deliver),
    );
    const got = pairs.map((a) => a.json<{ outcome: string }>().outcome);
    expect(got.slice(0, 2).sort()).toEqual(['completed', 'duplicate']);
    expect(got.slice(2).sort()).toEqual(['completed', 'ignored']);

    // A burst of redeliveries of recorded events with a new completion: the batch finds them recorded.
    const late = await fresh();
    const again = await Promise.all(
      [
        sends[0]?.[0] as string,
        sends[1]?.[0] as string,
        eventJson('checkout.session.completed', session(...c(late))),
      ].map(deliver),
    );
    expect(again.map((a) => a.json<{ outcome: string }>().outcome)).toEqual(['duplicate', 'duplicate', 'completed']);
    expect(await balanceOf(t.app, late.m, CREDITS)).toBe('1000');
    expect(await outcomesOf(late.bought.checkout._id)).toEqual(['completed']);

    for (const p of [...payers, twice]) expect(await balanceOf(t.app, p.m, CREDITS)).toBe('1000');
    for (const p of [wrong, unpaid, refunded]) expect(await balanceOf(t.app, p.m, CREDITS)).toBe('0');
    expect((await checkoutOf(t, payers[3]!.m, payers[3]!.bought.checkout._id))?.state).toBe(9);
    expect((await checkoutOf(t, wrong.m, wrong.bought.checkout._id))?.state).toBe(1);
    expect((await checkoutOf(t, unpaid.m, unpaid.bought.checkout._id))?.state).toBe(3);
    expect((await checkoutOf(t, refunded.m, refunded.bought.checkout._id))?.state).toBe(6);
    // Each event recorded once, with its outcome.
    for (const p of payers) expect(await outcomesOf(p.bought.checkout._id)).toEqual(['completed']);
    expect(await outcomesOf(twice.bought.checkout._id)).toEqual(['completed', 'ignored']);
    expect(await outcomesOf(wrong.bought.checkout._id)).toEqual(['mismatch']);
    await expectLedgerBalanced(t.app, t.admin);
  });
});
