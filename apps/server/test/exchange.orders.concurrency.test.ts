/**
 * The exchange under concurrency and random sequences (DESIGN §4, §5): the per-pair lock keeps one
 * book, nothing is filled twice or refunded twice, every order's escrow matches the ledger, and the
 * conservation audit holds after every run.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createMarket, expectBookConsistent, fundedMember, ordersOf, place, placeOk } from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, type Member, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();

const cancel = (who: Member, orderId: string) => call(t.app, who.token, 'POST', '/api/cex/cancelOrder', { orderId });

describe('concurrent orders', () => {
  it('50 concurrent crossing orders from several members: one book, no double fill, conservation', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, { fee: '0.001', feeCollector: collector.nickname });
    const members = await Promise.all(
      Array.from({ length: 6 }, () =>
        fundedMember(t.app, t.admin, { [m.base.currencyId]: '1000', [m.quote.currencyId]: '20000' }),
      ),
    );
    const orders = Array.from({ length: 50 }, (_, i) => ({
      member: members[i % members.length] as Member,
      buySide: i % 2 === 0,
      qty: (1 + ((i * 7) % 13)).toString(),
      price: (10 + ((i * 5) % 7) - 3).toFixed(2),
    }));
    const results = await Promise.all(orders.map((o) => place(t.app, o.member, m.pair._id, o.buySide, o.qty, o.price)));
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(200));

    const trades = results.flatMap((r) => r.json<{ trades: Array<{ _id: string }> }>().trades);
    expect(trades.length).toBeGreaterThan(0);
    expect(new Set(trades.map((t) => t._id)).size).toBe(trades.length);
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);

    // Everything each member holds or has in escrow, plus the fees, is exactly what was minted.
    const holdings = async (currencyId: number) => {
      let total = 0n;
      for (const who of [...members, collector]) {
        total += BigInt(Math.round(Number(await balanceOf(t.app, who, currencyId)) * 100));
      }
      return total;
    };
    const escrow = async (buySide: boolean) => {
      let total = 0n;
      for (const who of members) {
        for (const o of await ordersOf(t.app, who)) {
          if (o.state !== 1 || o.buySide !== buySide) continue;
          const rest = Math.round((Number(o.initialAmount) - Number(o.filledAmount)) * 100);
          total += buySide ? BigInt(Math.ceil((rest * Math.round(Number(o.price) * 100)) / 100)) : BigInt(rest);
        }
      }
      return total;
    };
    expect((await holdings(m.base.currencyId)) + (await escrow(false))).toBe(6000n * 100n);
    expect((await holdings(m.quote.currencyId)) + (await escrow(true))).toBe(120000n * 100n);
  });

  it('concurrent cancels of one order refund it once', async () => {
    const m = await createMarket(t.app, t.admin);
    const owner = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '50' });
    const o = await placeOk(t.app, owner, m.pair._id, true, '7', '3.33');
    expect(await balanceOf(t.app, owner, m.quote.currencyId)).toBe('26.69');
    const results = await Promise.all(Array.from({ length: 12 }, () => cancel(owner, o.order._id)));
    const codes = results.map((r) => r.statusCode).sort();
    expect(codes).toEqual([200, ...Array(11).fill(409)]);
    expect(await balanceOf(t.app, owner, m.quote.currencyId)).toBe('50');
    await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('a cancel racing a crossing order either refunds the rest or fills it, never both', async () => {
    const m = await createMarket(t.app, t.admin);
    for (let round = 0; round < 5; round++) {
      const seller = await fundedMember(t.app, t.admin, { [m.base.currencyId]: '10' });
      const buyer = await fundedMember(t.app, t.admin, { [m.quote.currencyId]: '100' });
      const s = await placeOk(t.app, seller, m.pair._id, false, '10', '2');
      const [c, b] = await Promise.all([cancel(seller, s.order._id), place(t.app, buyer, m.pair._id, true, '10', '2')]);
      expect(b.statusCode).toBe(200);
      const filled = b.json<{ order: { filledAmount: string } }>().order.filledAmount;
      if (c.statusCode === 200) {
        expect(filled).toBe('0.00');
        expect(await balanceOf(t.app, seller, m.base.currencyId)).toBe('10');
        // Nobody else may be left to trade with the buyer's rest: cancel it.
        await cancel(buyer, b.json<{ order: { _id: string } }>().order._id);
      } else {
        expect(c.statusCode).toBe(409);
        expect(filled).toBe('10.00');
        expect(await balanceOf(t.app, seller, m.quote.currencyId)).toBe('20');
      }
      await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
    }
    await expectLedgerBalanced(t.app, t.admin);
  });
});

type Step =
  | { kind: 'place'; who: number; buySide: boolean; qty: number; priceCents: number }
  | { kind: 'cancel'; who: number; pick: number }
  | { kind: 'payout'; pick: number };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      who: fc.integer({ min: 0, max: 2 }),
      buySide: fc.boolean(),
      qty: fc.integer({ min: 2, max: 500 }),
      priceCents: fc.integer({ min: 90, max: 110 }),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({ kind: fc.constant('cancel' as const), who: fc.integer({ min: 0, max: 2 }), pick: fc.nat() }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('payout' as const), pick: fc.nat() }) },
);

describe('random order sequences', () => {
  it('keep the book consistent with the ledger and the ledger balanced', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(stepArb, { minLength: 5, maxLength: 25 }),
        fc.constantFrom('0', '0.0025', '0.05'),
        fc.boolean(),
        async (steps, fee, concurrent) => {
          const collector = await registerMember(t.app, 'fee');
          const m = await createMarket(t.app, t.admin, { fee, feeCollector: fee === '0.05' ? '' : collector.nickname });
          const traders = await Promise.all(
            [0, 1, 2].map(() =>
              fundedMember(t.app, t.admin, { [m.base.currencyId]: '30', [m.quote.currencyId]: '30' }),
            ),
          );
          const run = async (step: Step) => {
            if (step.kind === 'place') {
              const who = traders[step.who] as Member;
              const res = await place(
                t.app,
                who,
                m.pair._id,
                step.buySide,
                (step.qty / 100).toFixed(2),
                (step.priceCents / 100).toFixed(2),
              );
              expect([200, 409], res.body).toContain(res.statusCode);
              return;
            }
            const owner = traders[step.kind === 'cancel' ? step.who : step.pick % 3] as Member;
            const open = (await ordersOf(t.app, owner)).filter((o) => o.state === 1);
            const target = open[step.pick % Math.max(open.length, 1)];
            if (!target) return;
            const res =
              step.kind === 'cancel'
                ? await cancel(owner, target._id)
                : await call(t.app, t.admin.token, 'POST', '/api/cex/payoutOrder', { orderId: target._id });
            const ok = step.kind === 'payout' && target.buySide ? [409] : [200, 409];
            expect(ok, res.body).toContain(res.statusCode);
          };
          if (concurrent) await Promise.all(steps.map(run));
          else for (const step of steps) await run(step);
          await expectBookConsistent(t.built, m.pair._id, m.quote.precision);
          await expectLedgerBalanced(t.app, t.admin);
        },
      ),
      { numRuns: 8 },
    );
  });
});
