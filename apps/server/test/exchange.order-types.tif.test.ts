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
import { balanceOf, call, expectLedgerBalanced, useTestApp } from './helpers.ts';

const t = useTestApp();
const { ledgerRows, placeWith, placeWithOk } = exchangeCalls(t);

/** A pair with one resting sell of 1 at 2.00 and a buyer holding 10 of the quote currency. */
async function oneSell() {
  const mk = await createMarket(t.app, t.admin);
  const seller = await fundedMember(t.app, t.admin, { [mk.base.currencyId]: '5' });
  const sell = await placeOk(t.app, seller, mk.pair._id, false, '1', '2');
  const buyer = await fundedMember(t.app, t.admin, { [mk.quote.currencyId]: '10' });
  return { mk, seller, sell, buyer };
}

async function expectAllConsistent(mk: Market) {
  await expectBookConsistent(t.built, mk.pair._id, mk.quote.precision);
  await expectLedgerBalanced(t.app, t.admin);
}

describe('immediate or cancel', () => {
  it('fills what it can at once and cancels the rest, its escrow back', async () => {
    const { mk, seller, buyer } = await oneSell();
    const [b, q] = [mk.base.ticker, mk.quote.ticker];
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '3', price: '2.5', timeInForce: 'IOC' });
    expect(res.message).toBe(
      `Placed a buy order of 3.00 ${b} at 2.50 ${q}; 1.00 ${b} filled at once; the rest was cancelled`,
    );
    expect(res.order).toMatchObject({ type: 'limit', timeInForce: 'IOC', state: 2, filledAmount: '1.00' });
    // 7.50 escrowed; 2.00 paid, 0.50 price improvement and 5.00 of the cancelled rest back.
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8');
    expect(await balanceOf(t.app, buyer, mk.base.currencyId)).toBe('1');
    expect(await balanceOf(t.app, seller, mk.quote.currencyId)).toBe('2');
    expect(await ledgerRows(res.order._id)).toEqual([
      { category: 20, amount: '7.5', sender_id: buyer.id, recipient_id: null, escrow: true },
      { category: 22, amount: '2', sender_id: null, recipient_id: seller.id, escrow: true },
      { category: 22, amount: '0.5', sender_id: null, recipient_id: buyer.id, escrow: true },
      { category: 21, amount: '5', sender_id: null, recipient_id: buyer.id, escrow: true },
    ]);
    // Nothing of it rests on the book.
    const book = await call(t.app, undefined, 'POST', '/api/cex/getOrders', { pair: mk.pair._id });
    expect(book.json().orders.buys).toEqual([]);
    await expectAllConsistent(mk);
  });

  it('an IOC that matches nothing is cancelled at once with all its escrow back', async () => {
    const { mk, buyer } = await oneSell();
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', price: '1', timeInForce: 'IOC' });
    expect(res.order).toMatchObject({ state: 2, filledAmount: '0.00' });
    expect(res.trades).toEqual([]);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('10');
    await expectAllConsistent(mk);
  });
});

describe('fill or kill', () => {
  it('is refused when it cannot fill in full, and nothing changes', async () => {
    const { mk, seller, sell, buyer } = await oneSell();
    const res = await placeWith(buyer, mk, { buySide: true, initialAmount: '2', price: '2', timeInForce: 'FOK' });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ message: 'Order could not be filled in full' });
    expect(await ordersOf(t.app, buyer)).toEqual([]);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('10');
    const [resting] = await ordersOf(t.app, seller);
    expect(resting).toMatchObject({ _id: sell.order._id, state: 1, filledAmount: '0.00' });
    await expectAllConsistent(mk);
  });

  it('fills in full at once when it can', async () => {
    const { mk, buyer } = await oneSell();
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', price: '2.5', timeInForce: 'FOK' });
    expect(res.order).toMatchObject({ timeInForce: 'FOK', state: 3, filledAmount: '1.00' });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8');
    await expectAllConsistent(mk);
  });

  it('a FOK market order fills in full or is refused', async () => {
    const { mk, buyer } = await oneSell();
    const refused = await placeWith(buyer, mk, {
      buySide: true,
      initialAmount: '1.5',
      type: 'market',
      timeInForce: 'FOK',
    });
    expect(refused.json()).toEqual({ message: 'Order could not be filled in full' });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('10');
    const res = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', type: 'market', timeInForce: 'FOK' });
    expect(res.order).toMatchObject({ type: 'market', state: 3, price: '2.00' });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8');
    await expectAllConsistent(mk);
  });
});

describe('post-only', () => {
  it('is refused when it would take liquidity, and rests when it would not', async () => {
    const { mk, buyer } = await oneSell();
    const taking = await placeWith(buyer, mk, { buySide: true, initialAmount: '1', price: '2', postOnly: true });
    expect(taking.statusCode).toBe(409);
    expect(taking.json()).toEqual({ message: 'Order would take liquidity' });
    expect(await ordersOf(t.app, buyer)).toEqual([]);
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('10');

    const making = await placeWithOk(buyer, mk, { buySide: true, initialAmount: '1', price: '1.9', postOnly: true });
    expect(making.order).toMatchObject({ postOnly: true, state: 1, filledAmount: '0.00' });
    expect(await balanceOf(t.app, buyer, mk.quote.currencyId)).toBe('8.1');
    await expectAllConsistent(mk);
  });
});
