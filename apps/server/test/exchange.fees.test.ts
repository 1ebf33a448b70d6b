/**
 * Maker and taker fees (DESIGN §11.4): the side whose order rested pays the pair's maker fee, the side
 * whose incoming order matched its taker fee, each on its own proceeds, rounded up (DESIGN §4); `fee` sets
 * both; fees outside 0..1 are refused in words and change nothing; the ledger stays balanced.
 */
import type { Pair, PairResponse } from '@starlight/shared';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createMarket, exchangeCalls, fundedMember, placeOk } from './exchange.helpers.ts';
import { balanceOf, call, expectLedgerBalanced, registerMember, useTestApp } from './helpers.ts';

const t = useTestApp();
const { modify } = exchangeCalls(t);

/** The fees stored on a trade of `orderId`: [buyer's, seller's], without trailing zeros. */
async function tradeFees(orderId: string): Promise<string[]> {
  const res = await t.built.database.db.execute<{ b: string; s: string }>(sql`
    SELECT buyer_fee::text AS b, seller_fee::text AS s FROM exchange_trades
    WHERE buy_order_id = ${orderId} OR sell_order_id = ${orderId}`);
  return res.rows.flatMap((r) => [r.b, r.s].map((x) => x.replace(/\.?0+$/, '')));
}

