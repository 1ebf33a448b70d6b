import { describe, expect, it } from 'vitest';
import {
  createMarket,
  exchangeCalls,
  expectBookConsistent,
  fundedMember,
  type Market,
  ordersOf,
  placeOk,
} from './exchange.helpers.ts';
import { balanceOf, expectLedgerBalanced, useTestApp } from './helpers.ts';

const t = useTestApp();
const { ledgerRows, placeWith, placeWithOk } = exchangeCalls(t);

/** placeOrder with any body fields on `mk`'s pair. */

/** A pair with two resting sells of two members: 1 at 2.00 and 2 at 3.00. */
async function marketWithSells() {
  const mk = await createMarket(t.app, t.admin);
  const s1 = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
  const s2 = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
  await placeOk(t.app, s1, mk.pair._id, false, '1', '2');
  await placeOk(t.app, s2, mk.pair._id, false, '2', '3');
  return { mk, s1, s2 };
}

async function expectAllConsistent(mk: Market) {
  await expectBookConsistent(t.built, mk.pair._id, mk.quote.precision);
  await expectLedgerBalanced(t.app, t.admin);
}

describe('market orders', () => {
  it('a market buy walks the book and never spends more than its owner holds; the rest is cancelled', async () => {
    const { mk, s1, s2 } = await marketWithSells();
    const [b, q] = [mk.base.ticker, mk.quote.ticker];
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '7' });
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '3', type: 'market' });
    // 1 at 2.00 (2.00), then 1.66 at 3.00 (4.98) is all 5.00 can pay for: 0.02 comes back.
    expect(res.message).toBe(
      `Placed a market buy order of 3.00 ${b}; 2.66 ${b} filled at once at an average of 2.62 ${q}; the rest was cancelled`,
    );
    expect(res.order).toMatchObject({
      type: 'market',
      timeInForce: 'GTC',
      postOnly: false,
      stopPrice: null,
      expiresAt: null,
      state: 2,
      filledAmount: '2.66',
      price: '2.62',
    });
    expect(res.trades.map((x) => [x.price, x.amount])).toEqual([
      ['2.00', '1.00'],
      ['3.00', '1.66'],
    ]);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('0.02');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('2.66');
    expect(await balanceOf(t.app, s1, mk.quote.currencyId)).toBe('2');
    expect(await balanceOf(t.app, s2, mk.quote.currencyId)).toBe('4.98');
    expect(await ledgerRows(res.order._id)).toEqual([
      { category: 20, amount: '7', sender_id: buyer.id, recipient_id: null, escrow: true },
      { category: 22, amount: '2', sender_id: null, recipient_id: s1.id, escrow: true },
      { category: 22, amount: '4.98', sender_id: null, recipient_id: s2.id, escrow: true },
      { category: 21, amount: '0.02', sender_id: null, recipient_id: buyer.id, escrow: true },
    ]);
    await expectAllConsistent(mk);
  });

  it('a market buy that fills in full is Filled and its unused escrow comes back', async () => {
    const { mk } = await marketWithSells();
    const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '100' });
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1.5', type: 'market' });
    expect(res.order).toMatchObject({ state: 3, filledAmount: '1.50', price: '2.33' });
    // 1 at 2.00 and 0.5 at 3.00: 3.50 spent of the 100 escrowed.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('96.5');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('1.5');
    const [first] = (await ordersOf(t.app, buyer)).filter((o) => o._id === res.order._id);
    expect(first).toMatchObject({ type: 'market', state: 3 });
    await expectAllConsistent(mk);
  });

  it('a market sell fills against the best buys and cancels the rest', async () => {
    const mk = await createMarket(t.app, t.admin);
    const b1 = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    const b2 = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
    await placeOk(t.app, b1, mk.pair._id, true, '1', '1.5');
    await placeOk(t.app, b2, mk.pair._id, true, '1', '2');
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    const res = await placeWithOk(seller, mk, { buySide: false, initialAmount: '3', type: 'market' });
    expect(res.order).toMatchObject({ type: 'market', state: 2, filledAmount: '2.00', price: '1.75' });
    expect(res.trades.map((x) => x.price)).toEqual(['2.00', '1.50']);
    expect(await balanceOf(t.app, seller, mk.base.currencyId)).toBe('3');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('3.5');
    await expectAllConsistent(mk);
  });

  it('with nothing to match, or funds for nothing, a market order is refused and nothing changes', async () => {
    const mk = await createMarket(t.app, t.admin);
    const me = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '5', [mk.base.currencyId]: '5' });
    const empty = await placeWith(me, mk, { buySide: true, initialAmount: '1', type: 'market' });
    expect(empty.statusCode).toBe(409);
    expect(empty.json()).toEqual({ message: 'No orders to match' });
    // Only my own orders on the other side: still nothing to match, and my order stays.
    const mine = await placeOk(t.app, me, mk.pair._id, false, '1', '2');
    const own = await placeWith(me, mk, { buySide: true, initialAmount: '1', type: 'market' });
    expect(own.json()).toEqual({ message: 'No orders to match' });
    expect((await ordersOf(t.app, me)).map((o) => [o._id, o.state])).toEqual([[mine.order._id, 1]]);
    // Another member's sell, and a buyer with nothing to pay.
    const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
    await placeOk(t.app, seller, mk.pair._id, false, '1', '2');
    const poor = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '0.01' });
    const broke = await placeWith(poor, mk, { buySide: true, initialAmount: '1', type: 'market' });
    expect(broke.statusCode).toBe(409);
    expect(broke.json()).toEqual({ message: 'Insufficient funds' });
    expect(await ordersOf(t.app, poor)).toEqual([]);
    expect(await balanceOf(t.app, poor, mk.quote.currencyId)).toBe('0.01');
    // A market sell of more than is held, with a buy to match.
    const bidder = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '5' });
    await placeOk(t.app, bidder, mk.pair._id, true, '1', '1');
    const short = await placeWith(me, mk, { buySide: false, initialAmount: '10', type: 'market' });
    expect(short.json()).toEqual({ message: 'Insufficient funds' });
    expect(await balanceOf(t.app, me, mk.base.currencyId)).toBe('4');
    await expectAllConsistent(mk);
  });

  it('refuses a market order with a price, another order without one and an unknown type', async () => {
    const { mk } = await marketWithSells();
    const me = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '5' });
    const priced = await placeWith(me, mk, { buySide: true, initialAmount: '1', price: '2', type: 'market' });
    expect(priced.statusCode).toBe(400);
    expect(priced.json().message).toBe('A market order takes no price');
    const noPrice = await placeWith(me, mk, { buySide: true, initialAmount: '1' });
    expect(noPrice.statusCode).toBe(400);
    expect(noPrice.json().message).toBe('Price is required');
    const unknown = await placeWith(me, mk, { buySide: true, initialAmount: '1', price: '2', type: 'iceberg' });
    expect(unknown.statusCode).toBe(400);
    const tif = await placeWith(me, mk, { buySide: true, initialAmount: '1', price: '2', timeInForce: 'GTD' });
    expect(tif.statusCode).toBe(400);
    expect(await ordersOf(t.app, me)).toEqual([]);
    expect(await balanceOf(t.app, me, mk.quote.currencyId)).toBe('5');
  });
});
