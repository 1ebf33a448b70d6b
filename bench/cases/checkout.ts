/**
 * The checkout webhook benchmark: signed Stripe `checkout.session.completed` events per
 * second through `POST /api/checkout/webhook/stripe`, each completing its own checkout (verify the
 * signature with the SDK, record the event, lock the checkout, mint the Credits, in one transaction).
 * The checkouts are opened up front with SQL, as buyPackage would leave them; the events are signed as
 * Stripe signs them (`t=<seconds>,v1=<HMAC-SHA256 of "t.payload">`).
 */
import { createHmac } from 'node:crypto';
import type { RawRequest } from 'autocannon';
import { type BenchContext, measure, type Suite, throughputFigures } from '../lib/context.ts';
import { registerFundedMembers } from '../lib/members.ts';
import { psql } from '../lib/postgres.ts';

/** The bench server's Stripe webhook secret (bench/run.ts sets it). */
export const BENCH_STRIPE_WEBHOOK_SECRET = 'whsec_bench_starlight';
/** Checkouts opened up front: more than a run can complete at several thousand a second. */
const CHECKOUTS = 100_000;

/**
 * The first checkout number of a run: 0 for `make bench`, else from the run's tag (base 36), 2^20 apart,
 * so runs on one database (`make bench-scale`) never reuse an id.
 */
const firstCheckout = (tag: string) => (tag === '' ? 0 : Number.parseInt(tag, 36) * 2 ** 20);
const checkoutId = (n: number) => `cc${n.toString(16).padStart(22, '0')}`;

/** Opens CHECKOUTS card checkouts of `pkg` for this run's `buyer*` members, refs `cs_bench_<n>`. */
async function openCheckouts(ctx: BenchContext, pkg: string, members: number): Promise<void> {
  const first = firstCheckout(ctx.tag);
  await psql(
    ctx.pg,
    ctx.database,
    `INSERT INTO checkout_transactions (id, user_id, package_id, package_name, provider_id, ref_id, cost, amount)
     SELECT 'cc' || lpad(to_hex(${first}::bigint + i), 22, '0'), u.id, p.id, p.name, 2,
            'cs_bench_' || (${first}::bigint + i), p.cost, p.amount
       FROM generate_series(0, ${CHECKOUTS - 1}) AS i
       JOIN users u ON u.nickname = 'buyer${ctx.tag}' || lpad((i % ${members})::text, 4, '0')
       CROSS JOIN checkout_packages p WHERE p.id = '${pkg}'`,
  );
}

/** Request `n`: the signed completion event of checkout `n` (of the run's first one). */
function completion(pkg: string, first: number): (n: number) => RawRequest {
  return (n) => {
    const c = first + (n % CHECKOUTS);
    const id = checkoutId(c);
    const payload = JSON.stringify({
      id: `evt_bench_${first + n}`,
      object: 'event',
      type: 'checkout.session.completed',
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: `cs_bench_${c}`,
          object: 'checkout.session',
          client_reference_id: id,
          metadata: { checkoutId: id, packageId: pkg },
          amount_total: 999,
          currency: 'usd',
          payment_status: 'paid',
          payment_intent: `pi_bench_${first + n}`,
        },
      },
    });
    const t = Math.floor(Date.now() / 1000);
    const v1 = createHmac('sha256', BENCH_STRIPE_WEBHOOK_SECRET).update(`${t}.${payload}`).digest('hex');
    return {
      method: 'POST',
      path: '/api/checkout/webhook/stripe',
      headers: { 'content-type': 'application/json', 'stripe-signature': `t=${t},v1=${v1}` },
      body: payload,
    };
  };
}

export const checkoutSuite: Suite = {
  name: 'checkout',
  cases: ['webhook_completed'],
  async run(ctx, selected, report) {
    if (!selected('webhook_completed')) return;
    const count = Number(process.env.BENCH_MEMBERS || 200);
    await registerFundedMembers(ctx, count, 'buyer', [], '0');
    const { package: pkg } = await ctx.api.post<{ package: { _id: string } }>(
      '/api/checkout/packages/create',
      {
        name: `Bench Credits${ctx.tag}`,
        description: 'A thousand Credits for the bench',
        cost: '9.99',
        amount: '1000',
      },
      ctx.adminToken,
    );
    await openCheckouts(ctx, pkg._id, count);
    ctx.log(`checkout: ${CHECKOUTS} checkouts opened for ${count} members; webhook_completed...`);
    const measured = await measure(ctx, completion(pkg._id, firstCheckout(ctx.tag)));
    // Each completed checkout of this run's buyers minted exactly once (category 12).
    const once = await psql(
      ctx.pg,
      ctx.database,
      `SELECT (SELECT count(*) FROM checkout_transactions c JOIN users u ON u.id = c.user_id
                WHERE c.state = 9 AND u.nickname LIKE 'buyer${ctx.tag}%')
            = (SELECT count(*) FROM bank_transactions t JOIN users u ON u.id = t.recipient_id
                WHERE t.category = 12 AND u.nickname LIKE 'buyer${ctx.tag}%')`,
    );
    report({ ...throughputFigures(ctx, 'webhook_completed', 'events_per_s', measured), credited_once: once === 't' });
  },
};