describe('maker and taker fees', () => {
  it('charges the resting side the maker fee and the incoming side the taker fee, on both sides', async () => {
    const collector = await registerMember(t.app, 'fee');
    const m = await createMarket(t.app, t.admin, {
      makerFee: '0.01',
      takerFee: '0.02',
      feeCollector: collector.nickname,
    });
    expect(m.pair).toMatchObject({ makerFee: '0.01', takerFee: '0.02', fee: '0.02' });
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const maker = await fundedMember(t.app, t.admin, { [base]: '10', [quote]: '100' });
    const taker = await fundedMember(t.app, t.admin, { [base]: '10', [quote]: '100' });

    // A resting sell of 10 at 3.00, lifted by an incoming buy: the buyer takes, the seller makes.
    await placeOk(t.app, maker, m.pair._id, false, '10', '3');
    const buy = await placeOk(t.app, taker, m.pair._id, true, '10', '3');
    expect(buy.order.state).toBe(3);
    // Buyer (taker) pays 2% of 10 base = 0.20; seller (maker) 1% of 30.00 quote = 0.30.
    expect(await tradeFees(buy.order._id)).toEqual(['0.2', '0.3']);
    expect(await balanceOf(t.app, taker, base)).toBe('19.8');
    expect(await balanceOf(t.app, taker, quote)).toBe('70');
    expect(await balanceOf(t.app, maker, base)).toBe('0');
    expect(await balanceOf(t.app, maker, quote)).toBe('129.7');

    // A resting buy of 5 at 2.00, hit by an incoming sell: the buyer makes, the seller takes.
    await placeOk(t.app, maker, m.pair._id, true, '5', '2');
    const sell = await placeOk(t.app, taker, m.pair._id, false, '5', '2');
    // Buyer (maker) pays 1% of 5 base = 0.05; seller (taker) 2% of 10.00 quote = 0.20.
    expect(await tradeFees(sell.order._id)).toEqual(['0.05', '0.2']);
    expect(await balanceOf(t.app, maker, base)).toBe('4.95');
    expect(await balanceOf(t.app, taker, quote)).toBe('79.8');

    // Every fee reached the collector: 0.20 + 0.05 base, 0.30 + 0.20 quote.
    expect(await balanceOf(t.app, collector, base)).toBe('0.25');
    expect(await balanceOf(t.app, collector, quote)).toBe('0.5');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('rounds a small positive fee up to one smallest unit, for maker and taker alike', async () => {
    const m = await createMarket(t.app, t.admin, { makerFee: '0.001', takerFee: '0.002' });
    const [base, quote] = [m.base.currencyId, m.quote.currencyId];
    const maker = await fundedMember(t.app, t.admin, { [base]: '5' });
    const taker = await fundedMember(t.app, t.admin, { [quote]: '5' });
    await placeOk(t.app, maker, m.pair._id, false, '1', '1');
    const buy = await placeOk(t.app, taker, m.pair._id, true, '1', '1');
    // 0.2% of 1.00 and 0.1% of 1.00 both round up to 0.01 (burned: no collector).
    expect(await tradeFees(buy.order._id)).toEqual(['0.01', '0.01']);
    expect(await balanceOf(t.app, taker, base)).toBe('0.99');
    expect(await balanceOf(t.app, maker, quote)).toBe('0.99');
    await expectLedgerBalanced(t.app, t.admin);
  });

  it('`fee` sets both fees on create and modify; one of them alone changes only itself', async () => {
    const m = await createMarket(t.app, t.admin, { fee: '0.005' });
    expect(m.pair).toMatchObject({ fee: '0.005', makerFee: '0.005', takerFee: '0.005' });

    const both = await modify(t.admin, { pairId: m.pair._id, fee: 0.003 });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json<PairResponse>().pair).toMatchObject({ fee: '0.003', makerFee: '0.003', takerFee: '0.003' });

    const makerOnly = await modify(t.admin, { pairId: m.pair._id, makerFee: '0.001' });
    expect(makerOnly.json<PairResponse>().pair).toMatchObject({ fee: '0.003', makerFee: '0.001', takerFee: '0.003' });

    // Beside `fee`, an explicit maker or taker fee wins.
    const mixed = await modify(t.admin, { pairId: m.pair._id, fee: '0.004', takerFee: '0' });
    expect(mixed.json<PairResponse>().pair).toMatchObject({ fee: '0.004', makerFee: '0.004', takerFee: '0' });

    const listed = await call(t.app, undefined, 'GET', '/api/cex/getPairs');
    const pair = listed.json<{ pairs: Pair[] }>().pairs.find((p) => p._id === m.pair._id);
    expect(pair).toMatchObject({ fee: '0.004', makerFee: '0.004', takerFee: '0' });
  });

  it('refuses fees outside 0..1 with a clear message and changes nothing', async () => {
    const m = await createMarket(t.app, t.admin, { makerFee: '0.01', takerFee: '0.02' });
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ makerFee: 1.5 }, 'Maker fee must be a number from 0 to 1'],
      [{ takerFee: '-0.1' }, 'Taker fee must be a number from 0 to 1'],
      [{ fee: 2 }, 'Fee must be a number from 0 to 1'],
      [{ takerFee: 'lots' }, 'Taker fee must be a number from 0 to 1'],
    ];
    for (const [body, message] of cases) {
      const res = await modify(t.admin, { pairId: m.pair._id, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().message).toBe(message);
    }
    const created = await call(t.app, t.admin.token, 'POST', '/api/cex/createPair', {
      buyCurrency: m.quote.currencyId,
      sellCurrency: m.base.currencyId,
      canBuy: true,
      canSell: true,
      makerFee: 1.01,
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().message).toBe('Maker fee must be a number from 0 to 1');

    const listed = await call(t.app, t.admin.token, 'GET', '/api/cex/getPairs');
    const pairs = listed.json<{ pairs: Pair[] }>().pairs;
    expect(pairs.find((p) => p._id === m.pair._id)).toMatchObject({ makerFee: '0.01', takerFee: '0.02', fee: '0.02' });
    expect(pairs.some((p) => p.buyCurrency === m.quote.currencyId && p.sellCurrency === m.base.currencyId)).toBe(false);
    // The bounds themselves are fine.
    const edges = await modify(t.admin, { pairId: m.pair._id, makerFee: 0, takerFee: 1 });
    expect(edges.json<PairResponse>().pair).toMatchObject({ makerFee: '0', takerFee: '1', fee: '1' });
    await expectLedgerBalanced(t.app, t.admin);
  });
});
